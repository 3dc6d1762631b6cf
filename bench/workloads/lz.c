/* bench workload: LZ77 + Huffman compression round trip.
   A generated corpus (text from a Zipf-like vocabulary, numbers, markup, some noise) is
   compressed in 64 KiB slices: LZ77 with hash chains (32 KiB window, lazy matching), then
   canonical Huffman codes over deflate's literal/length and distance alphabets (code
   lengths limited to 15 bits, written as 4-bit fields), and decompressed with a
   count-based canonical decoder.  Every slice must come back byte for byte.
   Usage: lz [SCALE]  (slices, default 230) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned char u8;
typedef unsigned int u32;

#define WBITS 15
#define WSIZE (1 << WBITS)
#define HBITS 15
#define HSIZE (1 << HBITS)
#define MINMATCH 3
#define MAXMATCH 258
#define MAXCHAIN 48
#define SLICE (64 * 1024)
#define NLIT 286
#define NDIST 30
#define MAXBITS 15

/* ---------- corpus ---------- */
static unsigned long long seed = 88172645463325252ULL;
static u32 rnd(void) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return (u32)seed; }

static const char *const words[] = {
  "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
  "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
  "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
  "there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "compression",
  "profile", "path", "counter", "function", "register", "branch", "window", "huffman",
  "dictionary", "interpreter", "benchmark", "distance", "literal", "overhead", "instrument",
};
#define NWORDS (sizeof words / sizeof words[0])

static void make_corpus(u8 *buf, size_t n)
{
  size_t i = 0;
  while (i < n) {
    u32 r = rnd() % 100;
    char tmp[64];
    size_t len;
    if (r < 80) {
      u32 a = rnd() % NWORDS, b = rnd() % NWORDS;
      const char *w = words[a < b ? a : b];            /* skewed towards the front */
      len = (size_t)sprintf(tmp, "%s%s", w, rnd() % 9 ? " " : ". ");
    } else if (r < 88) len = (size_t)sprintf(tmp, "%u", rnd() % 100000);
    else if (r < 94) len = (size_t)sprintf(tmp, "<tag id=\"%u\">", rnd() % 64);
    else if (r < 97) len = (size_t)sprintf(tmp, "\n");
    else {
      size_t k;
      len = 1 + rnd() % 12;
      for (k = 0; k < len; k++) tmp[k] = (char)(rnd() & 0xff);
    }
    if (len > n - i) len = n - i;
    memcpy(buf + i, tmp, len);
    i += len;
  }
}

/* ---------- deflate's length and distance codes ---------- */
static const unsigned short lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
  35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const u8 lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
  5, 5, 5, 5, 0};
static const unsigned short dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
  257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const u8 dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
  11, 11, 12, 12, 13, 13};

static int lcode(int len)
{
  int c = 0;
  while (c < 28 && lbase[c + 1] <= len) c++;
  return c;
}
static int dcode(int dist)
{
  int lo = 0, hi = 29;                                  /* largest c with dbase[c] <= dist */
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (dbase[mid] <= dist) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/* ---------- LZ77 ---------- */
struct token { unsigned short len, dist; u8 lit; };   /* len 0: literal */
static int head[HSIZE], prev[WSIZE];

static unsigned hash3(const u8 *p) { return ((p[0] << 10) ^ (p[1] << 5) ^ p[2]) & (HSIZE - 1); }

static int longest(const u8 *in, int pos, int end, int *dist)
{
  int best = 0, chain = MAXCHAIN, cand = head[hash3(in + pos)];
  int maxlen = end - pos < MAXMATCH ? end - pos : MAXMATCH;
  while (cand >= 0 && pos - cand <= WSIZE - 1 && chain--) {
    if (in[cand + best] == in[pos + best] && in[cand] == in[pos]) {
      int l = 0;
      while (l < maxlen && in[cand + l] == in[pos + l]) l++;
      if (l > best) {
        best = l;
        *dist = pos - cand;
        if (l == maxlen) break;
      }
    }
    cand = prev[cand & (WSIZE - 1)];
  }
  return best;
}

static void insert(const u8 *in, int pos)
{
  unsigned h = hash3(in + pos);
  prev[pos & (WSIZE - 1)] = head[h];
  head[h] = pos;
}

static size_t lz77(const u8 *in, int n, struct token *out)
{
  size_t nt = 0;
  int pos = 0, d = 0, d2 = 0;
  memset(head, -1, sizeof head);
  while (pos < n) {
    int len = pos + MINMATCH <= n ? longest(in, pos, n, &d) : 0;
    if (len >= MINMATCH && pos + 1 + MINMATCH <= n) {        /* lazy: is the next match longer? */
      int len2;
      insert(in, pos);
      len2 = longest(in, pos + 1, n, &d2);
      if (len2 > len + 1) {
        out[nt].len = 0; out[nt].lit = in[pos]; nt++;
        pos++;
        len = len2; d = d2;
      } else {
        out[nt].len = (unsigned short)len; out[nt].dist = (unsigned short)d; nt++;
        for (d2 = 1; d2 < len; d2++)
          if (pos + d2 + MINMATCH <= n) insert(in, pos + d2);
        pos += len;
        continue;
      }
    }
    if (len >= MINMATCH) {
      int k;
      out[nt].len = (unsigned short)len; out[nt].dist = (unsigned short)d; nt++;
      for (k = 0; k < len; k++)
        if (pos + k + MINMATCH <= n) insert(in, pos + k);
      pos += len;
    } else {
      if (pos + MINMATCH <= n) insert(in, pos);
      out[nt].len = 0; out[nt].lit = in[pos]; nt++;
      pos++;
    }
  }
  return nt;
}

/* ---------- Huffman code lengths (heap-built tree, frequencies flattened until <= 15 bits) ---------- */
static void build_lengths(const u32 *freq, int n, u8 *len)
{
  static u32 f[2 * NLIT], parent[2 * NLIT];
  static int heap[2 * NLIT];
  int i, nh, nodes, maxl, used = 0, shift = 0;
  for (;;) {
    nh = 0;
    for (i = 0; i < n; i++) {
      f[i] = freq[i] ? (freq[i] >> shift) | 1 : 0;
      len[i] = 0;
      if (freq[i]) {                                   /* sift up */
        int k = nh++;
        while (k > 0 && f[heap[(k - 1) / 2]] > f[i]) { heap[k] = heap[(k - 1) / 2]; k = (k - 1) / 2; }
        heap[k] = i;
      }
    }
    used = nh;
    if (used == 0) return;
    if (used == 1) { len[heap[0]] = 1; return; }
    nodes = n;
    while (nh > 1) {
      int a, b, k, c, last;
      int pick[2];
      for (c = 0; c < 2; c++) {                        /* pop the minimum */
        pick[c] = heap[0];
        last = heap[--nh];
        k = 0;
        for (;;) {
          int ch = 2 * k + 1;
          if (ch >= nh) break;
          if (ch + 1 < nh && f[heap[ch + 1]] < f[heap[ch]]) ch++;
          if (f[heap[ch]] >= f[last]) break;
          heap[k] = heap[ch];
          k = ch;
        }
        heap[k] = last;
      }
      a = pick[0]; b = pick[1];
      f[nodes] = f[a] + f[b];
      parent[a] = parent[b] = (u32)nodes;
      k = nh++;
      while (k > 0 && f[heap[(k - 1) / 2]] > f[nodes]) { heap[k] = heap[(k - 1) / 2]; k = (k - 1) / 2; }
      heap[k] = nodes;
      nodes++;
    }
    maxl = 0;
    for (i = 0; i < n; i++)
      if (freq[i]) {
        int d = 0;
        u32 x = (u32)i;
        while ((int)x != nodes - 1) { x = parent[x]; d++; }
        len[i] = (u8)d;
        if (d > maxl) maxl = d;
      }
    if (maxl <= MAXBITS) return;
    shift++;
  }
}

static void canonical(const u8 *len, int n, unsigned short *code)
{
  int count[MAXBITS + 1] = {0}, next[MAXBITS + 1], i, c = 0;
  for (i = 0; i < n; i++) count[len[i]]++;
  count[0] = 0;
  for (i = 1; i <= MAXBITS; i++) { c = (c + count[i - 1]) << 1; next[i] = c; }
  for (i = 0; i < n; i++)
    if (len[i]) code[i] = (unsigned short)next[len[i]]++;
}

/* ---------- bit I/O (MSB-first codes, LSB-first extra bits, as one stream) ---------- */
struct bw { u8 *buf; size_t pos; u32 acc; int n; };
static void putbits(struct bw *w, u32 v, int n)
{
  while (n--) {
    w->acc = (w->acc << 1) | ((v >> n) & 1);
    if (++w->n == 8) { w->buf[w->pos++] = (u8)w->acc; w->acc = 0; w->n = 0; }
  }
}
static void flushbits(struct bw *w) { while (w->n) putbits(w, 0, 1); }

struct br { const u8 *buf; size_t pos, end; int bit; };
static int getbit(struct br *r)
{
  int b;
  if (r->pos >= r->end) return -1;
  b = (r->buf[r->pos] >> (7 - r->bit)) & 1;
  if (++r->bit == 8) { r->bit = 0; r->pos++; }
  return b;
}
static int getbits(struct br *r, int n)
{
  int v = 0;
  while (n--) {
    int b = getbit(r);
    if (b < 0) return -1;
    v = (v << 1) | b;
  }
  return v;
}

/* ---------- compress / decompress one slice ---------- */
static size_t compress(const u8 *in, int n, u8 *out, struct token *tok)
{
  u32 lf[NLIT], df[NDIST];
  u8 ll[NLIT], dl[NDIST];
  unsigned short lc[NLIT], dc[NDIST];
  size_t nt = lz77(in, n, tok), i;
  struct bw w;
  memset(lf, 0, sizeof lf); memset(df, 0, sizeof df);
  for (i = 0; i < nt; i++) {
    if (tok[i].len == 0) lf[tok[i].lit]++;
    else { lf[257 + lcode(tok[i].len)]++; df[dcode(tok[i].dist)]++; }
  }
  lf[256] = 1;
  build_lengths(lf, NLIT, ll); build_lengths(df, NDIST, dl);
  canonical(ll, NLIT, lc); canonical(dl, NDIST, dc);
  w.buf = out; w.pos = 0; w.acc = 0; w.n = 0;
  putbits(&w, (u32)n, 24);
  for (i = 0; i < NLIT; i++) putbits(&w, ll[i], 4);
  for (i = 0; i < NDIST; i++) putbits(&w, dl[i], 4);
  for (i = 0; i < nt; i++) {
    if (tok[i].len == 0) putbits(&w, lc[tok[i].lit], ll[tok[i].lit]);
    else {
      int c = lcode(tok[i].len), d = dcode(tok[i].dist);
      putbits(&w, lc[257 + c], ll[257 + c]);
      putbits(&w, (u32)(tok[i].len - lbase[c]), lext[c]);
      putbits(&w, dc[d], dl[d]);
      putbits(&w, (u32)(tok[i].dist - dbase[d]), dext[d]);
    }
  }
  putbits(&w, lc[256], ll[256]);
  flushbits(&w);
  return w.pos;
}

struct huff { short count[MAXBITS + 1]; short symbol[NLIT]; };
static void huff_init(struct huff *h, const u8 *len, int n)
{
  short offs[MAXBITS + 1];
  int i;
  memset(h->count, 0, sizeof h->count);
  for (i = 0; i < n; i++) h->count[len[i]]++;
  offs[1] = 0;
  for (i = 1; i < MAXBITS; i++) offs[i + 1] = (short)(offs[i] + h->count[i]);
  for (i = 0; i < n; i++)
    if (len[i]) h->symbol[offs[len[i]]++] = (short)i;
}
static int decode(struct br *r, const struct huff *h)
{
  int code = 0, first = 0, index = 0, l;
  for (l = 1; l <= MAXBITS; l++) {
    int b = getbit(r), count;
    if (b < 0) return -1;
    code |= b;
    count = h->count[l];
    if (code - count < first) return h->symbol[index + (code - first)];
    index += count;
    first += count;
    first <<= 1;
    code <<= 1;
  }
  return -2;
}

static int decompress(const u8 *in, size_t n, u8 *out, int cap)
{
  static struct huff lh, dh;
  u8 ll[NLIT], dl[NDIST];
  struct br r;
  int i, size, pos = 0;
  r.buf = in; r.pos = 0; r.end = n; r.bit = 0;
  size = getbits(&r, 24);
  if (size < 0 || size > cap) return -1;
  for (i = 0; i < NLIT; i++) ll[i] = (u8)getbits(&r, 4);
  for (i = 0; i < NDIST; i++) dl[i] = (u8)getbits(&r, 4);
  huff_init(&lh, ll, NLIT); huff_init(&dh, dl, NDIST);
  for (;;) {
    int sym = decode(&r, &lh);
    if (sym < 0) return -1;
    if (sym < 256) {
      if (pos >= size) return -1;
      out[pos++] = (u8)sym;
    } else if (sym == 256)
      break;
    else {
      int c = sym - 257, len, d, dist, e;
      if (c >= 29) return -1;
      e = getbits(&r, lext[c]);
      if (e < 0) return -1;
      len = lbase[c] + e;
      d = decode(&r, &dh);
      if (d < 0 || d >= 30) return -1;
      e = getbits(&r, dext[d]);
      if (e < 0) return -1;
      dist = dbase[d] + e;
      if (dist > pos || pos + len > size) return -1;
      while (len--) { out[pos] = out[pos - dist]; pos++; }
    }
  }
  return pos == size ? size : -1;
}

static u32 crc32(const u8 *p, size_t n, u32 crc)
{
  static u32 table[256];
  size_t i;
  if (!table[1]) {
    u32 k, c;
    int j;
    for (k = 0; k < 256; k++) {
      for (c = k, j = 0; j < 8; j++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      table[k] = c;
    }
  }
  crc = ~crc;
  for (i = 0; i < n; i++) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

int main(int argc, char **argv)
{
  long slices = argc > 1 ? atol(argv[1]) : 230, s;
  size_t corpus_size = slices >= 16 ? (size_t)1 << 20 : (size_t)(slices + 1) * SLICE, insize = 0, outsize = 0;
  u8 *corpus = malloc(corpus_size + SLICE), *packed = malloc(2 * SLICE + 1024), *back = malloc(SLICE);
  struct token *tok = malloc(SLICE * sizeof *tok);
  u32 crc = 0;
  int bad = 0;
  if (!corpus || !packed || !back || !tok) return 2;
  make_corpus(corpus, corpus_size + SLICE);
  for (s = 0; s < slices && !bad; s++) {
    const u8 *in = corpus + (size_t)(s * 40503) % corpus_size;
    size_t n = compress(in, SLICE, packed, tok);
    int m = decompress(packed, n, back, SLICE);
    if (m != SLICE || memcmp(in, back, SLICE)) {
      fprintf(stderr, "slice %ld: round trip failed (%d)\n", s, m);
      bad = 1;
    }
    insize += SLICE; outsize += n;
    crc = crc32(packed, n, crc);
  }
  printf("lz: %ld slices, %lu -> %lu bytes (%.1f%%), crc %08x\n", slices, (unsigned long)insize,
         (unsigned long)outsize, insize ? 100.0 * (double)outsize / (double)insize : 0.0, crc);
  puts(bad ? "FAIL" : "PASS");
  free(corpus); free(packed); free(back); free(tok);
  return bad;
}
