/* bench workload: a protocol state machine.
   A sender simulates many sessions of a small connection protocol over an HDLC-like framed
   byte stream (0x7E flags, 0x7D escapes, CRC-16/CCITT) and damages it on purpose: frames
   with a wrong CRC, duplicated and reordered data frames, frames for unknown sessions,
   line noise between frames, stray resets.  The receiver runs a byte-level deframer state
   machine and a per-session state machine (CLOSED, SYN_RCVD, OPEN, CLOSING) and must
   deliver exactly what the sender predicted: the same bytes, frame and error counts.
   Usage: proto [SCALE]  (hundreds of sessions, default 320) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned char u8;
typedef unsigned int u32;

enum { FLAG = 0x7E, ESC = 0x7D };
enum ftype { F_SYN = 1, F_ACK, F_DATA, F_PING, F_PONG, F_FIN, F_RST };
enum sstate { CLOSED, SYN_RCVD, OPEN, CLOSING };
#define NSESS 64
#define MAXPAY 200

static unsigned long long seed = 0xDA3E39CB94B95BDBULL;
static u32 rnd(u32 n) { seed = seed * 6364136223846793005ULL + 1442695040888963407ULL; return (u32)(seed >> 33) % n; }

static unsigned short crctab[256];

static void crc_init(void)
{
  int i, b;
  for (i = 0; i < 256; i++) {
    unsigned short c = (unsigned short)(i << 8);
    for (b = 0; b < 8; b++) c = (unsigned short)(c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1);
    crctab[i] = c;
  }
}

static unsigned short crc16(const u8 *p, int n)
{
  unsigned short crc = 0xFFFF;
  int i;
  for (i = 0; i < n; i++) crc = (unsigned short)((crc << 8) ^ crctab[(crc >> 8) ^ p[i]]);
  return crc;
}

struct counts {
  long frames, bad_crc, runts, unknown, dup, opened, closed, resets, pongs, bytes;
  unsigned long long digest;
};

/* ---------- sender ---------- */
static u8 *wire;
static size_t wlen, wcap;
static struct counts want;

static void wput(u8 b)
{
  if (wlen == wcap) { wcap = wcap * 2 + 65536; wire = realloc(wire, wcap); if (!wire) exit(2); }
  wire[wlen++] = b;
}

static void stuff(u8 b)
{
  if (b == FLAG || b == ESC) { wput(ESC); wput(b ^ 0x20); }
  else wput(b);
}

/* frame = type, session, seq, len, payload[len], crc16 (big endian) */
static void send_frame(int type, int sess, int seq, const u8 *pay, int len, int corrupt)
{
  u8 buf[4 + MAXPAY + 2];
  unsigned short crc;
  int i;
  buf[0] = (u8)type; buf[1] = (u8)sess; buf[2] = (u8)seq; buf[3] = (u8)len;
  memcpy(buf + 4, pay, (size_t)len);
  crc = crc16(buf, 4 + len);
  buf[4 + len] = (u8)(crc >> 8); buf[5 + len] = (u8)crc;
  if (corrupt) {
    int at = (int)rnd((u32)(6 + len));
    buf[at] ^= (u8)(1 + rnd(255));
  }
  wput(FLAG);
  for (i = 0; i < 6 + len; i++) stuff(buf[i]);
  wput(FLAG);
}

static void noise(void)
{
  int n = 1 + (int)rnd(3), i;          /* 1..3 bytes between flags: always a runt */
  for (i = 0; i < n; i++) {
    u8 b = (u8)rnd(256);
    if (b == FLAG || b == ESC) b = 0x55;
    wput(b);
  }
  wput(FLAG);
}

static void digest_add(unsigned long long *d, const u8 *p, int n)
{
  int i;
  for (i = 0; i < n; i++) *d = (*d ^ p[i]) * 1099511628211ULL;
}

static void sender(long nsessions)
{
  long s;
  u8 pay[MAXPAY];
  want.digest = 14695981039346656037ULL;
  for (s = 0; s < nsessions; s++) {
    int id = (int)(s % NSESS), seq = 0, ndata = 2 + (int)rnd(20), i, k;
    if (rnd(50) == 0) { send_frame(F_DATA, 200 + (int)rnd(50), 0, pay, 0, 0); want.frames++; want.unknown++; }
    send_frame(F_SYN, id, 0, pay, 0, 0); want.frames++;
    send_frame(F_ACK, id, 0, pay, 0, 0); want.frames++; want.opened++;
    for (i = 0; i < ndata; i++) {
      int len = 1 + (int)rnd(MAXPAY), r = (int)rnd(40);
      for (k = 0; k < len; k++) pay[k] = (u8)(rnd(4) ? 'a' + rnd(26) : rnd(256));
      if (r == 0) {                                    /* damaged copy first, then the good one */
        send_frame(F_DATA, id, seq, pay, len, 1); want.bad_crc++;
      } else if (r == 1) noise(), want.runts++;
      else if (r == 2) { send_frame(F_PING, id, 0, pay, 4, 0); want.frames++; want.pongs++; }
      send_frame(F_DATA, id, seq, pay, len, 0); want.frames++;
      want.bytes += len;
      digest_add(&want.digest, pay, len);
      if (r == 3) { send_frame(F_DATA, id, seq, pay, len, 0); want.frames++; want.dup++; }  /* duplicate */
      seq = (seq + 1) & 0xFF;
    }
    if (rnd(10) == 0) { send_frame(F_RST, id, 0, pay, 0, 0); want.frames++; want.resets++; }
    else {
      send_frame(F_FIN, id, seq, pay, 0, 0); want.frames++;
      send_frame(F_ACK, id, 0, pay, 0, 0); want.frames++; want.closed++;
    }
  }
}

/* ---------- receiver ---------- */
enum dstate { HUNT, IN_FRAME, ESCAPED };
struct session { enum sstate st; int expect; };
static struct session sess[NSESS];
static struct counts got;

static void on_frame(const u8 *f, int n)
{
  int type, id, seq, len;
  struct session *ss;
  if (n < 6) { got.runts++; return; }
  if (crc16(f, n - 2) != (unsigned short)(f[n - 2] << 8 | f[n - 1])) { got.bad_crc++; return; }
  type = f[0]; id = f[1]; seq = f[2]; len = f[3];
  if (len != n - 6) { got.runts++; return; }
  got.frames++;
  if (id >= NSESS) { got.unknown++; return; }
  ss = &sess[id];
  switch (ss->st) {
  case CLOSED:
    if (type == F_SYN) ss->st = SYN_RCVD;
    else got.unknown++;
    break;
  case SYN_RCVD:
    if (type == F_ACK) { ss->st = OPEN; ss->expect = 0; got.opened++; }
    else if (type == F_RST) { ss->st = CLOSED; got.resets++; }
    else got.unknown++;
    break;
  case OPEN:
    switch (type) {
    case F_DATA:
      if (seq == ss->expect) {
        got.bytes += len;
        digest_add(&got.digest, f + 4, len);
        ss->expect = (ss->expect + 1) & 0xFF;
      } else
        got.dup++;
      break;
    case F_PING: got.pongs++; break;
    case F_FIN:
      if (seq == ss->expect) ss->st = CLOSING;
      else got.unknown++;
      break;
    case F_RST: ss->st = CLOSED; got.resets++; break;
    default: got.unknown++;
    }
    break;
  case CLOSING:
    if (type == F_ACK) { ss->st = CLOSED; got.closed++; }
    else if (type == F_RST) { ss->st = CLOSED; got.resets++; }
    else got.unknown++;
    break;
  }
}

static void receiver(const u8 *p, size_t n)
{
  static u8 frame[2 * (MAXPAY + 6)];
  enum dstate st = HUNT;
  int len = 0;
  size_t i;
  got.digest = 14695981039346656037ULL;
  for (i = 0; i < n; i++) {
    u8 b = p[i];
    switch (st) {
    case HUNT:
      if (b == FLAG) { st = IN_FRAME; len = 0; }
      break;
    case IN_FRAME:
      if (b == FLAG) {
        if (len > 0) on_frame(frame, len);
        len = 0;                                     /* a closing flag also opens the next frame */
      } else if (b == ESC) st = ESCAPED;
      else if (len < (int)sizeof frame) frame[len++] = b;
      else { got.runts++; st = HUNT; }
      break;
    case ESCAPED:
      if (b == FLAG) { got.runts++; st = IN_FRAME; len = 0; break; }
      if (len < (int)sizeof frame) frame[len++] = b ^ 0x20;
      st = IN_FRAME;
      break;
    }
  }
}

int main(int argc, char **argv)
{
  long scale = argc > 1 ? atol(argv[1]) : 320, pass;
  int bad = 0;
  crc_init();
  sender(scale * 100);
  for (pass = 0; pass < 4; pass++) {                 /* the receiver runs a few times over the stream */
    memset(&got, 0, sizeof got);
    memset(sess, 0, sizeof sess);
    receiver(wire, wlen);
    if (got.frames != want.frames || got.bad_crc != want.bad_crc || got.runts != want.runts ||
        got.unknown != want.unknown || got.dup != want.dup || got.opened != want.opened ||
        got.closed != want.closed || got.resets != want.resets || got.pongs != want.pongs ||
        got.bytes != want.bytes || got.digest != want.digest) {
      fprintf(stderr, "pass %ld: frames %ld/%ld crc %ld/%ld runts %ld/%ld unknown %ld/%ld dup %ld/%ld "
              "open %ld/%ld closed %ld/%ld rst %ld/%ld pong %ld/%ld bytes %ld/%ld\n", pass,
              got.frames, want.frames, got.bad_crc, want.bad_crc, got.runts, want.runts, got.unknown,
              want.unknown, got.dup, want.dup, got.opened, want.opened, got.closed, want.closed,
              got.resets, want.resets, got.pongs, want.pongs, got.bytes, want.bytes);
      bad = 1;
      break;
    }
  }
  printf("proto: %ld sessions, %lu wire bytes, %ld frames, %ld delivered bytes, digest %016llx\n",
         scale * 100, (unsigned long)wlen, got.frames, got.bytes, got.digest);
  puts(bad ? "FAIL" : "PASS");
  free(wire);
  return bad;
}
