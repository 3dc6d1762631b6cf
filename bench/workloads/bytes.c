/* bench workload: small functions called once per byte.
   Base64 encoding and decoding, hex dumping and parsing back, UTF-8 validation, a bitwise
   CRC-32 and word counting over a generated buffer of mixed text: each goes through helpers of
   a few lines (a character class, a digit value, a table-free CRC step) that the compiler
   inlines into the byte loops, so their per-call instrumentation lands in those loops.  Every
   round trip is checked.  Usage: bytes [SCALE]  (passes over 256 KiB, default 30) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(int c)
{
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

static int hex_value(int c)
{
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static char hex_digit(unsigned v) { return (char)(v < 10 ? '0' + v : 'a' + v - 10); }

static int is_space(int c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

/* Bytes in the UTF-8 sequence a lead byte starts, 0 for a byte that cannot lead one. */
static int utf8_length(unsigned char c)
{
  if (c < 0x80) return 1;
  if (c < 0xc2) return 0;
  if (c < 0xe0) return 2;
  if (c < 0xf0) return 3;
  if (c < 0xf5) return 4;
  return 0;
}

static int is_continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

static unsigned crc32_byte(unsigned crc, unsigned char b)
{
  crc ^= b;
  for (int k = 0; k < 8; k++)
    crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
  return crc;
}

static size_t b64_encode(const unsigned char *in, size_t n, char *out)
{
  size_t o = 0, i;
  for (i = 0; i + 2 < n; i += 3) {
    unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
    out[o++] = b64[v >> 18]; out[o++] = b64[v >> 12 & 63]; out[o++] = b64[v >> 6 & 63]; out[o++] = b64[v & 63];
  }
  if (i < n) {
    unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0);
    out[o++] = b64[v >> 18]; out[o++] = b64[v >> 12 & 63];
    out[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
    out[o++] = '=';
  }
  return o;
}

/* Decodes base64 (whitespace skipped); returns the length, or (size_t)-1 on a bad character. */
static size_t b64_decode(const char *in, size_t n, unsigned char *out)
{
  unsigned v = 0;
  int bits = 0;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    int d;
    if (in[i] == '=') break;
    if (is_space((unsigned char)in[i])) continue;
    d = b64_value((unsigned char)in[i]);
    if (d < 0) return (size_t)-1;
    v = v << 6 | (unsigned)d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (unsigned char)(v >> bits);
    }
  }
  return o;
}

static size_t hex_encode(const unsigned char *in, size_t n, char *out)
{
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    out[o++] = hex_digit(in[i] >> 4);
    out[o++] = hex_digit(in[i] & 15);
    if (i % 32 == 31) out[o++] = '\n';
  }
  return o;
}

static size_t hex_decode(const char *in, size_t n, unsigned char *out)
{
  size_t o = 0;
  int hi = -1;
  for (size_t i = 0; i < n; i++) {
    int d = hex_value((unsigned char)in[i]);
    if (d < 0) {
      if (!is_space((unsigned char)in[i])) return (size_t)-1;
      continue;
    }
    if (hi < 0) hi = d;
    else { out[o++] = (unsigned char)(hi << 4 | d); hi = -1; }
  }
  return o;
}

/* Code points in valid UTF-8, or -1 at the first invalid sequence. */
static long utf8_count(const unsigned char *s, size_t n)
{
  long count = 0;
  for (size_t i = 0; i < n;) {
    int len = utf8_length(s[i]);
    if (len == 0 || i + (size_t)len > n) return -1;
    for (int k = 1; k < len; k++)
      if (!is_continuation(s[i + k])) return -1;
    i += (size_t)len;
    count++;
  }
  return count;
}

static long words(const unsigned char *s, size_t n)
{
  long w = 0;
  int in = 0;
  for (size_t i = 0; i < n; i++) {
    if (is_space(s[i])) in = 0;
    else if (!in) { in = 1; w++; }
  }
  return w;
}

static unsigned long long seed = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return (unsigned)(seed % n); }

/* Mixed text: ASCII words and spaces, two- and three-byte UTF-8 letters; returns code points. */
static long generate(unsigned char *buf, size_t n)
{
  size_t i = 0;
  long cps = 0;
  while (i + 4 < n) {
    unsigned r = rnd(100);
    if (r < 70) buf[i++] = (unsigned char)('a' + rnd(26));
    else if (r < 85) buf[i++] = r < 82 ? ' ' : '\n';
    else if (r < 95) { unsigned cp = 0xe0 + rnd(0x100); buf[i++] = (unsigned char)(0xc0 | cp >> 6); buf[i++] = (unsigned char)(0x80 | (cp & 63)); }
    else { unsigned cp = 0x4e00 + rnd(0x5000); buf[i++] = (unsigned char)(0xe0 | cp >> 12); buf[i++] = (unsigned char)(0x80 | (cp >> 6 & 63)); buf[i++] = (unsigned char)(0x80 | (cp & 63)); }
    cps++;
  }
  while (i < n) { buf[i++] = ' '; cps++; }
  return cps;
}

int main(int argc, char **argv)
{
  int passes = argc > 1 ? atoi(argv[1]) : 30, bad = 0;
  size_t n = 256 * 1024, m;
  unsigned char *text = malloc(n), *back = malloc(n + 16);
  char *enc = malloc(3 * n + 16);
  unsigned crc_total = 0;
  long cps = generate(text, n), w = 0;
  for (int p = 0; p < passes; p++) {
    unsigned crc = 0xffffffffu;
    size_t at = (size_t)p * 7919 % n;
    if (text[at] >= 'a' && text[at] <= 'z')   /* each pass sees other bytes, still valid UTF-8 */
      text[at] = (unsigned char)('a' + p % 26);
    if (p % 2 == 0) {
      m = b64_decode(enc, b64_encode(text, n, enc), back);
    } else {
      m = hex_decode(enc, hex_encode(text, n, enc), back);
    }
    if (m != n || memcmp(back, text, n) != 0) { if (bad++ < 5) printf("pass %d: round trip differs\n", p); }
    if (utf8_count(back, n) < 0) { if (bad++ < 5) printf("pass %d: invalid UTF-8\n", p); }
    for (size_t i = 0; i < n; i++)
      crc = crc32_byte(crc, back[i]);
    crc_total += ~crc;
    w += words(back, n);
  }
  printf("bytes: %d passes of %lu bytes, %ld code points, %ld words, crc sum %08x\n", passes, (unsigned long)n,
         utf8_count(text, n), w, crc_total);
  if (utf8_count(text, n) != cps) bad++;   /* letters replaced by letters: as many code points */
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(text); free(back); free(enc);
  return bad != 0;
}
