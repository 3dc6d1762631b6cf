/* bench workload "zlib": GCC's copy of zlib (from Debian's gcc-12-source tarball), driven by
   this program.  A generated corpus (text from a skewed vocabulary, numbers, markup, noise)
   is compressed and decompressed in 256 KiB slices, alternately with compress2/uncompress at
   levels 1, 6 and 9 and with streaming deflate/inflate through small 4 KiB buffers; every
   slice must round-trip exactly (memcmp, crc32 and adler32).
   Usage: zlib [SCALE]  (slices, default 46) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

#define SLICE (256 * 1024)
#define CHUNK 4096

static unsigned long long seed = 88172645463325252ULL;
static unsigned rnd(void) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return (unsigned)seed; }

static const char *const words[] = {
  "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
  "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
  "zlib", "deflate", "inflate", "window", "stream", "buffer", "header", "checksum", "literal",
};
#define NWORDS (sizeof words / sizeof words[0])

static void make_corpus(unsigned char *buf, size_t n)
{
  size_t i = 0;
  while (i < n) {
    unsigned r = rnd() % 100;
    char tmp[64];
    size_t len;
    if (r < 80) {
      unsigned a = rnd() % NWORDS, b = rnd() % NWORDS;
      len = (size_t)sprintf(tmp, "%s%s", words[a < b ? a : b], rnd() % 9 ? " " : ". ");
    } else if (r < 90) len = (size_t)sprintf(tmp, "%u", rnd() % 100000);
    else if (r < 96) len = (size_t)sprintf(tmp, "<p class=\"c%u\">\n", rnd() % 32);
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

/* streaming round trip through CHUNK-sized buffers; returns the decompressed size or -1 */
static long stream_trip(const unsigned char *in, size_t n, unsigned char *packed, size_t pcap,
                        unsigned char *out, size_t ocap, int level, size_t *plen)
{
  z_stream s;
  unsigned char buf[CHUNK];
  size_t pos = 0, have = 0;
  int rc, flush;
  memset(&s, 0, sizeof s);
  if (deflateInit2(&s, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
  do {                                               /* feed CHUNK bytes at a time */
    size_t take = n - pos < CHUNK ? n - pos : CHUNK;
    s.next_in = (unsigned char *)in + pos; s.avail_in = (unsigned)take;
    pos += take;
    flush = pos == n ? Z_FINISH : Z_NO_FLUSH;
    do {
      s.next_out = buf; s.avail_out = CHUNK;
      rc = deflate(&s, flush);
      if (rc == Z_STREAM_ERROR) return -1;
      if (have + (CHUNK - s.avail_out) > pcap) return -1;
      memcpy(packed + have, buf, CHUNK - s.avail_out);
      have += CHUNK - s.avail_out;
    } while (s.avail_out == 0);
  } while (flush != Z_FINISH);
  deflateEnd(&s);
  *plen = have;
  memset(&s, 0, sizeof s);
  if (inflateInit(&s) != Z_OK) return -1;
  pos = 0; have = 0;
  do {
    size_t take = *plen - pos < CHUNK ? *plen - pos : CHUNK;
    s.next_in = packed + pos; s.avail_in = (unsigned)take;
    pos += take;
    do {
      s.next_out = buf; s.avail_out = CHUNK;
      rc = inflate(&s, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) { inflateEnd(&s); return -1; }
      if (have + (CHUNK - s.avail_out) > ocap) { inflateEnd(&s); return -1; }
      memcpy(out + have, buf, CHUNK - s.avail_out);
      have += CHUNK - s.avail_out;
    } while (s.avail_out == 0);
  } while (rc != Z_STREAM_END && pos < *plen);
  inflateEnd(&s);
  return rc == Z_STREAM_END ? (long)have : -1;
}

int main(int argc, char **argv)
{
  long slices = argc > 1 ? atol(argv[1]) : 46, i;
  size_t corpus_size = slices >= 16 ? (size_t)4 << 20 : (size_t)(slices + 1) * SLICE, total_in = 0, total_out = 0;
  uLong pcap = compressBound(SLICE);
  unsigned char *corpus = malloc(corpus_size + SLICE), *packed = malloc(pcap), *out = malloc(SLICE);
  uLong crc = crc32(0L, Z_NULL, 0), adler = adler32(0L, Z_NULL, 0);
  int bad = 0;
  static const int levels[] = {1, 6, 9};
  if (!corpus || !packed || !out) return 2;
  make_corpus(corpus, corpus_size + SLICE);
  for (i = 0; i < slices && !bad; i++) {
    const unsigned char *in = corpus + (size_t)(i * 187091) % corpus_size;
    int level = levels[i % 3];
    uLongf plen = pcap, olen = SLICE;
    size_t slen = 0;
    long m;
    if (i % 2 == 0) {
      if (compress2(packed, &plen, in, SLICE, level) != Z_OK ||
          uncompress(out, &olen, packed, plen) != Z_OK) {
        fprintf(stderr, "slice %ld: compress2/uncompress failed\n", i);
        bad = 1;
        break;
      }
      m = (long)olen;
    } else {
      m = stream_trip(in, SLICE, packed, pcap, out, SLICE, level, &slen);
      plen = (uLongf)slen;
    }
    if (m != SLICE || memcmp(in, out, SLICE) || crc32(0L, in, SLICE) != crc32(0L, out, SLICE) ||
        adler32(1L, in, SLICE) != adler32(1L, out, SLICE)) {
      fprintf(stderr, "slice %ld (level %d): round trip failed (%ld)\n", i, level, m);
      bad = 1;
    }
    crc = crc32(crc, packed, (uInt)plen);
    adler = adler32(adler, out, SLICE);
    total_in += SLICE; total_out += plen;
  }
  printf("zlib %s: %ld slices, %lu -> %lu bytes, crc %08lx adler %08lx\n", zlibVersion(), slices,
         (unsigned long)total_in, (unsigned long)total_out, crc, adler);
  puts(bad ? "FAIL" : "PASS");
  free(corpus); free(packed); free(out);
  return bad;
}
