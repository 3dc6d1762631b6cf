/* Numbering and placement on graphs with known answers: the PPP paper's DAG and random graphs. */
#include "pathcc/dag.h"
#include "model/number.h"
#include "pathcc/place.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(name, cond, ...) do { \
    if (cond) printf("ok %s\n", name); \
    else { failures++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

/* Enumerates every entry->exit DAG path; checks id, increments and decoding for each. */
typedef struct { const PPGraph *g; int path[4096]; int len; uint64_t count; char *seen; int bad; } Walk;

static void check_path(Walk *w) {
  uint64_t id = 0, incsum = 0;
  for (int i = 0; i < w->len; i++) {
    id += w->g->edges.v[w->path[i]].val;
    incsum += w->g->edges.v[w->path[i]].inc;
  }
  w->count++;
  if (id >= w->g->npaths || w->seen[id] || incsum != id) { w->bad++; return; }
  w->seen[id] = 1;
  int dec[4096];
  int k = pp_number_decode(w->g, id, dec, 4096);
  if (k != w->len || memcmp(dec, w->path, sizeof(int) * (size_t)k)) w->bad++;
}

static void walk(Walk *w, int v) {
  if (v == PP_EXIT) { check_path(w); return; }
  PP_OUT_FOR(w->g, v, i) {
    w->path[w->len++] = w->g->out_edges[i];
    walk(w, w->g->edges.v[w->g->out_edges[i]].dst);
    w->len--;
  }
}

static int run_pipeline(PPGraph *g, uint64_t max_paths) {
  const char *why;
  if (pp_dag_build(g, max_paths, &why)) return -1;
  pp_number_paths(g);
  pp_place_estimate(g);
  pp_place_probes(g);
  return 0;
}

static void test_ppp_example(void) {
  PPGraph g;
  pp_graph_init(&g);                     /* s = 0, t = 1 */
  int a = pp_graph_add_block(&g), b = pp_graph_add_block(&g), c = pp_graph_add_block(&g), d = pp_graph_add_block(&g);
  int sa = pp_graph_add_edge(&g, 0, a, EK_NORMAL), sb = pp_graph_add_edge(&g, 0, b, EK_NORMAL);
  int ac = pp_graph_add_edge(&g, a, c, EK_NORMAL), ab = pp_graph_add_edge(&g, a, b, EK_NORMAL);
  int bc = pp_graph_add_edge(&g, b, c, EK_NORMAL), cd = pp_graph_add_edge(&g, c, d, EK_NORMAL);
  int ct = pp_graph_add_edge(&g, c, 1, EK_EXIT), dt = pp_graph_add_edge(&g, d, 1, EK_EXIT);
  run_pipeline(&g, 1ULL << 62);
  PPEdge *e = g.edges.v;
  CHECK("ppp-example: 6 paths", g.npaths == 6, "got %llu", (unsigned long long)g.npaths);
  uint64_t sacdt = e[sa].val + e[ac].val + e[cd].val + e[dt].val;
  uint64_t sact = e[sa].val + e[ac].val + e[ct].val;
  uint64_t sbct = e[sb].val + e[bc].val + e[ct].val;
  CHECK("ppp-example: sacdt = 0", sacdt == 0, "got %llu", (unsigned long long)sacdt);
  CHECK("ppp-example: sact = 1", sact == 1, "got %llu", (unsigned long long)sact);
  CHECK("ppp-example: sbct = 5", sbct == 5, "got %llu", (unsigned long long)sbct);
  (void)ab;
  Walk w = { .g = &g, .seen = calloc(6, 1) };
  walk(&w, PP_ENTRY);
  CHECK("ppp-example: ids distinct, increments sum to ids, decode inverts", w.bad == 0 && w.count == 6,
        "%d bad of %llu", w.bad, (unsigned long long)w.count);
  free(w.seen);
  pp_graph_free(&g);
}

/* A random CFG: a chain through all blocks (so all are reachable) plus random extra edges,
   forward and backward; every block without successors falls to the exit. */
static void random_cfg(PPGraph *g, unsigned *seed, int n, int extra) {
  pp_graph_init(g);
  for (int i = 0; i < n; i++) pp_graph_add_block(g);
  pp_graph_add_edge(g, PP_ENTRY, 2, EK_NORMAL);
  for (int i = 2; i < n + 1; i++) pp_graph_add_edge(g, i, i + 1, EK_NORMAL);
  for (int k = 0; k < extra; k++) {
    int a = 2 + rand_r(seed) % n, b = 2 + rand_r(seed) % n;
    pp_graph_add_edge(g, a, b, EK_NORMAL);
  }
  pp_graph_add_edge(g, n + 1, PP_EXIT, EK_EXIT);
  if (rand_r(seed) % 2) pp_graph_add_edge(g, 2 + rand_r(seed) % n, PP_EXIT, EK_EXIT);
}

static void test_random(int rounds, uint64_t max_paths, const char *name) {
  unsigned seed = 12345;
  int bad = 0, graphs = 0, cut_graphs = 0;
  for (int r = 0; r < rounds; r++) {
    PPGraph g;
    int n = 1 + rand_r(&seed) % (max_paths < 1000000 ? 30 : 12);
    random_cfg(&g, &seed, n, rand_r(&seed) % (3 * n + 1));
    if (run_pipeline(&g, max_paths)) { bad++; pp_graph_free(&g); continue; }
    for (size_t i = 0; i < g.edges.n; i++) cut_graphs += g.edges.v[i].kind == EK_CUT;
    if (g.npaths > max_paths || g.npaths > 200000) { bad += g.npaths > max_paths; pp_graph_free(&g); continue; }
    Walk *w = calloc(1, sizeof *w);
    w->g = &g;
    w->seen = calloc(g.npaths, 1);
    walk(w, PP_ENTRY);
    if (w->bad || w->count != g.npaths) bad++;
    graphs++;
    free(w->seen);
    free(w);
    pp_graph_free(&g);
  }
  CHECK(name, bad == 0 && graphs > rounds / 2, "%d of %d graphs wrong (%d cut edges)", bad, graphs, cut_graphs);
}

/* 100 ifs in a row: 2^100 paths must be cut below the bound and still number exactly. */
static void test_explosion(void) {
  PPGraph g;
  pp_graph_init(&g);
  int prev = PP_ENTRY;
  for (int i = 0; i < 100; i++) {
    int c = pp_graph_add_block(&g), t = pp_graph_add_block(&g), j = pp_graph_add_block(&g);
    pp_graph_add_edge(&g, prev, c, EK_NORMAL);
    pp_graph_add_edge(&g, c, t, EK_NORMAL);
    pp_graph_add_edge(&g, c, j, EK_NORMAL);
    pp_graph_add_edge(&g, t, j, EK_NORMAL);
    prev = j;
  }
  pp_graph_add_edge(&g, prev, PP_EXIT, EK_EXIT);
  run_pipeline(&g, 1ULL << 62);
  int cuts = 0;
  for (size_t i = 0; i < g.edges.n; i++) cuts += g.edges.v[i].kind == EK_CUT;
  CHECK("explosion: 2^100 paths cut to fit 62 bits", g.npaths <= (1ULL << 62) && cuts > 0,
        "npaths %llu, %d cuts", (unsigned long long)g.npaths, cuts);
  /* decode a few ids and re-sum them */
  int ok = 1, dec[4096];
  for (uint64_t id = 0; id < g.npaths; id = id * 3 + 7) {
    int k = pp_number_decode(&g, id, dec, 4096);
    uint64_t s = 0, si = 0;
    for (int i = 0; i < k; i++) { s += g.edges.v[dec[i]].val; si += g.edges.v[dec[i]].inc; }
    if (k < 0 || s != id || si != id) ok = 0;
    if (id > g.npaths / 3) break;
  }
  CHECK("explosion: decoding after cuts is exact", ok, "decode mismatch");
  pp_graph_free(&g);
}

int main(void) {
  test_ppp_example();
  test_random(3000, 1ULL << 62, "random CFGs: every path distinct id, incs sum to id, decode inverts");
  test_random(2000, 4096, "random CFGs cut to at most 4096 paths: still exact");
  test_explosion();
  return failures != 0;
}
