/* test_sparse.c: unit tests of sparse units in the profile model: merges, reads and writes of
   units kept as (index, count) pairs give the counts of a dense oracle, in either form. */
#include "profile/profile.h"
#include "check.h"
#include <stdlib.h>
#include <string.h>

#define BIG (1ULL << 20)   /* a unit far larger than what one run touches */
#define SMALL 40ULL        /* a unit whose union soon fills half of it */
#define MAXC 0xffffffffffffffffULL

/* A deterministic xorshift stream, so a failure can be rerun. */
static unsigned long long rnd(void)
{
  static unsigned long long s = 88172645463325252ULL;
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

/* One run's sparse unit: n distinct random indices below nc (ascending), counts 1..1000. */
struct run {
  unsigned long long idx[64], val[64];
  struct pp_sparse s;
};

/* Compares indices for qsort. */
static int cmp_u64(const void *a, const void *b)
{
  unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
  return x < y ? -1 : x > y;
}

/* Fills r with n (<= 64) distinct indices below nc, from pool (when not 0: indices already used,
   so a run again touches what an earlier one did). */
static void make_run(struct run *r, unsigned long long nc, unsigned long long n, const unsigned long long *pool,
                     unsigned long long npool)
{
  unsigned long long i, j, x;
  memset(r, 0, sizeof *r);
  for (i = 0; i < n;) {
    x = pool ? pool[rnd() % npool] : rnd() % nc;
    for (j = 0; j < i && r->idx[j] != x; j++) {}
    if (j == i)
      r->idx[i++] = x;
  }
  qsort(r->idx, n, sizeof *r->idx, cmp_u64);
  for (i = 0; i < n; i++)
    r->val[i] = 1 + rnd() % 1000;
  r->s.checksum = 0x5ca1ab1e;
  r->s.ncounters = nc;
  r->s.nset = n;
  r->s.name = "/x/sparse.pp.json";
  r->s.idx = r->idx;
  r->s.val = r->val;
}

/* Adds r into the dense oracle o. */
static void oracle_add(unsigned long long *o, const struct run *r)
{
  unsigned long long i;
  for (i = 0; i < r->s.nset; i++)
    o[r->idx[i]] += r->val[i];
}

/* Whether unit u (either form) holds exactly the counts of oracle o. */
static int equals(const struct pp_unitrec *u, const unsigned long long *o, unsigned long long nc)
{
  struct pp_unitrec c;
  unsigned long long i;
  int same;
  if (!u || u->ncounters != nc)
    return 0;
  if (!u->idx)
    return memcmp(u->counters, o, nc * sizeof *o) == 0;
  for (i = 0; i < u->nset; i++)
    if (!u->counters[i] || (i && u->idx[i] <= u->idx[i - 1]))
      return 0; /* not canonical */
  c = *u;
  c.counters = malloc(u->nset * 8 + 8);
  c.idx = malloc(u->nset * 8 + 8);
  memcpy(c.counters, u->counters, u->nset * 8);
  memcpy(c.idx, u->idx, u->nset * 8);
  same = pp_unit_dense(&c) == 0 && !c.idx && memcmp(c.counters, o, nc * sizeof *o) == 0;
  free(c.counters);
  return same;
}

/* The serialised bytes of p. */
static int encode(const struct pp_profile *p, unsigned char **b, size_t *n)
{
  return pp_profile_encode(p, b, n);
}

/* Runs of one program into one profile, merged as the runtime's rewrite does: the unit stays
   sparse while it is small against its size and always sums as the oracle. */
static void test_merges(unsigned long long nc, const char *label)
{
  unsigned long long *o = calloc(nc, sizeof *o), pool[96];
  struct pp_profile sum = {0}, one;
  struct run r;
  char err[256], name[96];
  int i, ok = 1, sparse_seen = 0, dense_seen = 0;

  for (i = 0; i < 96; i++)
    pool[i] = rnd() % nc;
  for (i = 0; i < 40; i++) {
    make_run(&r, nc, 1 + rnd() % (nc < 64 ? nc / 4 : 32), i % 2 ? pool : 0, 96);
    oracle_add(o, &r);
    if (pp_profile_from_sparse(&r.s, 1, &one, err, sizeof err) != 0 || pp_profile_merge(&sum, &one, err, sizeof err) != 0) {
      ok = 0;
      break;
    }
    pp_profile_free(&one);
    ok &= equals(&sum.units[0], o, nc);
    sparse_seen |= sum.units[0].idx != 0;
    dense_seen |= !sum.units[0].idx;
  }
  snprintf(name, sizeof name, "sparse_merges_sum_%s", label);
  check(name, ok && sum.nunits == 1, "counts differ from the oracle (%s)", err);
  snprintf(name, sizeof name, "sparse_merges_form_%s", label);
  if (nc == BIG)
    check(name, sparse_seen && !dense_seen, "a unit of %llu counters with a few set became dense", nc);
  else
    check(name, sparse_seen && dense_seen && !sum.units[0].idx,
          "a unit of %llu counters did not turn dense when the pairs grew past half of it", nc);
  pp_profile_free(&sum);
  free(o);
}

/* Writes and reads in every form: a sparse unit's bytes are its dense copy's; a reader keeps
   sparse records sparse only when asked; streams one after the other add up. */
static void test_read_write(void)
{
  unsigned long long *o = calloc(BIG, sizeof *o);
  struct pp_profile p[3], dense, back, all;
  unsigned char *b[3], *cat, *db;
  size_t n[3], dn, total = 0;
  struct run r;
  char err[256] = "";
  int i, ok = 1;

  for (i = 0; i < 3; i++) {
    make_run(&r, BIG, 20 + i, 0, 0);
    oracle_add(o, &r);
    ok &= pp_profile_from_sparse(&r.s, 1, &p[i], err, sizeof err) == 0 && encode(&p[i], &b[i], &n[i]) == 0;
    total += n[i];
  }
  check("sparse_from_run_is_sparse", ok && p[0].units[0].idx && p[0].units[0].nset == 20, "form or size wrong");
  dense = p[0];
  ok = pp_profile_parse(b[0], n[0], "a", &dense, err, sizeof err) == 0;
  check("sparse_read_default_dense", ok && !dense.units[0].idx && dense.units[0].counters,
        "the default read gave a sparse unit: %s", err);
  ok = ok && encode(&dense, &db, &dn) == 0;
  check("sparse_bytes_as_dense", ok && dn == n[0] && memcmp(db, b[0], dn) == 0, "a sparse unit encodes otherwise");
  free(db);
  pp_profile_free(&dense);
  cat = malloc(total);
  for (i = 0, total = 0; i < 3; i++) {
    memcpy(cat + total, b[i], n[i]);
    total += n[i];
    free(b[i]);
  }
  ok = pp_profile_parse_flags(cat, total, "cat", PP_READ_SPARSE, &back, err, sizeof err) == 0;
  check("sparse_read_streams", ok && back.nunits == 1 && back.units[0].idx && equals(&back.units[0], o, BIG),
        "three sparse streams read back as %s: %s", ok && back.units[0].idx ? "other counts" : "dense", err);
  ok = ok && pp_profile_parse(cat, total, "cat", &all, err, sizeof err) == 0;
  check("sparse_read_streams_dense", ok && !all.units[0].idx && equals(&all.units[0], o, BIG), "%s", err);
  /* dense into sparse and sparse into dense: the sum is dense, and right */
  for (i = 0; i < (int)BIG; i++)
    o[i] *= 2;
  ok = ok && pp_profile_merge(&back, &all, err, sizeof err) == 0;
  check("sparse_plus_dense", ok && !back.units[0].idx && equals(&back.units[0], o, BIG), "%s", err);
  pp_profile_free(&all);
  pp_profile_free(&back);
  for (i = 0; i < 3; i++)
    pp_profile_free(&p[i]);
  free(cat);
  free(o);
}

/* Counts saturate in a sparse add as in a dense one, in place and by a join. */
static void test_saturation(void)
{
  unsigned long long ia[] = {3, 9}, va[] = {MAXC - 1, 7}, ib[] = {3, 500}, vb[] = {5, 1};
  struct pp_sparse a = {0x77, BIG, 2, 0, 0, "/x/s.pp.json", ia, va, 0, 0, 0, 0}, b = a;
  struct pp_profile pa, pb;
  char err[256] = "";
  int ok;

  b.idx = ib;
  b.val = vb;
  ok = pp_profile_from_sparse(&a, 1, &pa, err, sizeof err) == 0 && pp_profile_from_sparse(&b, 1, &pb, err, sizeof err) == 0 &&
       pp_profile_merge(&pa, &pb, err, sizeof err) == 0 && pp_profile_merge(&pa, &pb, err, sizeof err) == 0;
  check("sparse_saturates", ok && pa.units[0].idx && pa.units[0].nset == 3 && pa.units[0].counters[0] == MAXC &&
                                pa.units[0].counters[1] == 7 && pa.units[0].counters[2] == 2,
        "wrong sums: %s", err);
  pp_profile_free(&pa);
  pp_profile_free(&pb);
}

int main(void)
{
  test_merges(BIG, "big");
  test_merges(SMALL, "small");
  test_read_write();
  test_saturation();
  return failures != 0;
}
