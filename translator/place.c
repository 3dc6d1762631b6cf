/* Probe placement: edge weights, a maximum spanning tree, and event-counting increments on chords. */
#include "place.h"
#include <assert.h>
#include <stdlib.h>

/* Edges that carry real control flow in the estimate: the DAG's CFG edges plus cut edges. */
static bool flows(const PPEdge *e) {
  return !e->dead && (e->kind == EK_NORMAL || e->kind == EK_EXIT || e->kind == EK_CUT);
}

/* Kahn order over flowing edges (acyclic: back edges are excluded). */
static int flow_order(const PPGraph *g, const int *start, const int *adj, int *order) {
  int n = (int)g->blocks.n, k = 0;
  int *indeg = pp_xcalloc((size_t)n, sizeof(int));
  for (size_t i = 0; i < g->edges.n; i++)
    if (flows(&g->edges.v[i])) indeg[g->edges.v[i].dst]++;
  order[k++] = PP_ENTRY;
  for (int i = 0; i < k; i++)
    for (int j = start[order[i]]; j < start[order[i] + 1]; j++) {
      const PPEdge *e = &g->edges.v[adj[j]];
      if (flows(e) && --indeg[e->dst] == 0) order[k++] = e->dst;
    }
  free(indeg);
  return k;
}

void pp_place_estimate(PPGraph *g) {
  int n = (int)g->blocks.n, m = (int)g->edges.n, *start, *adj;
  int *order = pp_xmalloc(sizeof(int) * (size_t)n);
  double *f = pp_xcalloc((size_t)n, sizeof(double));
  pp_graph_all_out(g, &start, &adj);
  int *outdeg = pp_xcalloc((size_t)n, sizeof(int));
  for (int i = 0; i < m; i++)
    if (!g->edges.v[i].dead && g->edges.v[i].kind <= EK_CUT) outdeg[g->edges.v[i].src]++;
  int k = flow_order(g, start, adj, order);
  f[PP_ENTRY] = 1;
  for (int i = 0; i < k; i++) {
    int v = order[i];
    if (g->blocks.v[v].header) f[v] *= 10;
    if (f[v] > 1e300) f[v] = 1e300;
    for (int j = start[v]; j < start[v + 1]; j++) {
      PPEdge *e = &g->edges.v[adj[j]];
      if (e->dead || e->kind > EK_CUT) continue;
      e->weight = f[v] / outdeg[v];
      if (flows(e)) f[e->dst] += e->weight;
    }
  }
  /* a dummy carries the flow of the back and cut edges it stands for */
  double *in_w = pp_xcalloc((size_t)n, sizeof(double)), *out_w = pp_xcalloc((size_t)n, sizeof(double));
  for (int i = 0; i < m; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (e->dead || (e->kind != EK_BACK && e->kind != EK_CUT)) continue;
    in_w[e->dst] += e->weight;
    out_w[e->src] += e->weight;
  }
  for (int j = 0; j < m; j++) {
    PPEdge *d = &g->edges.v[j];
    if (d->kind == EK_DUMMY_ENTRY) d->weight = in_w[d->dst];
    if (d->kind == EK_DUMMY_EXIT) d->weight = out_w[d->src];
  }
  free(order); free(f); free(outdeg); free(start); free(adj); free(in_w); free(out_w);
}

static int find(int *uf, int x) {
  while (uf[x] != x) x = uf[x] = uf[uf[x]];
  return x;
}

static const PPGraph *sort_graph;
/* Edges without a place for code first, then heavier first; equal weights keep edge order so
   placement is deterministic. Edges without a place have out-degree one at their source, so
   they form a forest and all fit on the tree. */
static int by_weight(const void *a, const void *b) {
  const PPEdge *x = &sort_graph->edges.v[*(const int *)a], *y = &sort_graph->edges.v[*(const int *)b];
  if (x->no_site != y->no_site) return x->no_site ? -1 : 1;
  if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
  return *(const int *)a - *(const int *)b;
}

/* Kruskal on the undirected DAG with exit-entry forced in; marks tree edges in in_tree[]. */
static void spanning_tree(const PPGraph *g, bool *in_tree) {
  int n = (int)g->blocks.n, m = 0;
  int *uf = pp_xmalloc(sizeof(int) * (size_t)n), *idx = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  for (int v = 0; v < n; v++) uf[v] = v;
  uf[PP_EXIT] = PP_ENTRY;
  for (size_t i = 0; i < g->edges.n; i++)
    if (pp_edge_in_dag(&g->edges.v[i])) idx[m++] = (int)i;
  sort_graph = g;
  qsort(idx, (size_t)m, sizeof(int), by_weight);
  for (int i = 0; i < m; i++) {
    const PPEdge *e = &g->edges.v[idx[i]];
    int a = find(uf, e->src), b = find(uf, e->dst);
    if (a != b) { uf[a] = b; in_tree[idx[i]] = true; }
  }
  free(uf); free(idx);
}

/* Potentials phi over the tree: phi(entry) = phi(exit) = 0 and phi(dst) = phi(src) + val on
   tree edges; then inc = val + phi(src) - phi(dst) is 0 on tree edges and path sums are kept. */
int pp_place_probes(PPGraph *g) {
  int n = (int)g->blocks.n, m = (int)g->edges.n, chords = 0;
  bool *in_tree = pp_xcalloc((size_t)m + 1, sizeof(bool)), *seen = pp_xcalloc((size_t)n, sizeof(bool));
  uint64_t *phi = pp_xcalloc((size_t)n, sizeof(uint64_t));
  int *queue = pp_xmalloc(sizeof(int) * (size_t)n), qn = 0;
  spanning_tree(g, in_tree);
  seen[PP_ENTRY] = seen[PP_EXIT] = true;
  queue[qn++] = PP_ENTRY;
  queue[qn++] = PP_EXIT;
  for (int q = 0; q < qn; q++) {
    int v = queue[q];
    PP_OUT_FOR(g, v, j) {
      const PPEdge *e = &g->edges.v[g->out_edges[j]];
      if (in_tree[g->out_edges[j]] && !seen[e->dst]) {
        phi[e->dst] = phi[v] + e->val; seen[e->dst] = true; queue[qn++] = e->dst;
      }
    }
    PP_IN_FOR(g, v, j) {
      const PPEdge *e = &g->edges.v[g->in_edges[j]];
      if (in_tree[g->in_edges[j]] && !seen[e->src]) {
        phi[e->src] = phi[v] - e->val; seen[e->src] = true; queue[qn++] = e->src;
      }
    }
  }
  for (int i = 0; i < m; i++) {
    PPEdge *e = &g->edges.v[i];
    if (!pp_edge_in_dag(e)) { e->inc = 0; e->chord = false; continue; }
    e->inc = e->val + phi[e->src] - phi[e->dst];
    e->chord = !in_tree[i];
    assert(e->chord || e->inc == 0);
    chords += e->chord;
  }
  free(in_tree); free(seen); free(phi); free(queue);
  return chords;
}

bool *pp_place_zero(const PPGraph *g) {
  int n = (int)g->blocks.n;
  bool *zero = pp_xcalloc((size_t)n, sizeof(bool));
  int *order = pp_xmalloc(sizeof(int) * (size_t)n);
  int k = pp_graph_topo(g, order);
  for (int i = 0; i < k; i++) {
    int v = order[i];
    zero[v] = true;
    if (v == PP_ENTRY) continue;
    PP_IN_FOR(g, v, j) {
      const PPEdge *e = &g->edges.v[g->in_edges[j]];
      if (!zero[e->src] || e->inc != 0) zero[v] = false;
    }
  }
  free(order);
  return zero;
}
