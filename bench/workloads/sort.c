/* bench workload: sorting and searching.
   Each round sorts integer arrays of several shapes (random, few distinct values, nearly
   sorted, descending) with introsort, merge sort, heap sort and LSD radix sort, and an
   array of strings with merge sort and three-way radix quicksort; the results must agree
   and be ordered.  Then it looks keys up with binary search, interpolation search and an
   open-addressing hash set, and checks that all three agree.
   Usage: sort [SCALE]  (rounds, default 30) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int u32;

static unsigned long long seed = 0x2545F4914F6CDD1DULL;
static u32 rnd(void) { seed ^= seed >> 12; seed ^= seed << 25; seed ^= seed >> 27; return (u32)((seed * 0x2545F4914F6CDD1DULL) >> 32); }

/* ---------- integer sorts ---------- */
static void insertion(u32 *a, long n)
{
  long i, j;
  for (i = 1; i < n; i++) {
    u32 x = a[i];
    for (j = i; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
    a[j] = x;
  }
}

static void sift(u32 *a, long root, long n)
{
  u32 x = a[root];
  for (;;) {
    long c = 2 * root + 1;
    if (c >= n) break;
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (a[c] <= x) break;
    a[root] = a[c];
    root = c;
  }
  a[root] = x;
}

static void heapsort_u32(u32 *a, long n)
{
  long i;
  for (i = n / 2 - 1; i >= 0; i--) sift(a, i, n);
  for (i = n - 1; i > 0; i--) {
    u32 t = a[0]; a[0] = a[i]; a[i] = t;
    sift(a, 0, i);
  }
}

static u32 median3(u32 a, u32 b, u32 c)
{
  if (a < b) return b < c ? b : a < c ? c : a;
  return a < c ? a : b < c ? c : b;
}

static void intro(u32 *a, long n, int depth)
{
  while (n > 16) {
    u32 p;
    long i, j;
    if (depth-- == 0) { heapsort_u32(a, n); return; }
    p = median3(a[0], a[n / 2], a[n - 1]);
    i = -1; j = n;
    for (;;) {                                        /* Hoare partition */
      do i++; while (a[i] < p);
      do j--; while (a[j] > p);
      if (i >= j) break;
      { u32 t = a[i]; a[i] = a[j]; a[j] = t; }
    }
    if (j + 1 < n - j - 1) { intro(a, j + 1, depth); a += j + 1; n -= j + 1; }
    else { intro(a + j + 1, n - j - 1, depth); n = j + 1; }
  }
  insertion(a, n);
}

static void introsort(u32 *a, long n)
{
  int depth = 0;
  long m;
  for (m = n; m > 1; m >>= 1) depth += 2;
  intro(a, n, depth);
}

static void merge_rec(u32 *a, u32 *tmp, long n)
{
  long h, i, j, k;
  if (n <= 24) { insertion(a, n); return; }
  h = n / 2;
  merge_rec(a, tmp, h);
  merge_rec(a + h, tmp, n - h);
  if (a[h - 1] <= a[h]) return;
  memcpy(tmp, a, (size_t)h * sizeof *a);
  for (i = 0, j = h, k = 0; i < h && j < n; k++)
    a[k] = tmp[i] <= a[j] ? tmp[i++] : a[j++];
  while (i < h) a[k++] = tmp[i++];
}

static void radix(u32 *a, u32 *tmp, long n)
{
  long count[256], i;
  int shift;
  for (shift = 0; shift < 32; shift += 8) {
    long sum = 0;
    memset(count, 0, sizeof count);
    for (i = 0; i < n; i++) count[(a[i] >> shift) & 0xff]++;
    for (i = 0; i < 256; i++) { long c = count[i]; count[i] = sum; sum += c; }
    for (i = 0; i < n; i++) tmp[count[(a[i] >> shift) & 0xff]++] = a[i];
    memcpy(a, tmp, (size_t)n * sizeof *a);
  }
}

/* ---------- string sorts ---------- */
static int scmp(const char *a, const char *b)
{
  while (*a && *a == *b) { a++; b++; }
  return (unsigned char)*a - (unsigned char)*b;
}

static void smerge(const char **a, const char **tmp, long n)
{
  long h, i, j, k;
  if (n < 2) return;
  h = n / 2;
  smerge(a, tmp, h);
  smerge(a + h, tmp, n - h);
  memcpy(tmp, a, (size_t)h * sizeof *a);
  for (i = 0, j = h, k = 0; i < h && j < n; k++)
    a[k] = scmp(tmp[i], a[j]) <= 0 ? tmp[i++] : a[j++];
  while (i < h) a[k++] = tmp[i++];
}

/* Bentley-Sedgewick multikey quicksort on the character at depth d */
static void mkqs(const char **a, long n, int d)
{
  while (n > 1) {
    long lt = 0, gt = n - 1, i = 1;
    int p = (unsigned char)a[n / 2][d];
    { const char *t = a[0]; a[0] = a[n / 2]; a[n / 2] = t; }
    while (i <= gt) {
      int c = (unsigned char)a[i][d];
      if (c < p) { const char *t = a[lt]; a[lt++] = a[i]; a[i++] = t; }
      else if (c > p) { const char *t = a[gt]; a[gt--] = a[i]; a[i] = t; }
      else i++;
    }
    mkqs(a, lt, d);
    mkqs(a + gt + 1, n - gt - 1, d);
    if (p == 0) return;
    a += lt; n = gt - lt + 1; d++;
  }
}

/* ---------- searching ---------- */
static long bsearch_u32(const u32 *a, long n, u32 key)
{
  long lo = 0, hi = n;
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (a[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo < n && a[lo] == key ? lo : -1;
}

static long isearch(const u32 *a, long n, u32 key)
{
  long lo = 0, hi = n - 1;
  while (lo <= hi && key >= a[lo] && key <= a[hi]) {
    long pos;
    if (a[hi] == a[lo]) return a[lo] == key ? lo : -1;
    pos = lo + (long)((double)(hi - lo) * ((double)key - a[lo]) / ((double)a[hi] - a[lo]));
    if (a[pos] == key) {
      while (pos > lo && a[pos - 1] == key) pos--;
      return pos;
    }
    if (a[pos] < key) lo = pos + 1; else hi = pos - 1;
  }
  return -1;
}

struct hset { u32 *keys; unsigned char *used; u32 mask; };
static void hset_add(struct hset *h, u32 k)
{
  u32 i = (k * 2654435761u) & h->mask;
  while (h->used[i]) {
    if (h->keys[i] == k) return;
    i = (i + 1) & h->mask;
  }
  h->used[i] = 1; h->keys[i] = k;
}
static int hset_has(const struct hset *h, u32 k)
{
  u32 i = (k * 2654435761u) & h->mask;
  while (h->used[i]) {
    if (h->keys[i] == k) return 1;
    i = (i + 1) & h->mask;
  }
  return 0;
}

static int sorted(const u32 *a, long n)
{
  long i;
  for (i = 1; i < n; i++) if (a[i - 1] > a[i]) return 0;
  return 1;
}

#define N 100000
#define NSTR 20000

int main(int argc, char **argv)
{
  long rounds = argc > 1 ? atol(argv[1]) : 30, r, i;
  u32 *src = malloc(N * sizeof *src), *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  u32 *c = malloc(N * sizeof *c), *d = malloc(N * sizeof *d), *tmp = malloc(N * sizeof *tmp);
  char *pool = malloc(NSTR * 16);
  const char **s1 = malloc(NSTR * sizeof *s1), **s2 = malloc(NSTR * sizeof *s2), **stmp = malloc(NSTR * sizeof *stmp);
  struct hset h;
  unsigned long long sum = 0;
  long found = 0;
  int bad = 0;
  h.mask = (1u << 18) - 1;
  h.keys = malloc((h.mask + 1) * sizeof *h.keys);
  h.used = malloc(h.mask + 1);
  if (!src || !a || !b || !c || !d || !tmp || !pool || !s1 || !s2 || !stmp || !h.keys || !h.used) return 2;
  for (r = 0; r < rounds && !bad; r++) {
    int shape = (int)(r % 4);
    for (i = 0; i < N; i++) {
      switch (shape) {
      case 0: src[i] = rnd(); break;
      case 1: src[i] = rnd() % 100; break;
      case 2: src[i] = (u32)i * 1000u + (rnd() % 16 == 0 ? rnd() % 50000 : 0); break;
      default: src[i] = (u32)(N - i) * 7u + rnd() % 5;
      }
    }
    memcpy(a, src, N * sizeof *a); introsort(a, N);
    memcpy(b, src, N * sizeof *b); merge_rec(b, tmp, N);
    memcpy(c, src, N * sizeof *c); heapsort_u32(c, N);
    memcpy(d, src, N * sizeof *d); radix(d, tmp, N);
    if (!sorted(a, N) || memcmp(a, b, N * sizeof *a) || memcmp(a, c, N * sizeof *a) || memcmp(a, d, N * sizeof *a)) {
      fprintf(stderr, "round %ld: integer sorts disagree\n", r);
      bad = 1;
    }
    memset(h.used, 0, h.mask + 1);
    for (i = 0; i < N; i++) hset_add(&h, src[i]);
    for (i = 0; i < N; i++) {
      u32 key = i % 2 ? src[rnd() % N] : rnd() % (a[N - 1] + 1);
      long p = bsearch_u32(a, N, key), q = isearch(a, N, key);
      int in = hset_has(&h, key);
      if ((p >= 0) != in || p != q) {
        fprintf(stderr, "round %ld: searches disagree on %u (%ld %ld %d)\n", r, key, p, q, in);
        bad = 1;
        break;
      }
      found += in;
    }
    for (i = 0; i < NSTR; i++) {
      char *w = pool + i * 16;
      int len = 1 + (int)(rnd() % 14), k;
      for (k = 0; k < len; k++) w[k] = (char)('a' + (k < 3 ? rnd() % 4 : rnd() % 26));
      w[len] = 0;
      s1[i] = s2[i] = w;
    }
    smerge(s1, stmp, NSTR);
    mkqs(s2, NSTR, 0);
    for (i = 0; i < NSTR; i++)
      if (scmp(s1[i], s2[i]) || (i && scmp(s1[i - 1], s1[i]) > 0)) {
        fprintf(stderr, "round %ld: string sorts disagree at %ld\n", r, i);
        bad = 1;
        break;
      }
    for (i = 0; i < N; i += 97) sum = sum * 31 + a[i];
    sum = sum * 31 + (unsigned char)s1[NSTR / 2][0];
  }
  printf("sort: %ld rounds, %ld keys found, checksum %016llx\n", rounds, found, sum);
  puts(bad ? "FAIL" : "PASS");
  free(src); free(a); free(b); free(c); free(d); free(tmp); free(pool);
  free(s1); free(s2); free(stmp); free(h.keys); free(h.used);
  return bad;
}
