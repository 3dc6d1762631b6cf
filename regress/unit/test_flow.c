/* Edge mode and the static estimator on graphs with known answers: chord counters from random
   walks must give back every edge's count by flow conservation; Wu-Larus probabilities and
   loop frequencies on small graphs worked out by hand. */
#include "pathcc/dag.h"
#include "pathcc/estimate.h"
#include "model/flow.h"
#include "model/number.h"
#include "pathcc/place.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(name, cond, ...) do { \
    if (cond) printf("ok %s\n", name); \
    else { failures++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

/* n blocks in a line (entry -> 2 -> ... -> n+1 -> exit) plus random jumps anywhere, some to the
   exit; a walk can always get out along the line. */
static void line_with_jumps(PPGraph *g, unsigned *seed, int n) {
  pp_graph_init(g);
  for (int i = 0; i < n; i++) pp_graph_add_block(g);
  pp_graph_add_edge(g, PP_ENTRY, 2, EK_NORMAL);
  for (int b = 2; b <= n + 1; b++) pp_graph_add_edge(g, b, b < n + 1 ? b + 1 : PP_EXIT, b < n + 1 ? EK_NORMAL : EK_EXIT);
  for (int k = rand_r(seed) % (2 * n + 1); k > 0; k--) {
    int a = 2 + rand_r(seed) % n;
    if (rand_r(seed) % 6) pp_graph_add_edge(g, a, 2 + rand_r(seed) % n, EK_NORMAL);
    else pp_graph_add_edge(g, a, PP_EXIT, EK_EXIT);
  }
}

/* Random stop groups (splits) in random blocks but the entry: 0-2 groups whose returns go on,
   maybe a last one; site k + 1 names group k. */
static void random_splits(PPTabFunc *f, unsigned *seed) {
  PPStop entry = { PP_ENTRY, 0, 0, false };
  VEC_PUSH(f->stops, entry);
  for (size_t b = 2; b < f->g.blocks.n; b++) {
    int groups = rand_r(seed) % 4 == 0 ? rand_r(seed) % 3 : 0;
    bool last = rand_r(seed) % 5 == 0;
    for (int k = 0; k < groups + last; k++) {
      PPStop st = { (int)b, 0, 0, false };
      PPSplit sp = { (int)f->stops.n, k < groups ? 0 : PP_SPLIT_LAST };
      VEC_PUSH(f->stops, st);
      VEC_PUSH(f->splits, sp);
    }
  }
}

/* One activation: random out-edges for a while, then along the line; counts every edge taken,
   and per split its returns (rets) or, once in a while, a stop there that ends the walk. */
static void walk(const PPTabFunc *f, unsigned *seed, uint64_t *taken, uint64_t *rets, int64_t *stops) {
  const PPGraph *g = &f->g;
  int v = PP_ENTRY;
  for (int steps = 0; v != PP_EXIT; steps++) {
    for (size_t k = 0; k < f->splits.n; k++) {
      if (f->stops.v[f->splits.v[k].site].block != v) continue;
      if (rand_r(seed) % 40 == 0) { stops[k]++; return; }
      rets[k]++;
    }
    int outs[64], n = 0, line = -1;
    for (size_t i = 0; i < g->edges.n && n < 64; i++) {
      const PPEdge *e = &g->edges.v[i];
      if (e->src != v || e->dead || e->kind > EK_CUT) continue;
      outs[n++] = (int)i;
      if (e->dst == v + 1 || (e->dst == PP_EXIT && line < 0) || v == PP_ENTRY) line = (int)i;
    }
    int pick = steps < 200 ? outs[rand_r(seed) % n] : line;
    taken[pick]++;
    v = g->edges.v[pick].dst;
  }
}

static void test_flow_random(void) {
  unsigned seed = 777;
  int bad = 0, graphs = 0, counters = 0, edges = 0, split_graphs = 0;
  int64_t stopped = 0;
  for (int r = 0; r < 1500; r++) {
    PPTabFunc f;
    const char *why;
    memset(&f, 0, sizeof f);
    line_with_jumps(&f.g, &seed, 1 + rand_r(&seed) % 25);
    if (pp_dag_build(&f.g, 1ULL << 62, &why)) { bad++; pp_graph_free(&f.g); continue; }
    pp_number_paths(&f.g);
    if (r % 2) pp_estimate_wu_larus(&f.g); else pp_place_estimate(&f.g);
    if (r % 3) random_splits(&f, &seed);
    f.counters = pp_place_edges(&f.g, 1.0, f.stops.v, f.splits.v, f.splits.n, &f.entry_slot);
    size_t m = f.g.edges.n, ns = f.splits.n;
    uint64_t *taken = calloc(m + 1, sizeof(uint64_t)), *got = calloc(m + 1, sizeof(uint64_t));
    uint64_t *rets = calloc(ns + 1, sizeof(uint64_t));
    int64_t *stops = calloc(ns + 1, sizeof(int64_t)), *solved = calloc(ns + 1, sizeof(int64_t));
    unsigned long long *ctr = calloc((size_t)f.counters + 1, sizeof(unsigned long long));
    int calls = 1 + rand_r(&seed) % 20;
    for (int k = 0; k < calls; k++) walk(&f, &seed, taken, rets, stops);
    for (size_t i = 0; i < m; i++)
      if (f.g.edges.v[i].slot >= 0) ctr[f.g.edges.v[i].slot] = taken[i];
    for (size_t k = 0; k < ns; k++)
      if (f.splits.v[k].slot >= 0) ctr[f.splits.v[k].slot] = rets[k];
    if (f.entry_slot >= 0) ctr[f.entry_slot] = (unsigned long long)calls;
    bool ok = f.counters >= 0 && pp_flow_edges(&f, ctr, NULL, got, solved) && got[m] == (uint64_t)calls;
    for (size_t i = 0; i < m; i++) {
      const PPEdge *e = &f.g.edges.v[i];
      if (!e->dead && e->kind <= EK_CUT) { ok &= got[i] == taken[i]; edges++; }
    }
    for (size_t k = 0; k < ns; k++) { ok &= solved[k] == stops[k]; stopped += stops[k]; }
    counters += f.counters;
    bad += !ok;
    graphs++;
    split_graphs += ns > 0;
    free(taken); free(got); free(ctr); free(rets); free(stops); free(solved);
    VEC_FREE(f.stops); VEC_FREE(f.splits);
    pp_graph_free(&f.g);
  }
  CHECK("edge mode: chord counters give every edge's count and every split's stops (1500 random CFGs)", bad == 0,
        "%d of %d graphs wrong", bad, graphs);
  CHECK("edge mode: the random CFGs have splits and stops in them", split_graphs > 500 && stopped > 100,
        "%d graphs with splits, %lld stops", split_graphs, (long long)stopped);
  CHECK("edge mode: fewer counters than edges", counters < edges, "%d counters for %d edges", counters, edges);
}

/* while (c) body;  the loop branch heuristic alone: stays in the loop with 0.88, so the header
   runs 1 / (1 - 0.88) times per entry. */
static void test_while_loop(void) {
  PPGraph g;
  const char *why;
  pp_graph_init(&g);
  int h = pp_graph_add_block(&g), body = pp_graph_add_block(&g), x = pp_graph_add_block(&g);
  pp_graph_add_edge(&g, PP_ENTRY, h, EK_NORMAL);
  int t = pp_graph_add_edge(&g, h, body, EK_NORMAL), f = pp_graph_add_edge(&g, h, x, EK_NORMAL);
  g.edges.v[t].arm = ARM_TRUE;
  g.edges.v[f].arm = ARM_FALSE;
  int back = pp_graph_add_edge(&g, body, h, EK_NORMAL);
  pp_graph_add_edge(&g, x, PP_EXIT, EK_EXIT);
  pp_dag_build(&g, 1ULL << 62, &why);
  pp_number_paths(&g);
  pp_estimate_wu_larus(&g);
  double head = 1 / (1 - 0.88);
  CHECK("wu-larus: a while loop's body runs 0.88/0.12 times per entry",
        fabs(g.edges.v[t].weight - 0.88 * head) < 1e-9 && fabs(g.edges.v[f].weight - 1.0) < 1e-9 &&
        g.edges.v[back].kind == EK_BACK && fabs(g.edges.v[back].weight - 0.88 * head) < 1e-9,
        "body %g, exit %g, back %g", g.edges.v[t].weight, g.edges.v[f].weight, g.edges.v[back].weight);
  pp_graph_free(&g);
}

/* if (p == 0) A; else B; C   with p a pointer: the pointer heuristic (0.6 against equality);
   with a return in A as well, Dempster-Shafer combines 0.4 and 0.28. */
static void test_pointer_and_return(void) {
  for (int with_return = 0; with_return < 2; with_return++) {
    PPGraph g;
    const char *why;
    pp_graph_init(&g);
    int d = pp_graph_add_block(&g), a = pp_graph_add_block(&g), b = pp_graph_add_block(&g), c = pp_graph_add_block(&g);
    pp_graph_add_edge(&g, PP_ENTRY, d, EK_NORMAL);
    int t = pp_graph_add_edge(&g, d, a, EK_NORMAL), f = pp_graph_add_edge(&g, d, b, EK_NORMAL);
    g.edges.v[t].arm = ARM_TRUE;
    g.edges.v[f].arm = ARM_FALSE;
    if (with_return) pp_graph_add_edge(&g, a, PP_EXIT, EK_EXIT);
    else pp_graph_add_edge(&g, a, c, EK_NORMAL);
    pp_graph_add_edge(&g, b, c, EK_NORMAL);
    pp_graph_add_edge(&g, c, PP_EXIT, EK_EXIT);
    g.blocks.v[d].facts.cmp = PP_CMP_EQ;
    g.blocks.v[d].facts.ptr = true;
    g.blocks.v[d].facts.vs_zero = g.blocks.v[d].facts.vs_const = true;
    pp_dag_build(&g, 1ULL << 62, &why);
    pp_number_paths(&g);
    pp_estimate_wu_larus(&g);
    double want = with_return ? 0.4 * 0.28 / (0.4 * 0.28 + 0.6 * 0.72) : 0.4;
    CHECK(with_return ? "wu-larus: pointer and return heuristics combined (Dempster-Shafer)" : "wu-larus: pointer heuristic",
          fabs(g.edges.v[t].weight - want) < 1e-9 && fabs(g.edges.v[f].weight - (1 - want)) < 1e-9,
          "true %g (want %g), false %g", g.edges.v[t].weight, want, g.edges.v[f].weight);
    pp_graph_free(&g);
  }
}

int main(void) {
  test_flow_random();
  test_while_loop();
  test_pointer_and_return();
  return failures ? 1 : 0;
}
