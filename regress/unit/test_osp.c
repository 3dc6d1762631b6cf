/* test_osp.c: unit tests of online subpath profiling (rt/core/osp.c): skip lengths, estimates, the memory bound under a uniform hammer, length distributions, threads, the OSPH record. */
#include "core/core.h"
#include "profile/profile.h"
#include "check.h"
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern __thread unsigned long __pathprof_osp_skip;

static unsigned long long counters[1];
static struct __pathprof_unit unit = { 0, PATHPROF_UNIT_VERSION, 0x0123456789abcdefULL, "/nonexistent/x.pp.json",
                                       0, counters, 0, 0, 0 };

/* What the instrumented code does at a block entry. */
static void enter(unsigned long fn, unsigned long block)
{
  if (--__pathprof_osp_skip == 0)
    __pathprof_osp_block(&unit, fn, block);
}

/* Configures the list; aborts the test run when the runtime refuses valid settings. */
static void setup(unsigned long memory, unsigned long rate, unsigned long long seed, unsigned lengths)
{
  struct pathprof_osp_config c;
  memset(&c, 0, sizeof c);
  c.memory = memory;
  c.rate = rate;
  c.seed = seed;
  c.lengths = lengths;
  if (pathprof_osp_configure(&c) != 0) {
    printf("not ok osp configure %lu %lu: refused\n", memory, rate);
    exit(1);
  }
}

/* A growing buffer for snapshots. */
struct buf {
  unsigned char *p;
  size_t n;
};

/* write_fn appending to a buf. */
static int to_buf(void *ctx, const void *data, unsigned long len)
{
  struct buf *b = ctx;
  b->p = realloc(b->p, b->n + len);
  if (!b->p)
    return -1;
  memcpy(b->p + b->n, data, len);
  b->n += len;
  return 0;
}

/* Takes a snapshot and parses it; 0 or -1 (with a failed check). */
static int snapshot(struct pp_profile *p, const char *name)
{
  struct buf b = { 0, 0 };
  char err[256];
  int rc = pathprof_osp_snapshot(to_buf, &b);
  if (rc == 0)
    rc = pp_profile_parse(b.p, b.n, "snapshot", p, err, sizeof err);
  else
    snprintf(err, sizeof err, "the snapshot's write failed");
  check(name, rc == 0 && p->osp != 0, "%s", rc ? err : "no OSPH record");
  free(b.p);
  return rc == 0 && p->osp ? 0 : -1;
}

/* Feeds n entries of the 8-block cycle 10..17 of function 3. */
static void feed_cycle(unsigned long n)
{
  unsigned long i;
  for (i = 0; i < n; i++)
    enter(3, 10 + i % 8);
}

/* Sample starts come at the configured rate (the list never fills: 40 distinct subpaths). */
static void test_rate(void)
{
  struct pathprof_osp_stats s;
  double expect = 4000000.0 / 100;
  setup(0, 100, 7, PATHPROF_OSP_GEOMETRIC);
  feed_cycle(4000000);
  pathprof_osp_stats(&s);
  check("osp sample starts at rate 1/100", s.resamples == 0 && fabs((double)s.started - expect) < 5 * sqrt(expect),
        "%llu starts in 4e6 block entries, expected %.0f (resamples %llu)", s.started, expect, s.resamples);
  setup(0, 3, 8, PATHPROF_OSP_GEOMETRIC);
  feed_cycle(300000);
  pathprof_osp_stats(&s);
  check("osp sample starts at rate 1/3 (small rates use the exact table)",
        fabs((double)s.started - 100000.0) < 5 * sqrt(100000.0 * 2 / 3), "%llu starts, expected 100000", s.started);
}

/* Every window of the cycle occurs n/8 times; each estimate must be close, and the estimates of
   one length must add up to the n windows of that length. */
static void test_estimates(unsigned lengths, const char *name)
{
  struct pp_profile p;
  double total[17] = { 0 };
  unsigned long n = 2000000, k;
  unsigned long long i;
  int bad = 0;
  setup(0, 16, 11, lengths);
  feed_cycle(n);
  if (snapshot(&p, name) != 0)
    return;
  for (i = 0; i < p.osp->nentries; i++) {
    const struct pp_ospent *e = &p.osp->entries[i];
    unsigned lg = 0;
    while ((1UL << lg) < e->len)
      lg++;
    double q = (double)p.osp->weight[lg] / 65536.0 / (double)p.osp->rate, est = (double)e->count / q;
    double sd = sqrt((n / 8.0) * q * (1 - q)) / q;
    total[lg] += est;
    bad += fabs(est - n / 8.0) > 5 * sd;
  }
  for (k = 1; k <= p.osp->maxlog; k++)
    bad += fabs(total[k] - (double)n) > 0.05 * (double)n;
  check(name, p.osp->nentries == 40 && !bad && p.osp->resamples == 0,
        "%llu entries (want 40), %d estimates off by more than 5 sd or 5%% in sum", p.osp->nentries, bad);
  pp_profile_free(&p);
}

/* A uniform distribution over a million subpaths hammers the list: it must resample and never
   use more than M bytes. */
static void test_memory(unsigned long m)
{
  struct pathprof_osp_stats s;
  struct pp_profile p;
  unsigned long i, worst = 0;
  unsigned x = 12345;
  char name[96];
  setup(m, 2, m, PATHPROF_OSP_GEOMETRIC);
  for (i = 0; i < 3000000; i++) {
    x = x * 1103515245u + 12345u;
    enter((x >> 8) % 1000, (x >> 18) % 1000);
    if (i % 997 == 0) {
      pathprof_osp_stats(&s);
      if (s.used > worst)
        worst = s.used;
    }
  }
  pathprof_osp_stats(&s);
  snprintf(name, sizeof name, "osp hot list within M = %lu bytes under a uniform hammer", m);
  check(name, worst <= m && s.peak <= m && s.capacity <= m && s.memory == m && s.resamples > 0 && s.entries > 0,
        "used up to %lu, peak %lu, capacity %lu, memory %lu, %llu resamples, %lu entries", worst, s.peak, s.capacity,
        s.memory, s.resamples, s.entries);
  snprintf(name, sizeof name, "osp snapshot of M = %lu parses and reports the bound", m);
  if (snapshot(&p, name) == 0) {
    snprintf(name, sizeof name, "osp snapshot of M = %lu: peak %llu <= memory %llu", m, p.osp->peak, p.osp->memory);
    check(name, p.osp->peak <= p.osp->memory && p.osp->memory == m && p.osp->nentries == s.entries, "bad figures");
    pp_profile_free(&p);
  }
}

/* Out-of-range settings are refused and change nothing. */
static void test_config(void)
{
  struct pathprof_osp_config c;
  struct pathprof_osp_stats before, after;
  int refused = 0;
  setup(8192, 50, 1, PATHPROF_OSP_GEOMETRIC);
  pathprof_osp_stats(&before);
  memset(&c, 0, sizeof c);
  c.memory = 1000;
  refused += pathprof_osp_configure(&c) != 0;
  c.memory = 1UL << 30;
  refused += pathprof_osp_configure(&c) != 0;
  c.memory = 0;
  c.rate = 1UL << 24;
  refused += pathprof_osp_configure(&c) != 0;
  c.rate = 0;
  c.max_log = 11;
  refused += pathprof_osp_configure(&c) != 0;
  c.max_log = 0;
  c.lengths = 3;
  refused += pathprof_osp_configure(&c) != 0;
  pathprof_osp_stats(&after);
  check("osp configure refuses out-of-range settings", refused == 5 && after.memory == before.memory &&
        after.rate == before.rate, "%d of 5 refused", refused);
}

/* Threads sample into one list with their own skip counters. */
static void *worker(void *arg)
{
  unsigned long fn = (unsigned long)arg, i;
  for (i = 0; i < 500000; i++)
    enter(fn, i % 6);
  return 0;
}

static void test_threads(void)
{
  pthread_t t[4];
  struct pathprof_osp_stats s;
  struct pp_profile p;
  unsigned long i;
  unsigned long long j, mixed = 0;
  setup(16384, 20, 5, PATHPROF_OSP_GEOMETRIC);
  for (i = 0; i < 4; i++)
    pthread_create(&t[i], 0, worker, (void *)(100 + i));
  for (i = 0; i < 4; i++)
    pthread_join(t[i], 0);
  pathprof_osp_stats(&s);
  check("osp four threads sample into one list", s.samples > 1000 && s.used <= s.memory,
        "%llu samples, %lu of %lu bytes", s.samples, s.used, s.memory);
  if (snapshot(&p, "osp snapshot after threads") != 0)
    return;
  for (j = 0; j < p.osp->nentries; j++) {
    const struct pp_ospent *e = &p.osp->entries[j];
    unsigned long k;
    for (k = 1; e->blocks && k < e->len; k++)
      mixed += e->blocks[k].fn != e->blocks[0].fn;
  }
  check("osp subpaths never mix threads", mixed == 0, "%llu blocks of another thread's function in a subpath", mixed);
  pp_profile_free(&p);
}

/* The OSPH record survives the host writer and reader; two snapshots do not merge. */
static void test_roundtrip(void)
{
  struct pp_profile p, q, r;
  struct buf b = { 0, 0 };
  char err[256];
  unsigned long long i;
  int same = 1;
  setup(4096, 8, 3, PATHPROF_OSP_LONG);
  feed_cycle(100000);
  for (i = 0; i < 50000; i++)
    enter(4, i % 13);
  if (snapshot(&p, "osp snapshot parses") != 0)
    return;
  pp_profile_write(&p, to_buf, &b);
  if (pp_profile_parse(b.p, b.n, "rewritten", &q, err, sizeof err) != 0) {
    check("osp snapshot written by the host tools parses again", 0, "%s", err);
    pp_profile_free(&p);
    free(b.p);
    return;
  }
  same = q.osp && q.osp->nentries == p.osp->nentries && q.osp->nblocks == p.osp->nblocks &&
         q.osp->rate == p.osp->rate && q.osp->lengths == PATHPROF_OSP_LONG;
  for (i = 0; same && i < p.osp->nentries; i++)
    same = q.osp->entries[i].id == p.osp->entries[i].id && q.osp->entries[i].count == p.osp->entries[i].count &&
           !q.osp->entries[i].blocks == !p.osp->entries[i].blocks &&
           (!p.osp->entries[i].blocks || q.osp->entries[i].blocks[0].block == p.osp->entries[i].blocks[0].block);
  check("osp snapshot written by the host tools parses again, unchanged", same, "entries differ");
  memset(&r, 0, sizeof r);
  check("osp two snapshots do not merge", pp_profile_merge(&q, &p, err, sizeof err) != 0 && strstr(err, "OSPH"),
        "merge accepted two OSPH records");
  check("osp a snapshot merges with a profile without one",
        pp_profile_merge(&r, &p, err, sizeof err) == 0 && r.osp && r.osp->nentries == p.osp->nentries, "%s", err);
  b.p[b.n - 20] ^= 1; /* inside the OSPH record, so the checksum fails */
  pp_profile_free(&r);
  check("osp damaged snapshot is refused", pp_profile_parse(b.p, b.n, "damaged", &r, err, sizeof err) != 0,
        "parsed");
  pp_profile_free(&p);
  pp_profile_free(&q);
  pp_profile_free(&r);
  free(b.p);
}

int main(void)
{
  char path[64];
  snprintf(path, sizeof path, "/tmp/pp-osp-%ld.osp", (long)getpid());
  setenv("PATHPROF_OSP_FILE", "/dev/null", 1); /* the exit snapshot: nowhere */
  test_rate();
  test_estimates(PATHPROF_OSP_GEOMETRIC, "osp estimates unbiased, geometric lengths");
  test_estimates(PATHPROF_OSP_UNIFORM, "osp estimates unbiased, uniform lengths");
  test_estimates(PATHPROF_OSP_LONG, "osp estimates unbiased, long lengths");
  test_memory(1024);
  test_memory(4096);
  test_memory(32768);
  test_config();
  test_threads();
  test_roundtrip();
  check("osp write_file writes a snapshot", pathprof_osp_write_file(path) == 0 && access(path, R_OK) == 0,
        "no file %s", path);
  unlink(path);
  return failures ? 1 : 0;
}
