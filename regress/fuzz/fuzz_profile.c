/* libFuzzer harness for the strict profile reader (rt/profile/): parse, merge, write, re-read. */
#include "profile/profile.h"
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A growing byte buffer that pp_profile_write fills. */
struct buf {
  unsigned char *b;
  size_t n;
};

/* pathprof_write_fn into a struct buf. */
static int to_buf(void *ctx, const void *p, unsigned long len)
{
  struct buf *o = ctx;
  unsigned char *g = realloc(o->b, o->n + len);
  if (!g)
    return -1;
  memcpy(g + o->n, p, len);
  o->b = g;
  o->n += len;
  return 0;
}

/* Read keeping sparse records sparse, the same profile merged with itself twice writes the
   same bytes as the dense one did (out, when that merge worked): the forms differ in memory only. */
static void same_sparse(const uint8_t *data, size_t size, const struct buf *out)
{
  struct pp_profile p, twice = {0, 0};
  struct buf o = {0, 0};
  char err[512];
  int rc = pp_profile_parse_flags(data, size, "fuzz", PP_READ_SPARSE, &p, err, sizeof err);

  assert(rc == 0);
  if (pp_profile_merge(&twice, &p, err, sizeof err) == 0 && pp_profile_merge(&twice, &p, err, sizeof err) == 0 &&
      pp_profile_write(&twice, to_buf, &o) == 0)
    assert(!out->b || (o.n == out->n && memcmp(o.b, out->b, o.n) == 0));
  free(o.b);
  pp_profile_free(&twice);
  pp_profile_free(&p);
}

/* Whatever the bytes, parsing must not crash; an accepted profile must merge with itself,
   write out and read back with every count doubled (saturating) and nothing else changed
   (its tests too), and read sparse it must write alike. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct pp_profile p, twice = {0, 0}, back;
  struct buf out = {0, 0};
  char err[512];
  size_t i, k;

  if (pp_profile_parse(data, size, "fuzz", &p, err, sizeof err) != 0) {
    assert(err[0] != 0 && p.nunits == 0);
    assert(pp_profile_parse_flags(data, size, "fuzz", PP_READ_SPARSE, &p, err, sizeof err) != 0);
    return 0;
  }
  if (pp_profile_merge(&twice, &p, err, sizeof err) == 0 &&
      pp_profile_merge(&twice, &p, err, sizeof err) == 0 &&
      pp_profile_write(&twice, to_buf, &out) == 0) {
    int rc = pp_profile_parse(out.b, out.n, "fuzz-out", &back, err, sizeof err);
    assert(rc == 0 && back.nunits == p.nunits && back.ntests == p.ntests);
    for (i = 0; i < p.ntests; i++)
      assert(!strcmp(back.tests[i].name, p.tests[i].name) && back.tests[i].nunits == p.tests[i].nunits);
    for (i = 0; i < p.nunits; i++) {
      assert(back.units[i].checksum == p.units[i].checksum);
      assert(back.units[i].ncounters == p.units[i].ncounters);
      for (k = 0; k < p.units[i].ncounters; k++) {
        unsigned long long c = p.units[i].counters[k], want = c + c < c ? ~0ULL : c + c;
        assert(back.units[i].counters[k] == want);
      }
    }
    pp_profile_free(&back);
  }
  same_sparse(data, size, &out);
  free(out.b);
  pp_profile_free(&twice);
  pp_profile_free(&p);
  return 0;
}
