/* firmware_rt.c: host tests of the freestanding runtime, built by firmware.sh with
   -fsanitize=undefined,address in several variants (the 32-bit hash path, software division,
   small chunks): hash counts, 32-bit saturating counters (unit layout version 2), dumps parsed
   back by the profile reader, record sizes, and a text dump written to stdout for
   `pathprof import`. Prints "ok NAME" / "not ok NAME: why". */
#include "core/core.h"
#include "profile/profile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PATHPROF_CHUNK
#define PATHPROF_CHUNK 256
#endif

static int failures;
static const char *variant = "";

static void check(const char *name, int good, const char *why)
{
  if (good)
    fprintf(stderr, "ok firmware rt%s %s\n", variant, name);
  else {
    fprintf(stderr, "not ok firmware rt%s %s: %s\n", variant, name, why);
    failures++;
  }
}

struct buf {
  unsigned char *p;
  size_t n, cap;
  unsigned long maxchunk;
};

static int buf_write(void *ctx, const void *data, unsigned long len)
{
  struct buf *b = ctx;
  if (len > b->maxchunk)
    b->maxchunk = len;
  if (b->n + len > b->cap) {
    b->cap = (b->n + len) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p)
      abort();
  }
  memcpy(b->p + b->n, data, len);
  b->n += len;
  return 0;
}

static unsigned long long c1[10], h1[3 * 61];
static struct __pathprof_unit u1 = {0, PATHPROF_UNIT_VERSION, 0x1111222233334444ULL, "/t/u1.pp.json",
                                    10, c1, 61, h1, 0};
static unsigned int c32[6];
static struct __pathprof_unit_width u32 = {
    {0, PATHPROF_UNIT_VERSION_WIDTH, 0x5555666677778888ULL, "/t/u32.pp.json", 6, 0, 0, 0, 0}, 32, c32};
static struct __pathprof_unit_width ubadw = {
    {0, PATHPROF_UNIT_VERSION_WIDTH, 0x9999ULL, "/t/bad.pp.json", 1, 0, 0, 0, 0}, 16, c32};

static int putc_stdout(int c)
{
  return putchar(c);
}

int main(int argc, char **argv)
{
  struct buf b = {0, 0, 0, 0};
  struct pp_profile p;
  const struct pp_unitrec *r;
  char err[512];
  unsigned long i, stored = 0, n;
  unsigned long long nhash;
  int ok;

  if (argc > 1)
    variant = argv[1];
  __pathprof_register(&u1);
  __pathprof_register(&u32.base);
  __pathprof_register(&ubadw.base);
  check("register_width_unit", __pathprof_first() == &u32.base && __pathprof_next(&u32.base) == &u1,
        "the version-2 unit is not first in the registry");
  check("refuse_bad_width", ubadw.base.next != 0 && __pathprof_next(&u1) == 0,
        "a 16-bit unit was linked, or not marked");

  /* hash: 5000 ends over 300 distinct (fn, id) into 61 slots: stored + dropped == 5000, stored ends
     only in used slots, never outside the table */
  for (i = 0; i < 5000; i++)
    __pathprof_hash_add(&u1, i % 3, (unsigned long long)(i % 100) * 0x100000001ULL);
  for (i = 0; i < 61; i++)
    stored += (unsigned long)h1[3 * i + 2];
  check("hash_accounts_all", stored + u1.hash_dropped == 5000, "counts lost");
  for (i = 0; i < 200; i++)
    __pathprof_hash_add(&u1, 7, 42);
  ok = 0;
  for (i = 0; i < 61; i++)
    if (h1[3 * i] == 8 && h1[3 * i + 1] == 42)
      ok = h1[3 * i + 2] == 200;
  check("hash_repeat", ok || u1.hash_dropped >= 200, "one key not counted in one entry");

  /* 32-bit saturating counters */
  c1[3] = 5;
  c32[0] = 0xfffffffeu;
  c32[0] += c32[0] != 0xffffffffu; /* as instrumented code counts */
  c32[0] += c32[0] != 0xffffffffu;
  c32[5] = 7;
  __pathprof_counter_set(&u32.base, 1, 0x1234567890ULL);
  __pathprof_counter_set(&u32.base, 99, 1);
  check("counter32_saturates", c32[0] == 0xffffffffu && c32[1] == 0xffffffffu &&
        __pathprof_counter_get(&u32.base, 0) == 0xffffffffULL && __pathprof_counter_get(&u32.base, 99) == 0,
        "wrong saturation or bounds");

  /* a dump parses, carries both widths, and comes in chunks of at most PATHPROF_CHUNK */
  if (pathprof_dump(buf_write, &b) != 0 || pp_profile_parse(b.p, b.n, "dump", &p, err, sizeof err) != 0) {
    check("dump_parses", 0, err);
    return 1;
  }
  check("dump_chunks", b.maxchunk <= PATHPROF_CHUNK, "a chunk was too large");
  r = 0;
  for (i = 0; i < p.nunits; i++)
    if (p.units[i].checksum == 0x5555666677778888ULL)
      r = &p.units[i];
  check("dump_widens_32bit", r && r->ncounters == 6 && r->counters[0] == 0xffffffffULL && r->counters[5] == 7,
        "32-bit counters not in the dump");
  check("dump_units", p.nunits == 2, "the refused unit was dumped, or one is missing");
  pp_profile_free(&p);

  /* record sizes agree with the bytes streamed */
  n = __pathprof_record_size(&u1, &nhash);
  b.n = 0;
  __pathprof_dump_record(&u1, nhash, buf_write, &b);
  check("record_size", n == b.n, "size and stream disagree");

  /* reset zeroes both widths and every hash count; hash keys and ids stay (inline caches point
     at them), and the zeroed entries are no longer dumped */
  pathprof_reset();
  ok = u1.hash_dropped == 0 && c1[3] == 0 && c32[0] == 0 && c32[5] == 0;
  for (i = 0; i < 61; i++)
    ok = ok && h1[3 * i + 2] == 0;
  __pathprof_record_size(&u1, &nhash);
  check("reset", ok && nhash == 0, "something is left");

  /* a text dump of known counts on stdout, for firmware.sh to import */
  for (i = 0; i < 10; i++)
    c1[i] = i * 1000003ULL;
  c32[2] = 77;
  for (i = 0; i < 50; i++)
    __pathprof_hash_add(&u1, 1, i);
  printf("noise before\n");
  pathprof_dump_text(putc_stdout, "rt-hex", PATHPROF_TEXT_HEX);
  printf("noise between\n");
  pathprof_dump_text(putc_stdout, "rt b64", PATHPROF_TEXT_BASE64 | PATHPROF_TEXT_CRLF);
  free(b.p);
  return failures != 0;
}
