/* test_tests.c: unit tests of per-test counts: TEST records written, read back, merged by name,
   checked against the totals, reduced to one test; the runtime's dump and write under a name. */
#include "core/core.h"
#include "profile/profile.h"
#include "check.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A growable byte sink for pathprof_write_fn. */
struct buf { unsigned char *p; size_t n, cap; };

static int buf_write(void *ctx, const void *data, unsigned long len)
{
  struct buf *b = ctx;
  if (b->n + len > b->cap) {
    b->cap = (b->n + len) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->n, data, len);
  b->n += len;
  return 0;
}

/* A profile of one unit with three counters. */
static struct pp_profile one_unit(unsigned long long checksum, unsigned long long a, unsigned long long b)
{
  struct pp_profile p = {0};
  unsigned long long c[3] = {a, b, 0};
  struct pp_unitrec r = {checksum, "/x/u.pp.json", 3, c, 0, 0, 0, 0, 0, 0, 0};
  char err[256];
  if (pp_profile_add_unit(&p, &r, err, sizeof err) != 0) {
    printf("not ok setup: %s\n", err);
    exit(1);
  }
  return p;
}

static struct buf bytes(const struct pp_profile *p)
{
  struct buf b = {0, 0, 0};
  if (pp_profile_write(p, buf_write, &b) != 0) b.n = 0;
  return b;
}

/* The test named name in p, or 0. */
static const struct pp_test *test_named(const struct pp_profile *p, const char *name)
{
  size_t i;
  for (i = 0; i < p->ntests; i++)
    if (!strcmp(p->tests[i].name, name)) return &p->tests[i];
  return 0;
}

static void test_names(void)
{
  char long_name[300];
  memset(long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = 0;
  check("name_ok", pp_test_name_ok("a") && pp_test_name_ok("unit tests: parse (1)") && !pp_test_name_ok("") &&
                       !pp_test_name_ok("tab\there") && !pp_test_name_ok(long_name) && !pp_test_name_ok(0),
        "wrong verdict");
}

/* Filed under a name, written (version 2) and read back. */
static void test_roundtrip(void)
{
  struct pp_profile p = one_unit(0x10, 5, 7), back;
  char err[256];
  check("set_test", pp_profile_set_test(&p, "parse", err, sizeof err) == 0 && p.ntests == 1, "%s", err);
  check("set_test_bad_name", pp_profile_set_test(&p, "a\nb", err, sizeof err) != 0 && p.ntests == 1, "accepted");
  struct buf b = bytes(&p);
  check("write_version_2", b.n > 16 && b.p[8] == 2, "header version %d", b.n > 16 ? b.p[8] : -1);
  int rc = pp_profile_parse(b.p, b.n, "t.out", &back, err, sizeof err);
  const struct pp_test *t = rc == 0 ? test_named(&back, "parse") : 0;
  check("read_back", t && t->nunits == 1 && t->units[0].counters[0] == 5 && t->units[0].counters[1] == 7 &&
                         back.units[0].counters[0] == 5, "%s", rc ? err : "wrong counts");
  if (rc == 0) pp_profile_free(&back);
  struct pp_profile plain = one_unit(0x10, 1, 1);
  struct buf pb = bytes(&plain);
  check("write_version_1_without_tests", pb.n > 16 && pb.p[8] == 1, "header version %d", pb.n > 16 ? pb.p[8] : -1);
  free(pb.p);
  pp_profile_free(&plain);
  free(b.p);
  pp_profile_free(&p);
}

/* Partial paths (PART record) and tests (TEST records) in one profile: the PART record follows
   the TEST records, its entries stay with the totals' units (tests keep no partial paths), and
   a merge adds them up. */
static void test_with_partials(void)
{
  struct pp_profile p = one_unit(0x10, 5, 7), back, sum = {0};
  struct pp_part part = {1, 2, 3, -4};
  char err[256];
  p.units[0].part = malloc(sizeof part);
  if (!p.units[0].part) abort();
  p.units[0].part[0] = part;
  p.units[0].npart = 1;
  pp_profile_set_test(&p, "crash", err, sizeof err);
  struct buf b = bytes(&p);
  int rc = b.n ? pp_profile_parse(b.p, b.n, "t.out", &back, err, sizeof err) : -1, parsed = rc == 0;
  const struct pp_test *t = rc == 0 ? test_named(&back, "crash") : 0;
  check("partials_with_tests_read_back", b.n > 16 && b.p[8] == 2 && t && t->units[0].counters[1] == 7 &&
        !t->units[0].npart && back.units[0].npart == 1 && back.units[0].part[0].fn == 1 &&
        back.units[0].part[0].site == 2 && back.units[0].part[0].r == 3 && back.units[0].part[0].count == -4,
        "%s", rc ? err : "wrong counts or partial paths");
  rc = rc ? rc : pp_profile_merge(&sum, &back, err, sizeof err) | pp_profile_merge(&sum, &back, err, sizeof err);
  check("partials_with_tests_merge", !rc && sum.ntests == 1 && sum.units[0].npart == 1 &&
        sum.units[0].part[0].count == -8 && test_named(&sum, "crash")->units[0].counters[0] == 10,
        "%s", rc ? err : "wrong sums");
  if (parsed) pp_profile_free(&back);
  pp_profile_free(&sum);
  pp_profile_free(&p);
  free(b.p);
}

/* Tests add up by name; totals as before; the result does not depend on the order. */
static void test_merge(void)
{
  struct pp_profile a = one_unit(0x10, 1, 0), b = one_unit(0x10, 0, 2), c = one_unit(0x10, 10, 0);
  struct pp_profile ab = {0}, ba = {0};
  char err[256];
  pp_profile_set_test(&a, "one", err, sizeof err);
  pp_profile_set_test(&b, "two", err, sizeof err);
  pp_profile_set_test(&c, "one", err, sizeof err);
  int rc = pp_profile_merge(&ab, &a, err, sizeof err) | pp_profile_merge(&ab, &b, err, sizeof err) |
           pp_profile_merge(&ab, &c, err, sizeof err);
  rc |= pp_profile_merge(&ba, &c, err, sizeof err) | pp_profile_merge(&ba, &b, err, sizeof err) |
        pp_profile_merge(&ba, &a, err, sizeof err);
  const struct pp_test *one = test_named(&ab, "one"), *two = test_named(&ab, "two");
  check("merge_by_name", !rc && ab.ntests == 2 && one && two && one->units[0].counters[0] == 11 &&
                             two->units[0].counters[1] == 2 && ab.units[0].counters[0] == 11 && ab.units[0].counters[1] == 2,
        "%s", rc ? err : "wrong sums");
  struct buf x = bytes(&ab), y = bytes(&ba);
  check("merge_order_free", x.n && x.n == y.n && !memcmp(x.p, y.p, x.n), "A+B+C and C+B+A differ");
  free(x.p);
  free(y.p);
  pp_profile_free(&a); pp_profile_free(&b); pp_profile_free(&c); pp_profile_free(&ab); pp_profile_free(&ba);
}

/* A profile whose test names a unit the totals lack is refused, and so is a TEST record in
   version 1 or with a control character in its name. */
static void test_rejects(void)
{
  struct pp_profile p = one_unit(0x10, 1, 2), q;
  char err[256];
  pp_profile_set_test(&p, "t", err, sizeof err);
  p.tests[0].units[0].checksum = 0x99;  /* the writer keeps what it is given */
  struct buf b = bytes(&p);
  check("reject_unit_not_in_totals", pp_profile_parse(b.p, b.n, "r.out", &q, err, sizeof err) != 0 &&
                                         strstr(err, "r.out: test 't'") && strstr(err, "0000000000000099"),
        "accepted or '%s'", err);
  p.tests[0].units[0].checksum = 0x10;
  free(b.p);
  b = bytes(&p);
  unsigned char *name = memchr(b.p + 16, 't', b.n - 16);
  size_t at = b.n;
  for (size_t i = 16; i + 4 < b.n; i++)
    if (!memcmp(b.p + i, "TEST", 4)) { at = i; break; }  /* the TEST tag, 0x54534554 little-endian */
  (void)name;
  if (at < b.n) {
    b.p[at + 16] = '\n';
    check("reject_control_in_name", pp_profile_parse(b.p, b.n, "r.out", &q, err, sizeof err) != 0 && strstr(err, "control"),
          "accepted or '%s'", err);
    b.p[at + 16] = 't';
    b.p[8] = 1;
    check("reject_test_in_version_1", pp_profile_parse(b.p, b.n, "r.out", &q, err, sizeof err) != 0 && strstr(err, "unknown tag"),
          "accepted or '%s'", err);
  } else check("reject_control_in_name", 0, "no TEST tag written");
  free(b.p);
  pp_profile_free(&p);
}

/* One test's counts in the totals' places: units it did not run stay, with zero counts. */
static void test_only(void)
{
  struct pp_profile a = one_unit(0x10, 3, 4), b = one_unit(0x20, 8, 9), all = {0};
  char err[256];
  pp_profile_set_test(&a, "a", err, sizeof err);
  pp_profile_merge(&all, &a, err, sizeof err);
  pp_profile_merge(&all, &b, err, sizeof err);
  int rc = pp_profile_only_test(&all, "a", err, sizeof err);
  check("only_test", rc == 0 && all.nunits == 2 && all.units[0].counters[0] == 3 && all.units[1].checksum == 0x20 &&
                         all.units[1].counters[0] == 0 && all.ntests == 0, "%s", rc ? err : "wrong counts");
  check("only_test_unknown", pp_profile_only_test(&all, "zz", err, sizeof err) != 0 && strstr(err, "zz"), "accepted");
  pp_profile_free(&a); pp_profile_free(&b); pp_profile_free(&all);
}

/* The runtime: a dump under a name is version 2 with a TEST record of the registered units;
   naming the next test first writes the counts so far to the profile. */
static unsigned long long cu[4];
static struct __pathprof_unit unit = {0, PATHPROF_UNIT_VERSION, 0x5151515151515151ULL, "/tmp/t.pp.json", 4, cu, 0, 0, 0};

static void test_runtime(void)
{
  char path[64], err[256];
  struct pp_profile p;
  struct buf b = {0, 0, 0};
  snprintf(path, sizeof path, "/tmp/pp-tests-%ld.out", (long)getpid());
  setenv("PATHPROF_FILE", path, 1);
  __pathprof_register(&unit);
  check("set_test_rejects", pathprof_set_test("bad\tname") == -1 && !__pathprof_test_name(), "accepted");
  check("set_test_first", pathprof_set_test("first") == 0 && !strcmp(__pathprof_test_name(), "first"), "not set");
  cu[1] = 6;
  pathprof_dump(buf_write, &b);
  int rc = pp_profile_parse(b.p, b.n, "dump", &p, err, sizeof err);
  const struct pp_test *t = rc == 0 ? test_named(&p, "first") : 0;
  check("dump_test_record", b.n > 16 && b.p[8] == 2 && t && t->nunits == p.nunits && t->units[0].counters[1] == 6,
        "%s", rc ? err : "no test record");
  if (rc == 0) pp_profile_free(&p);
  free(b.p);
  check("set_test_writes", pathprof_set_test("second") == 0 && pp_profile_read(path, &p, err, sizeof err) == 0 &&
                               test_named(&p, "first") && !test_named(&p, "second") && cu[1] == 0,
        "the first test's counts were not written: %s", err);
  pp_profile_free(&p);
  pathprof_set_test(0);
  unlink(path);
  unsetenv("PATHPROF_FILE");
}

int main(void)
{
  test_names();
  test_roundtrip();
  test_merge();
  test_with_partials();
  test_rejects();
  test_only();
  test_runtime();
  fflush(stdout);
  _exit(failures ? 1 : 0);
}
