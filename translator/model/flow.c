/* Edge mode: every edge's count from the chord counters, by flow conservation. */
#include "flow.h"
#include <assert.h>
#include <stdlib.h>

/* Edges that carry flow in the circulation: live CFG edges (the tables hold live edges only). */
static bool counted(const PPEdge *e) { return e->kind == EK_NORMAL || e->kind == EK_EXIT || e->kind == EK_BACK || e->kind == EK_CUT; }

void pp_flow_graph(const PPGraph *g, const PPStop *stops, const PPSplit *splits, size_t n, PPFlowGraph *fg) {
  int m = (int)g->edges.n, nb = (int)g->blocks.n, *tail = pp_xmalloc(sizeof(int) * ((size_t)nb + 1));
  fg->ne = m + 1 + 2 * (int)n;
  fg->src = pp_xmalloc(sizeof(int) * (size_t)fg->ne);
  fg->dst = pp_xmalloc(sizeof(int) * (size_t)fg->ne);
  fg->nv = nb;
  for (int v = 0; v < nb; v++) tail[v] = v;
  for (size_t k = 0; k < n; k++) {
    int b = stops[splits[k].site].block, s = PP_FLOW_STOP(m, (int)k), r = PP_FLOW_RET(m, (int)k);
    assert(b >= 0 && b < nb);
    fg->src[s] = tail[b];
    fg->dst[s] = PP_EXIT;
    fg->src[r] = fg->dst[r] = -1;
    if (splits[k].slot == PP_SPLIT_LAST) continue;
    fg->src[r] = tail[b];
    fg->dst[r] = tail[b] = fg->nv++;
  }
  for (int i = 0; i < m; i++) {
    fg->src[i] = tail[g->edges.v[i].src];
    fg->dst[i] = g->edges.v[i].dst;
  }
  fg->src[m] = PP_EXIT;
  fg->dst[m] = PP_ENTRY;
  free(tail);
}

void pp_flow_graph_free(PPFlowGraph *fg) { free(fg->src); free(fg->dst); }

typedef struct {
  const PPTabFunc *f;
  int m;              /* CFG edges; index m is the virtual exit->entry edge */
  PPFlowGraph fg;
  const int64_t *stops;  /* per block: activations that stopped there (or NULL) */
  int64_t stopped;    /* their sum: flow that reaches the exit through no edge */
  int64_t *cnt;
  bool *known;
  int *unknown;       /* per vertex: incident edges still unknown */
  int *start, *inc;   /* per vertex: its incident flow edges, inc[start[v] .. start[v + 1]) */
} Flow;

static int src_of(const Flow *w, int i) { return w->fg.src[i]; }
static int dst_of(const Flow *w, int i) { return w->fg.dst[i]; }
static bool in_flow(const Flow *w, int i) { return i < w->m ? counted(&w->f->g.edges.v[i]) : src_of(w, i) >= 0; }
/* A stop edge: the activations that stopped in a split's group, never counted. */
static bool stop_edge(const Flow *w, int i) { return i > w->m && (i - w->m - 1) % 2 == 0; }

/* Incidence lists of the flow edges (self-loops left out: they never balance anything). */
static void incidence(Flow *w, int n) {
  w->start = pp_xcalloc((size_t)n + 2, sizeof(int));
  w->inc = pp_xmalloc(sizeof(int) * (2 * (size_t)w->fg.ne + 2));
  for (int pass = 0; pass < 2; pass++) {
    int *fill = pp_xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < w->fg.ne; i++) {
      if (!in_flow(w, i) || src_of(w, i) == dst_of(w, i)) continue;
      int ends[2] = { src_of(w, i), dst_of(w, i) };
      for (int k = 0; k < 2; k++) {
        if (pass == 0) w->start[ends[k] + 1]++;
        else w->inc[w->start[ends[k]] + fill[ends[k]]++] = i;
      }
    }
    free(fill);
    if (pass == 0)
      for (int v = 0; v < n; v++) w->start[v + 1] += w->start[v];
  }
}

/* Solves the one unknown edge at vertex v from in-flow = out-flow; false if it comes out
   negative (a stop edge may: a dump taken while its activations ran). */
static bool solve_at(Flow *w, int v, int *solved) {
  /* known in-flow minus known out-flow; stops leave v for the exit without an edge */
  int64_t balance = !w->stops ? 0 : v == PP_EXIT ? w->stopped : v < (int)w->f->g.blocks.n ? -w->stops[v] : 0;
  int which = -1;
  for (int k = w->start[v]; k < w->start[v + 1]; k++) {
    int i = w->inc[k];
    if (!w->known[i]) { which = i; continue; }
    balance += dst_of(w, i) == v ? w->cnt[i] : -w->cnt[i];
  }
  assert(which >= 0);
  int64_t c = dst_of(w, which) == v ? -balance : balance;
  bool ok = c >= 0 || stop_edge(w, which);
  w->cnt[which] = ok ? c : 0;
  w->known[which] = true;
  w->unknown[src_of(w, which)]--;
  w->unknown[dst_of(w, which)]--;
  *solved = which;
  return ok;
}

bool pp_flow_edges(const PPTabFunc *f, const unsigned long long *counters, const int64_t *stops, uint64_t *edges,
                   int64_t *split_stops) {
  const PPGraph *g = &f->g;
  int m = (int)g->edges.n, ns = (int)f->splits.n;
  Flow w = { f, m, { 0, 0, NULL, NULL }, stops, 0, NULL, NULL, NULL, NULL, NULL };
  pp_flow_graph(g, f->stops.v, f->splits.v, (size_t)ns, &w.fg);
  int n = w.fg.nv, ne = w.fg.ne, *queue = pp_xmalloc(sizeof(int) * ((size_t)n + 1)), qn = 0;
  w.cnt = pp_xcalloc((size_t)ne, sizeof(int64_t));
  w.known = pp_xcalloc((size_t)ne, sizeof(bool));
  w.unknown = pp_xcalloc((size_t)n, sizeof(int));
  for (int v = 0; stops && v < (int)g->blocks.n; v++) w.stopped += v == PP_EXIT ? 0 : stops[v];
  bool ok = true;
  incidence(&w, n);
  for (int i = 0; i < ne; i++) {
    if (!in_flow(&w, i)) continue;
    int slot = i < m ? g->edges.v[i].slot : i == m ? f->entry_slot : stop_edge(&w, i) ? -1 : f->splits.v[(i - m - 2) / 2].slot;
    if (slot >= 0) {
      unsigned long long c = counters[f->offset + (uint64_t)slot];
      w.cnt[i] = c > INT64_MAX ? INT64_MAX : (int64_t)c;
      w.known[i] = true;
    } else if (src_of(&w, i) != dst_of(&w, i)) {
      w.unknown[src_of(&w, i)]++;
      w.unknown[dst_of(&w, i)]++;
    }
  }
  /* the unknown edges form a tree: peel its leaves */
  for (int v = 0; v < n; v++)
    if (w.unknown[v] == 1) queue[qn++] = v;
  for (int q = 0; q < qn; q++) {
    int v = queue[q], e;
    if (w.unknown[v] != 1) continue;
    ok &= solve_at(&w, v, &e);
    int other = src_of(&w, e) == v ? dst_of(&w, e) : src_of(&w, e);
    if (w.unknown[other] == 1) queue[qn++] = other;  /* each vertex enters once: its count only falls */
    assert(qn <= n);
  }
  for (int i = 0; i < ne; i++) ok &= !in_flow(&w, i) || w.known[i];
  for (int i = 0; i <= m; i++) edges[i] = w.known[i] ? (uint64_t)w.cnt[i] : 0;
  for (int k = 0; split_stops && k < ns; k++) split_stops[k] = w.cnt[PP_FLOW_STOP(m, k)];
  /* dummies carry the back and cut edges they stand for */
  for (int i = 0; i < m; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (e->kind != EK_DUMMY_ENTRY && e->kind != EK_DUMMY_EXIT) continue;
    edges[i] = 0;
    for (int j = 0; j < m; j++) {
      const PPEdge *b = &g->edges.v[j];
      if (b->kind != EK_BACK && b->kind != EK_CUT) continue;
      if (e->kind == EK_DUMMY_ENTRY ? b->dst == e->dst : b->src == e->src) edges[i] = pp_sat_add(edges[i], edges[j]);
    }
  }
  free(w.cnt); free(w.known); free(w.unknown); free(w.start); free(w.inc); free(queue);
  pp_flow_graph_free(&w.fg);
  return ok;
}
