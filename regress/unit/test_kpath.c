/* test_kpath.c: the k-slab forest runtime and the k-IPF join against the thesis's worked example
   and against brute-force n-gram counting of thousands of random streams with markers. */
#include "core/core.h"
#include "profile/profile.h"
#include "model/kipf.h"
#include "check.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSTREAMS 3000
#define MAXLEN 80
#define MAXK 16
#define NTHREADS 4
#define THREAD_FN 900000

static struct __pathprof_unit unit = {0, PATHPROF_UNIT_VERSION, 0x6b70617468746573ULL, "/t/kpath.pp.json", 0, 0, 0, 0, 0};

/* ---- streams: ids and the structure of activations ---- */

/* One event of a program's run: an id ends a path of the running activation, a call starts a
   new activation (the marker *), a return ends the running one. */
enum { EV_ID, EV_CALL, EV_RET };
typedef struct { int kind; unsigned long long id; } Event;
typedef struct { Event v[4 * MAXLEN]; int n; } Run;

/* A random run: nested activations, ids from a small alphabet (so n-grams repeat), now and
   then a 64-bit one. */
static void random_run(Run *r, unsigned *seed)
{
  int depth = 0, len = rand_r(seed) % MAXLEN, alphabet = 1 + rand_r(seed) % 6;
  r->n = 0;
  r->v[r->n++] = (Event){EV_CALL, 0};
  depth = 1;
  for (int i = 0; i < len; i++) {
    int what = rand_r(seed) % 12;
    if (what == 0 && depth < 6) {
      r->v[r->n++] = (Event){EV_CALL, 0};
      depth++;
    } else if (what == 1 && depth > 1) {
      r->v[r->n++] = (Event){EV_RET, 0};
      depth--;
    } else {
      unsigned long long id = (unsigned long long)(rand_r(seed) % alphabet);
      if (rand_r(seed) % 50 == 0) id += 0x123456789abULL << 16;
      r->v[r->n++] = (Event){EV_ID, id};
    }
  }
}

/* Plays a run into the runtime for function fn with k: each call is a fresh activation
   struct (the marker), nested ones interleave as recursion does. Returns the number of ids. */
static unsigned long play(const Run *r, unsigned long fn, unsigned k)
{
  struct __pathprof_ka act[MAXLEN + 2];
  struct __pathprof_kfn *d = malloc(sizeof *d); /* the function's descriptor */
  int top = -1;
  d->unit = &unit;
  d->fn = fn;
  d->km1 = k - 1;
  d->cache = calloc(1, sizeof *d->cache); /* as the rewriter's static pointer: starts empty */
  unsigned long ids = 0;
  for (int i = 0; i < r->n; i++) {
    if (r->v[i].kind == EV_CALL) {
      top++;
      act[top] = (struct __pathprof_ka){d, 0, 0, 0, 0};
    } else if (r->v[i].kind == EV_RET) {
      top--;
    } else {
      __pathprof_kpath_id(&act[top], r->v[i].id);
      ids++;
    }
  }
  free(d->cache);
  free(d);
  return ids;
}

/* ---- brute force: every n-gram (n <= k) of each activation's own id sequence ---- */

typedef struct { char **s; unsigned long long *count; size_t n, cap; } Grams;

/* Adds one occurrence of key. */
static void gram_add(Grams *g, const char *key, unsigned long long count)
{
  if (g->n == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 64;
    g->s = realloc(g->s, g->cap * sizeof *g->s);
    g->count = realloc(g->count, g->cap * sizeof *g->count);
  }
  g->s[g->n] = strdup(key);
  g->count[g->n++] = count;
}

/* Orders indices into the multiset being folded by their keys. */
static char **fold_keys;
static int cmp_idx(const void *a, const void *b)
{
  return strcmp(fold_keys[*(const size_t *)a], fold_keys[*(const size_t *)b]);
}

/* Sorts keys and adds the counts of equal keys, dropping zero counts: a canonical multiset. */
static void gram_fold(Grams *g)
{
  size_t *idx = malloc((g->n + 1) * sizeof *idx), m = 0;
  char **s = malloc((g->n + 1) * sizeof *s);
  unsigned long long *c = malloc((g->n + 1) * sizeof *c);
  for (size_t i = 0; i < g->n; i++)
    idx[i] = i;
  fold_keys = g->s;
  qsort(idx, g->n, sizeof *idx, cmp_idx);
  for (size_t i = 0; i < g->n; i++) {
    char *key = g->s[idx[i]];
    if (m && !strcmp(s[m - 1], key)) {
      c[m - 1] += g->count[idx[i]];
      free(key);
    } else {
      s[m] = key;
      c[m++] = g->count[idx[i]];
    }
  }
  g->n = 0;
  for (size_t i = 0; i < m; i++) {
    if (c[i]) {
      s[g->n] = s[i];
      c[g->n++] = c[i];
    } else
      free(s[i]);
  }
  free(g->s);
  free(g->count);
  free(idx);
  g->s = s;
  g->count = c;
  g->cap = m + 1;
}

static void gram_free(Grams *g)
{
  for (size_t i = 0; i < g->n; i++)
    free(g->s[i]);
  free(g->s);
  free(g->count);
  memset(g, 0, sizeof *g);
}

/* Brute force, written without the forest: replays the run keeping each activation's ids and
   counts every window of n <= k consecutive ids of one activation, times `times`. */
static void brute(const Run *r, unsigned k, unsigned long long times, Grams *g)
{
  static unsigned long long seq[MAXLEN + 2][MAXLEN];
  int len[MAXLEN + 2], top = -1;
  char key[MAXK * 24];
  for (int i = 0; i < r->n; i++) {
    if (r->v[i].kind == EV_CALL) {
      len[++top] = 0;
      continue;
    }
    if (r->v[i].kind == EV_RET) {
      top--;
      continue;
    }
    seq[top][len[top]++] = r->v[i].id;
    for (unsigned n = 1; n <= k && n <= (unsigned)len[top]; n++) { /* windows ending here */
      key[0] = 0;
      for (unsigned j = len[top] - n; j < (unsigned)len[top]; j++)
        sprintf(key + strlen(key), "%s%llu", key[0] ? "," : "", seq[top][j]);
      gram_add(g, key, times);
    }
  }
  gram_fold(g);
}

/* The k-IPF as the same kind of multiset: every node's n-gram and count. */
static void kipf_grams(const PPKipf *t, Grams *g)
{
  uint64_t ids[64];
  char key[64 * 24];
  for (size_t i = 0; i < t->nodes.n; i++) {
    int n = pp_kipf_ngram(t, (int)i, ids, 64);
    key[0] = 0;
    for (int j = 0; j < n; j++)
      sprintf(key + strlen(key), "%s%llu", j ? "," : "", (unsigned long long)ids[j]);
    gram_add(g, key, t->nodes.v[i].count);
  }
  gram_fold(g);
}

/* First difference between two canonical multisets, or "" when equal. */
static const char *gram_diff(const Grams *a, const Grams *b, char *buf, size_t len)
{
  size_t i = 0;
  buf[0] = 0;
  for (; i < a->n && i < b->n; i++)
    if (strcmp(a->s[i], b->s[i]) || a->count[i] != b->count[i]) {
      snprintf(buf, len, "<%s> x%llu against <%s> x%llu", a->s[i], a->count[i], b->s[i], b->count[i]);
      return buf;
    }
  if (a->n != b->n)
    snprintf(buf, len, "%zu n-grams against %zu (first extra: <%s>)", a->n, b->n,
             a->n > b->n ? a->s[i] : b->s[i]);
  return buf;
}

/* ---- getting the forests back: the runtime's own dump, parsed by the profile reader ---- */

struct buf {
  unsigned char *p;
  size_t n, cap;
};

static int buf_write(void *ctx, const void *data, unsigned long len)
{
  struct buf *b = ctx;
  if (b->n + len > b->cap) {
    b->cap = (b->n + len) * 2;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, data, len);
  b->n += len;
  return 0;
}

/* Dumps everything (pathprof_dump) and parses it back. */
static int dump_parse(struct pp_profile *p)
{
  struct buf b = {0, 0, 0};
  char err[256];
  int rc = pathprof_dump(buf_write, &b) == 0 ? pp_profile_parse(b.p, b.n, "dump", p, err, sizeof err) : -1;
  if (rc)
    printf("# dump: %s\n", err);
  free(b.p);
  return rc;
}

static unsigned long long counter_sum(const struct pp_forest *f)
{
  unsigned long long s = 0;
  for (unsigned long long i = 0; i < f->nnodes; i++)
    s += f->nodes[i].count;
  return s;
}

/* ---- the thesis's worked example ---- */

/* Root paths of the forest's nodes, "6,2,0" each, sorted. */
static void forest_paths(const struct pp_forest *f, Grams *g)
{
  unsigned long long path[2 * MAXK];
  char key[2 * MAXK * 24];
  for (unsigned long long i = 0; i < f->nnodes; i++) {
    path[f->nodes[i].depth] = f->nodes[i].label;
    key[0] = 0;
    for (unsigned long long d = 0; d <= f->nodes[i].depth; d++)
      sprintf(key + strlen(key), "%s%llu", d ? "," : "", path[d]);
    gram_add(g, key, 1);
  }
  gram_fold(g);
}

/* The example of the thesis (Figures: k-BLPP example, 4-SF): stream *,6,2,0,0,2,2,0,0,2,2,0,0,2,3. */
static void thesis_example(const struct pp_profile *p, unsigned long fn)
{
  static const char *L[] = { /* Definition of the k-SF, example: the list L, plus the upper slab
                                <2,3> of the last chunk, which the stream algorithm also builds */
    "6,2,0,0,2,2", "0,2,2,0,0,2", "0,0,2,2,0,0", "2,0,0,2,3", "2,3"};
  const struct pp_forest *f = pp_profile_forest(p, unit.checksum, fn);
  Grams want = {0}, got = {0}, ipf = {0};
  char buf[256];
  PPKipf t;
  int roots = 0, ok_level1 = 1;
  unsigned long long c2002 = 0;

  check("thesis forest present", f && f->k == 4 && f->dropped == 0, "no 4-SF for the example");
  if (!f)
    return;
  for (size_t i = 0; i < sizeof L / sizeof *L; i++) { /* prefix closure of L */
    char pre[64];
    for (size_t n = 1; n <= strlen(L[i]); n++)
      if (L[i][n] == ',' || L[i][n] == 0) {
        memcpy(pre, L[i], n);
        pre[n] = 0;
        gram_add(&want, pre, 1);
      }
  }
  for (size_t i = 0; i < want.n; i++)
    want.count[i] = 1;
  gram_fold(&want);
  for (size_t i = 0; i < want.n; i++)
    want.count[i] = 1;
  forest_paths(f, &got);
  for (size_t i = 0; i < got.n; i++)
    got.count[i] = 1;
  check("thesis 4-SF is the prefix forest of L", !*gram_diff(&want, &got, buf, sizeof buf), "%s", buf);
  check("thesis 4-SF counters sum to the stream length", counter_sum(f) == 14, "sum %llu", counter_sum(f));
  pp_kipf_build(f, 4, &t);
  for (int r = t.first_root; r >= 0; r = t.nodes.v[r].sib) {
    unsigned long long want1 = t.nodes.v[r].label == 0 || t.nodes.v[r].label == 2 ? 6 : 1;
    roots++;
    ok_level1 &= t.nodes.v[r].count == want1 && (t.nodes.v[r].label == 0 || t.nodes.v[r].label == 2 ||
                                                  t.nodes.v[r].label == 3 || t.nodes.v[r].label == 6);
  }
  check("thesis 4-IPF has one tree per id 0, 2, 3, 6", roots == 4, "%d trees", roots);
  check("thesis 4-IPF level 1 is the Ball-Larus count", ok_level1, "a root count or label is wrong");
  kipf_grams(&t, &ipf);
  for (size_t i = 0; i < ipf.n; i++)
    if (!strcmp(ipf.s[i], "2,0,0,2"))
      c2002 = ipf.count[i];
  check("thesis <2,0,0,2> has count 3", c2002 == 3, "count %llu", c2002);
  pp_kipf_free(&t);
  gram_free(&want);
  gram_free(&got);
  gram_free(&ipf);
}

/* ---- threads: each has its own forest; the dump holds one record per thread, merged ---- */

static Run thread_run;

static void *thread_main(void *arg)
{
  (void)arg;
  play(&thread_run, THREAD_FN, 3);
  return 0;
}

int main(void)
{
  static Run runs[NSTREAMS];
  static unsigned ks[NSTREAMS];
  static unsigned long nids[NSTREAMS];
  static const Run example = {{{EV_CALL, 0}, {EV_ID, 6}, {EV_ID, 2}, {EV_ID, 0}, {EV_ID, 0}, {EV_ID, 2},
                               {EV_ID, 2}, {EV_ID, 0}, {EV_ID, 0}, {EV_ID, 2}, {EV_ID, 2}, {EV_ID, 0},
                               {EV_ID, 0}, {EV_ID, 2}, {EV_ID, 3}}, 15};
  unsigned seed = 20261122;
  pthread_t th[NTHREADS];
  struct pp_profile p, twice = {0};
  char err[256], buf[512];
  int bad_ipf = 0, bad_sum = 0, bad_sub = 0, bad_trunc = 0;

  play(&example, 0, 4);
  for (int i = 0; i < NSTREAMS; i++) {
    random_run(&runs[i], &seed);
    ks[i] = 2 + (unsigned)(rand_r(&seed) % (MAXK - 1));
    nids[i] = play(&runs[i], 1 + 2 * (unsigned long)i, ks[i]);
    play(&runs[i], 2 + 2 * (unsigned long)i, ks[i] + 1);
  }
  random_run(&thread_run, &seed);
  for (int i = 0; i < NTHREADS; i++)
    pthread_create(&th[i], 0, thread_main, 0);
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(th[i], 0);
  if (dump_parse(&p) != 0) {
    check("dump parses", 0, "see above");
    return 1;
  }
  thesis_example(&p, 0);
  for (int i = 0; i < NSTREAMS; i++) {
    const struct pp_forest *f = pp_profile_forest(&p, unit.checksum, 1 + 2 * (unsigned long)i);
    const struct pp_forest *f1 = pp_profile_forest(&p, unit.checksum, 2 + 2 * (unsigned long)i);
    Grams want = {0}, got = {0}, got1 = {0}, shorter = {0};
    PPKipf t, t1, tn;
    unsigned n = 2 + (unsigned)i % (ks[i] - 1);
    if (!nids[i]) {
      bad_ipf += f != 0;
      continue;
    }
    if (!f || !f1) {
      bad_ipf++;
      continue;
    }
    bad_sum += counter_sum(f) != nids[i] || f->dropped != 0;
    brute(&runs[i], ks[i], 1, &want);
    pp_kipf_build(f, ks[i], &t);
    kipf_grams(&t, &got);
    if (*gram_diff(&want, &got, buf, sizeof buf) && bad_ipf++ == 0)
      printf("# stream %d, k = %u: brute force %s\n", i, ks[i], buf);
    pp_kipf_build(f1, ks[i] + 1, &t1); /* k-IPF contained in the (k+1)-IPF: its nodes of depth < k */
    for (size_t j = 0; j < t1.nodes.n; j++)
      if (t1.nodes.v[j].depth + 1 > ks[i])
        t1.nodes.v[j].count = 0;
    kipf_grams(&t1, &got1);
    bad_sub += *gram_diff(&got, &got1, buf, sizeof buf) != 0;
    brute(&runs[i], n, 1, &shorter); /* a shorter join of the same forest: the n-IPF */
    pp_kipf_build(f, n, &tn);
    gram_free(&got);
    kipf_grams(&tn, &got);
    bad_trunc += *gram_diff(&shorter, &got, buf, sizeof buf) != 0;
    pp_kipf_free(&t);
    pp_kipf_free(&t1);
    pp_kipf_free(&tn);
    gram_free(&want);
    gram_free(&got);
    gram_free(&got1);
    gram_free(&shorter);
  }
  check("random streams: k-IPF equals brute-force n-gram counts (k = 2..16)", !bad_ipf, "%d of %d streams differ",
        bad_ipf, NSTREAMS);
  check("random streams: k-SF counters sum to the stream length", !bad_sum, "%d streams", bad_sum);
  check("random streams: k-IPF is contained in the (k+1)-IPF", !bad_sub, "%d streams", bad_sub);
  check("random streams: a join of depth n < k gives the n-IPF", !bad_trunc, "%d streams", bad_trunc);
  {
    const struct pp_forest *f = pp_profile_forest(&p, unit.checksum, THREAD_FN);
    Grams want = {0}, got = {0};
    PPKipf t;
    brute(&thread_run, 3, NTHREADS, &want);
    if (f)
      pp_kipf_build(f, 3, &t), kipf_grams(&t, &got), pp_kipf_free(&t);
    check("threads: per-thread forests add up to the brute-force counts", f && !*gram_diff(&want, &got, buf, sizeof buf),
          "%s", f ? buf : "no forest");
    gram_free(&want);
    gram_free(&got);
  }
  {
    /* merging a profile with itself doubles every counter and keeps the shape */
    const struct pp_forest *a, *b;
    int same = pp_profile_merge(&twice, &p, err, sizeof err) == 0 && pp_profile_merge(&twice, &p, err, sizeof err) == 0 &&
               twice.nforests == p.nforests;
    for (size_t i = 0; same && i < p.nforests; i++) {
      a = &p.forests[i];
      b = pp_profile_forest(&twice, a->checksum, a->fn);
      same = b && b->nnodes == a->nnodes;
      for (unsigned long long j = 0; same && j < a->nnodes; j++)
        same = b->nodes[j].label == a->nodes[j].label && b->nodes[j].depth == a->nodes[j].depth &&
               b->nodes[j].count == 2 * a->nodes[j].count;
    }
    check("merge: a profile added to itself doubles every forest counter", same, "%s", err);
  }
  {
    /* pathprof_reset zeroes the forests; what runs afterwards is counted alone */
    struct pp_profile q;
    Grams want = {0}, got = {0};
    PPKipf t;
    const struct pp_forest *f;
    pathprof_reset();
    play(&runs[7], 15, ks[7]);
    f = dump_parse(&q) == 0 ? pp_profile_forest(&q, unit.checksum, 15) : 0;
    brute(&runs[7], ks[7], 1, &want);
    if (f)
      pp_kipf_build(f, ks[7], &t), kipf_grams(&t, &got), pp_kipf_free(&t);
    check("reset: counts after pathprof_reset are the new stream's alone", f && !*gram_diff(&want, &got, buf, sizeof buf),
          "%s", f ? buf : "no forest");
    gram_free(&want);
    gram_free(&got);
    pp_profile_free(&q);
  }
  {
    /* a forest record whose depths do not form a preorder is refused, naming the byte */
    static unsigned char rec[] = "PATHPROF\1\0\0\0\0\0\0\0"
                                 "KSLB\3\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\2\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
                                 "\5\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
                                 "\6\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0\2\0\0\0\0\0\0\0";
    struct pp_profile q;
    int rc = pp_profile_parse(rec, sizeof rec - 1, "bad.out", &q, err, sizeof err);
    check("bad forest record refused with its byte offset", rc != 0 && strstr(err, "bad node depth 2 at byte 96"),
          "%s", rc ? err : "accepted");
  }
  pp_profile_free(&twice);
  pp_profile_free(&p);
  return failures ? 1 : 0;
}
