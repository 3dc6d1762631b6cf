/* Preferential path numbering against the paper's worked example and brute force on random DAGs. */
#include "pathcc/dag.h"
#include "model/number.h"
#include "pathcc/place.h"
#include "model/ppp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(name, cond, ...) do { \
    if (cond) printf("ok %s\n", name); \
    else { failures++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

/* Every entry->exit path of a DAG as its edge list, found by depth-first search alone. */
typedef struct { int *edges; int len; } Path;
typedef struct { const PPGraph *g; Path *v; size_t n, cap; int stack[512]; int depth; } Enum;

static void enumerate(Enum *en, int node) {
  if (node == PP_EXIT) {
    if (en->n == en->cap) { en->cap = en->cap ? 2 * en->cap : 64; en->v = realloc(en->v, en->cap * sizeof(Path)); }
    Path p = { malloc(sizeof(int) * (size_t)(en->depth + 1)), en->depth };
    memcpy(p.edges, en->stack, sizeof(int) * (size_t)en->depth);
    en->v[en->n++] = p;
    return;
  }
  PP_OUT_FOR(en->g, node, i) {
    en->stack[en->depth++] = en->g->out_edges[i];
    enumerate(en, en->g->edges.v[en->g->out_edges[i]].dst);
    en->depth--;
  }
}

static void free_enum(Enum *en) {
  for (size_t i = 0; i < en->n; i++) free(en->v[i].edges);
  free(en->v);
}

/* Sums over a path's edges: its Ball-Larus id, its PPP sum, and the register value the placed
   increments leave at its end (mod 2^64, as the instrumented code computes it). */
static uint64_t bl_of(const PPGraph *g, const Path *p) {
  uint64_t s = 0;
  for (int i = 0; i < p->len; i++) s += g->edges.v[p->edges[i]].val;
  return s;
}
static int64_t ppp_of(const PPPNumbering *n, const Path *p) {
  int64_t s = 0;
  for (int i = 0; i < p->len; i++) s += n->w[p->edges[i]];
  return s;
}
static uint64_t reg_of(const PPGraph *g, const Path *p) {
  uint64_t s = 0;
  for (int i = 0; i < p->len; i++) s += g->edges.v[p->edges[i]].inc;
  return s;
}

/* What the instrumented code does where a path ends with register value v: the slot it counts
   in, or -1 for a residual path (then *bl is the Ball-Larus id it is recorded by). The slot
   must be a real one: a match in the table's padding would write outside the counters. */
static int64_t classify(uint64_t v, const uint64_t *expect, uint64_t size, uint64_t slots, int k, uint64_t *bl) {
  uint64_t q = (v >> k) & (size - 1);
  *bl = k ? v & ((1ULL << k) - 1) : 0;
  if (expect[q] != v) return -1;
  return q < slots ? (int64_t)q : -2;
}

static void test_paper_example(void) {
  PPGraph g;
  const char *why;
  pp_graph_init(&g);                     /* s = 0, t = 1; Figure 3 */
  int a = pp_graph_add_block(&g), b = pp_graph_add_block(&g), c = pp_graph_add_block(&g), d = pp_graph_add_block(&g);
  int sa = pp_graph_add_edge(&g, 0, a, EK_NORMAL), sb = pp_graph_add_edge(&g, 0, b, EK_NORMAL);
  int ac = pp_graph_add_edge(&g, a, c, EK_NORMAL), ab = pp_graph_add_edge(&g, a, b, EK_NORMAL);
  int bc = pp_graph_add_edge(&g, b, c, EK_NORMAL), cd = pp_graph_add_edge(&g, c, d, EK_NORMAL);
  int ct = pp_graph_add_edge(&g, c, 1, EK_EXIT), dt = pp_graph_add_edge(&g, d, 1, EK_EXIT);
  pp_dag_build(&g, 1ULL << 62, &why);
  pp_number_paths(&g);
  pp_place_estimate(&g);
  const PPEdge *e = g.edges.v;
  uint64_t sacdt = e[sa].val + e[ac].val + e[cd].val + e[dt].val, sact = e[sa].val + e[ac].val + e[ct].val;
  uint64_t sbct = e[sb].val + e[bc].val + e[ct].val, sabct = e[sa].val + e[ab].val + e[bc].val + e[ct].val;
  uint64_t sbcdt = e[sb].val + e[bc].val + e[cd].val + e[dt].val;
  uint64_t interesting[] = { sacdt, sact, sbct };
  PPPNumbering n;
  int rc = pp_ppp_number(&g, interesting, 3, &n);
  CHECK("ppp-paper: numbered", rc == 0 && n.n == 3, "rc %d, %zu paths", rc, n.n);
  int64_t ids[3] = { pp_ppp_slot(&n, sacdt), pp_ppp_slot(&n, sact), pp_ppp_slot(&n, sbct) };
  CHECK("ppp-paper: sacdt, sact, sbct get PPP ids 0, 1, 2", ids[0] == 0 && ids[1] == 1 && ids[2] == 2,
        "got %lld %lld %lld", (long long)ids[0], (long long)ids[1], (long long)ids[2]);
  CHECK("ppp-paper: lambda = 1", n.slots == 3 && pp_ppp_lambda(&n) == 1.0, "slots %llu", (unsigned long long)n.slots);
  /* Section 3.2's walk-through: W(d,t)=0 W(c,d)=0 W(c,t)=1 W(b,c)=-1 W(a,c)=0 W(s,a)=0 W(s,b)=2 */
  CHECK("ppp-paper: the weights of section 3.2",
        n.w[dt] == 0 && n.w[cd] == 0 && n.w[ct] == 1 && n.w[bc] == -1 && n.w[ac] == 0 && n.w[sa] == 0 && n.w[sb] == 2,
        "dt %lld cd %lld ct %lld bc %lld ac %lld sa %lld sb %lld", (long long)n.w[dt], (long long)n.w[cd],
        (long long)n.w[ct], (long long)n.w[bc], (long long)n.w[ac], (long long)n.w[sa], (long long)n.w[sb]);
  /* section 2.3: sabct aliases sacdt (PPP 0) and sbcdt aliases sact (PPP 1)... with W(a,b) = 0 */
  int64_t alias1 = n.w[sa] + n.w[ab] + n.w[bc] + n.w[ct], alias2 = n.w[sb] + n.w[bc] + n.w[cd] + n.w[dt];
  CHECK("ppp-paper: the uninteresting paths alias interesting PPP ids (the Ball-Larus check is needed)",
        alias1 >= 0 && alias1 < 3 && alias2 >= 0 && alias2 < 3, "sabct %lld, sbcdt %lld", (long long)alias1, (long long)alias2);
  int k = pp_ppp_bits(g.npaths);
  pp_ppp_place(&g, &n, k);
  uint64_t *expect = pp_ppp_expect(&n, k);
  struct { const int *edges; int len; uint64_t bl; int64_t want; const char *name; } paths[] = {
    { (int[]){ sa, ac, cd, dt }, 4, sacdt, 0, "sacdt" }, { (int[]){ sa, ac, ct }, 3, sact, 1, "sact" },
    { (int[]){ sb, bc, ct }, 3, sbct, 2, "sbct" }, { (int[]){ sa, ab, bc, ct }, 4, sabct, -1, "sabct" },
    { (int[]){ sb, bc, cd, dt }, 4, sbcdt, -1, "sbcdt" } };
  int bad = 0;
  char what[256] = "";
  for (int i = 0; i < 5; i++) {
    Path p = { (int *)paths[i].edges, paths[i].len };
    uint64_t bl, v = reg_of(&g, &p);
    int64_t slot = classify(v, expect, pp_ppp_table_size(&n), n.slots, k, &bl);
    if (slot != paths[i].want || (slot < 0 && bl != paths[i].bl)) {
      bad++;
      snprintf(what, sizeof what, "%s: slot %lld, residual id %llu", paths[i].name, (long long)slot, (unsigned long long)bl);
    }
  }
  CHECK("ppp-paper: interesting paths count in their slots, sabct and sbcdt are residual by Ball-Larus id", !bad, "%s", what);
  free(expect);
  pp_ppp_free(&n);
  pp_graph_free(&g);
}

/* A random DAG: nodes 2..n+1 in a chain from the entry to the exit, random forward edges,
   extra exits and a few backward edges (loops, which the DAG builder turns into dummies). */
static void random_dag(PPGraph *g, unsigned *seed, int n) {
  pp_graph_init(g);
  for (int i = 0; i < n; i++) pp_graph_add_block(g);
  pp_graph_add_edge(g, PP_ENTRY, 2, EK_NORMAL);
  for (int i = 2; i < n + 1; i++) pp_graph_add_edge(g, i, i + 1, EK_NORMAL);
  int extra = rand_r(seed) % (2 * n + 1);
  for (int j = 0; j < extra; j++) {
    int x = 2 + rand_r(seed) % n, y = 2 + rand_r(seed) % n;
    if (x == y) continue;
    if (x > y && rand_r(seed) % 4) { int t = x; x = y; y = t; }
    pp_graph_add_edge(g, x, y, EK_NORMAL);
  }
  for (int j = rand_r(seed) % 3; j > 0; j--) pp_graph_add_edge(g, 2 + rand_r(seed) % n, PP_EXIT, EK_EXIT);
  pp_graph_add_edge(g, n + 1, PP_EXIT, EK_EXIT);
}

/* One random graph and interesting set; returns a description of the first property broken. */
static const char *check_random(unsigned *seed, int *tested, double *worst) {
  PPGraph g;
  const char *why, *bad = NULL;
  random_dag(&g, seed, 2 + rand_r(seed) % 14);
  if (pp_dag_build(&g, 1ULL << 62, &why) || pp_number_paths(&g) > 3000) { pp_graph_free(&g); return NULL; }
  pp_place_estimate(&g);
  Enum en = { .g = &g };
  enumerate(&en, PP_ENTRY);
  if (en.n != g.npaths) bad = "brute force found another number of paths";
  /* a random interesting set: each path with probability 1/2, 1/8 or 7/8 */
  int odds = (int[]){ 2, 8, 8 }[rand_r(seed) % 3], keep_most = rand_r(seed) % 2;
  char *is = calloc(en.n + 1, 1);
  uint64_t *ids = malloc(sizeof(uint64_t) * (en.n + 1)), lo = UINT64_MAX, hi = 0;
  size_t ni = 0;
  for (size_t i = 0; i < en.n; i++) {
    int r = rand_r(seed) % odds;
    if (odds == 2 ? r : keep_most ? r != 0 : r == 0) {
      is[i] = 1;
      ids[ni++] = bl_of(&g, &en.v[i]);
      if (ids[ni - 1] < lo) lo = ids[ni - 1];
      if (ids[ni - 1] > hi) hi = ids[ni - 1];
    }
  }
  PPPNumbering n;
  if (!bad && pp_ppp_number(&g, ids, ni, &n)) bad = "numbering failed";
  if (!bad) {
    /* distinct ids, each the sum of its edges' weights, the least one 0 */
    char *used = calloc(n.slots + 1, 1);
    int64_t least = INT64_MAX;
    for (size_t i = 0; i < en.n && !bad; i++) {
      if (!is[i]) continue;
      int64_t id = ppp_of(&n, &en.v[i]);
      if (id < 0 || (uint64_t)id >= n.slots) bad = "an interesting path's id is outside [0, slots)";
      else if (used[id]) bad = "two interesting paths share a PPP id";
      else if (pp_ppp_slot(&n, bl_of(&g, &en.v[i])) != id) bad = "the stored id is not the sum of the weights";
      else used[id] = 1;
      if (id < least) least = id;
    }
    if (!bad && ni && least != 0) bad = "the least id is not 0";
    double lb = ni ? (double)(hi - lo + 1) / (double)ni : 0;
    if (!bad && pp_ppp_lambda(&n) > lb) bad = "lambda is worse than Ball-Larus numbering restricted to the set";
    if (ni && pp_ppp_lambda(&n) > *worst) *worst = pp_ppp_lambda(&n);
    /* run every path through the placed increments and the end-of-path check */
    int k = pp_ppp_bits(g.npaths);
    pp_ppp_place(&g, &n, k);
    uint64_t *expect = pp_ppp_expect(&n, k);
    for (size_t i = 0; i < en.n && !bad; i++) {
      uint64_t bl, v = reg_of(&g, &en.v[i]);
      int64_t slot = classify(v, expect, pp_ppp_table_size(&n), n.slots, k, &bl);
      if (is[i] && slot != ppp_of(&n, &en.v[i])) bad = "an interesting path is not counted in its slot";
      if (!is[i] && slot >= 0) bad = "an uninteresting path is counted as interesting";
      if (!is[i] && bl != bl_of(&g, &en.v[i])) bad = "a residual path is recorded under another Ball-Larus id";
    }
    /* whatever the register holds (longjmp, corruption), no match in the table's padding (a
       function gets a table only when it has slots) */
    uint64_t size = pp_ppp_table_size(&n);
    for (int j = 0; n.slots && j < 200 && !bad; j++) {
      uint64_t bl, v = j < 2 ? (j ? ~0ULL : 0) : ((uint64_t)rand_r(seed) << 33) ^ ((uint64_t)rand_r(seed) << 2) ^ (uint64_t)j;
      if (j >= 100) v = ((uint64_t)(rand_r(seed) % (size + 2)) << k) | (v & ((1ULL << k) - 1));
      if (classify(v, expect, size, n.slots, k, &bl) == -2) bad = "a register value matches the expect table's padding";
    }
    free(expect);
    free(used);
    pp_ppp_free(&n);
  }
  (*tested)++;
  free(is); free(ids);
  free_enum(&en);
  pp_graph_free(&g);
  return bad;
}

static void test_random(int rounds) {
  unsigned seed = 4242;
  int tested = 0, broken = 0;
  const char *first = NULL;
  double worst = 0;
  for (int r = 0; r < rounds; r++) {
    const char *bad = check_random(&seed, &tested, &worst);
    if (bad) { broken++; if (!first) first = bad; }
  }
  printf("# %d random graphs, worst lambda %.2f\n", tested, worst);
  CHECK("ppp-random: distinct ids, lambda <= Ball-Larus on the set, every path counted exactly or residual",
        !broken && tested > rounds / 2, "%d of %d graphs broken, first: %s", broken, tested, first ? first : "-");
}

/* An empty set numbers nothing; ids that are no path are dropped. */
static void test_edges(void) {
  PPGraph g;
  const char *why;
  pp_graph_init(&g);
  int a = pp_graph_add_block(&g);
  pp_graph_add_edge(&g, 0, a, EK_NORMAL);
  pp_graph_add_edge(&g, 0, 1, EK_EXIT);
  pp_graph_add_edge(&g, a, 1, EK_EXIT);
  pp_dag_build(&g, 1ULL << 62, &why);
  pp_number_paths(&g);
  PPPNumbering n;
  uint64_t ids[] = { 7, 1, 1 };
  CHECK("ppp-empty-set", pp_ppp_number(&g, ids, 0, &n) == 0 && n.n == 0 && n.slots == 0, "n %zu", n.n);
  pp_ppp_free(&n);
  CHECK("ppp-foreign-ids", pp_ppp_number(&g, ids, 3, &n) == 0 && n.n == 1 && n.slots == 1 && pp_ppp_slot(&n, 1) == 0,
        "n %zu slots %llu", n.n, (unsigned long long)n.slots);
  pp_ppp_free(&n);
  pp_graph_free(&g);
}

int main(void) {
  test_paper_example();
  test_random(3000);
  test_edges();
  return failures != 0;
}
