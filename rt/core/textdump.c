/* textdump.c: the text back end: the profile as "PP1" lines through any putchar-like function,
   one CRC-checked frame per unit and one for k-slab forests and subpath samples, so the dump
   survives being mixed into a noisy UART log (doc/formats.md section 5; `pathprof import` reads
   it back). Freestanding and hosted: no
   library, no buffer of the profile (one line's bytes and the core's chunk). */
#include "core/core.h"

#define HEX_BYTES 32UL   /* data bytes per hex line: 64 digits */
#define B64_BYTES 48UL   /* data bytes per base64 line: 64 characters */
#define LABEL_MAX 40
#define CRC_POLY 0xedb88320UL
#define MASK32 0xffffffffUL

/* Where the characters go, and the line being written. */
struct text {
  pathprof_putc_fn put;
  void *ctx;
  unsigned flags;
  unsigned long dump;   /* this dump's number */
  unsigned long crc;    /* CRC-32 of the current line so far (pre-inverted) */
  int failed;
  unsigned long frame;  /* current frame (unit record) */
  unsigned long line;   /* data lines written in the current frame */
  unsigned long nbuf;   /* bytes waiting in buf */
  unsigned char buf[B64_BYTES];
};

/* Dumps made so far by this program: each dump gets the next number. */
static unsigned long dumps;

/* Adapts a plain putchar to the context form (ctx is the putchar). */
struct plain {
  pathprof_putchar_fn put;
};

static int put_plain(void *ctx, int c)
{
  return ((struct plain *)ctx)->put(c);
}

/* Sends one character (after a failure nothing more is sent). */
static void emit(struct text *t, char c)
{
  if (!t->failed && t->put(t->ctx, (unsigned char)c) < 0)
    t->failed = 1;
}

/* Sends one character of the line's checked text and adds it to the line's CRC-32. */
static void put_c(struct text *t, char c)
{
  int k;
  t->crc ^= (unsigned char)c;
  for (k = 0; k < 8; k++)
    t->crc = ((t->crc >> 1) ^ (CRC_POLY & (0UL - (t->crc & 1UL)))) & MASK32;
  emit(t, c);
}

/* Digit d (< 16) in lower-case hex. Computed, not looked up: a table would be copied to RAM on a
   Harvard machine (AVR). */
static char digit(unsigned long d)
{
  return (char)(d < 10 ? '0' + d : 'a' + (d - 10));
}

/* Sends v in lower-case hex without leading zeros (no division needed). */
static void put_hex(struct text *t, unsigned long v)
{
  int shift = 0;
  while (shift + 4 < (int)(8 * sizeof v) && (v >> (shift + 4)) != 0)
    shift += 4;
  for (; shift >= 0; shift -= 4)
    put_c(t, digit((v >> shift) & 0xfUL));
}

/* Starts a line: "PP1 <kind> <dump>". */
static void begin_line(struct text *t, char kind)
{
  t->crc = MASK32;
  put_c(t, 'P');
  put_c(t, 'P');
  put_c(t, '1');
  put_c(t, ' ');
  put_c(t, kind);
  put_c(t, ' ');
  put_hex(t, t->dump);
}

/* Sends " <hex number>". */
static void field(struct text *t, unsigned long v)
{
  put_c(t, ' ');
  put_hex(t, v);
}

/* Ends a line: " <CRC-32 of everything from 'P' up to here, 8 hex digits>" and the line end. */
static void end_line(struct text *t)
{
  unsigned long crc = ~t->crc & MASK32;
  int shift;
  emit(t, ' ');
  for (shift = 28; shift >= 0; shift -= 4)
    emit(t, digit((crc >> shift) & 0xfUL));
  if (t->flags & PATHPROF_TEXT_CRLF)
    emit(t, '\r');
  emit(t, '\n');
}

/* Base64 digit of v & 63 (RFC 4648), computed like digit(). */
static char b64(unsigned long v)
{
  v &= 63UL;
  if (v < 26)
    return (char)('A' + v);
  if (v < 52)
    return (char)('a' + (v - 26));
  if (v < 62)
    return (char)('0' + (v - 52));
  return v == 62 ? '+' : '/';
}

/* Writes the waiting bytes as one data line "PP1 D <dump> <frame> <line> <data>". */
static void data_line(struct text *t)
{
  unsigned long i, v;

  begin_line(t, 'D');
  field(t, t->frame);
  field(t, t->line++);
  put_c(t, ' ');
  if (t->flags & PATHPROF_TEXT_BASE64) {
    for (i = 0; i < t->nbuf; i += 3) {
      v = (unsigned long)t->buf[i] << 16;
      if (i + 1 < t->nbuf)
        v |= (unsigned long)t->buf[i + 1] << 8;
      if (i + 2 < t->nbuf)
        v |= t->buf[i + 2];
      put_c(t, b64(v >> 18));
      put_c(t, b64(v >> 12));
      put_c(t, i + 1 < t->nbuf ? b64(v >> 6) : '=');
      put_c(t, i + 2 < t->nbuf ? b64(v) : '=');
    }
  } else {
    for (i = 0; i < t->nbuf; i++) {
      put_c(t, digit(t->buf[i] >> 4));
      put_c(t, digit(t->buf[i] & 0xfU));
    }
  }
  end_line(t);
  t->nbuf = 0;
}

/* Bytes per data line for the chosen encoding. */
static unsigned long line_bytes(const struct text *t)
{
  return (t->flags & PATHPROF_TEXT_BASE64) ? B64_BYTES : HEX_BYTES;
}

/* pathprof_write_fn for the core's record stream: cuts it into data lines. */
static int record_bytes(void *ctx, const void *buf, unsigned long len)
{
  struct text *t = ctx;
  const unsigned char *p = buf;
  unsigned long i, per = line_bytes(t);

  for (i = 0; i < len && !t->failed; i++) {
    t->buf[t->nbuf++] = p[i];
    if (t->nbuf == per)
      data_line(t);
  }
  return t->failed ? -1 : 0;
}

/* A frame's header: "PP1 <kind> <dump> <frame> <bytes> <lines> <x|b>"; its data lines follow. */
static void frame_header(struct text *t, char kind, unsigned long size)
{
  unsigned long per = line_bytes(t), lines = 0, left;

  begin_line(t, kind);
  field(t, t->frame);
  field(t, size);
  for (left = size; left > 0; left -= left < per ? left : per)
    lines++; /* no division: some cores would call a library routine for it */
  field(t, lines);
  put_c(t, ' ');
  put_c(t, (t->flags & PATHPROF_TEXT_BASE64) ? 'b' : 'x');
  end_line(t);
  t->line = 0;
  t->nbuf = 0;
}

/* One unit's frame ("U"): its unit record. */
static void frame(struct text *t, const struct __pathprof_unit *u)
{
  unsigned long long nhash;
  unsigned long size = __pathprof_record_size(u, &nhash);

  frame_header(t, 'U', size);
  if (__pathprof_dump_record(u, nhash, record_bytes, t) == 0 && t->nbuf)
    data_line(t);
  t->frame++;
}

/* pathprof_write_fn that only counts the bytes (*(unsigned long *)ctx). */
static int count_bytes(void *ctx, const void *buf, unsigned long len)
{
  (void)buf;
  *(unsigned long *)ctx += len;
  return 0;
}

/* A frame of a whole profile ("X"), from dump: counted first, then streamed, so no buffer holds
   it. Counts that change between the two passes (an interrupt counting meanwhile) make the
   frame's size wrong, and the importer reports it damaged rather than reading it wrong. */
static void whole_frame(struct text *t, int (*dump)(pathprof_write_fn fn, void *ctx))
{
  unsigned long size = 0;

  if (dump(count_bytes, &size) != 0)
    return;
  frame_header(t, 'X', size);
  if (dump(record_bytes, t) == 0 && t->nbuf)
    data_line(t);
  t->frame++;
}

/* The records of the k-slab forests (§2), as a profile of their own. */
static int extra_records(pathprof_write_fn fn, void *ctx)
{
  return __pathprof_dump_extra(fn, ctx, 0);
}

/* The whole dump: header line, one frame per registered unit, one of the k-slab forests when a
   kpath build registered any, one of the OSP snapshot in an osp build, end line with the frame
   count. */
int pathprof_dump_text_to(pathprof_putc_fn put, void *ctx, const char *label, unsigned flags)
{
  struct text t;
  struct __pathprof_unit *u;
  int i;

  if (!put)
    return -1;
  t.put = put;
  t.ctx = ctx;
  t.flags = flags;
  t.dump = dumps++;
  t.failed = 0;
  t.frame = 0;
  begin_line(&t, 'H');
  put_c(&t, ' ');
  for (i = 0; label && label[i] && i < LABEL_MAX; i++)
    put_c(&t, label[i] > ' ' && label[i] < 0x7f ? label[i] : '_');
  if (i == 0)
    put_c(&t, '-');
  end_line(&t);
  __pathprof_backend_sync();
  for (u = __pathprof_first(); u && !t.failed; u = __pathprof_next(u))
    frame(&t, u);
  if (__pathprof_records_any() && !t.failed)
    whole_frame(&t, extra_records);
  if (__pathprof_osp_dump && !t.failed) /* an osp build: the snapshot, units and OSPH record */
    whole_frame(&t, __pathprof_osp_dump);
  begin_line(&t, 'E');
  field(&t, t.frame);
  end_line(&t);
  return t.failed ? -1 : 0;
}

/* The same through a plain putchar. */
int pathprof_dump_text(pathprof_putchar_fn put, const char *label, unsigned flags)
{
  struct plain p;
  if (!put)
    return -1;
  p.put = put;
  return pathprof_dump_text_to(put_plain, &p, label, flags);
}
