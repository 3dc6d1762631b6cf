/* Ball-Larus path numbering on the DAG, and its inverse: path id -> edge sequence. */
#include "number.h"
#include <assert.h>
#include <stdlib.h>

/* Reverse topological order: an edge's value is the number of paths through the edges
   before it in its source's out-list, so each entry->exit path sums to a distinct id. */
uint64_t pp_number_paths(PPGraph *g) {
  int n = (int)g->blocks.n;
  int *order = pp_xmalloc(sizeof(int) * (size_t)n);
  int k = pp_graph_topo(g, order);
  assert(k > 0 && order[0] == PP_ENTRY);
  free(g->np);
  g->np = pp_xcalloc((size_t)n, sizeof(uint64_t));
  for (int i = k - 1; i >= 0; i--) {
    int v = order[i];
    if (v == PP_EXIT) { g->np[v] = 1; continue; }
    PP_OUT_FOR(g, v, j) {
      PPEdge *e = &g->edges.v[g->out_edges[j]];
      e->val = g->np[v];
      g->np[v] = pp_sat_add(g->np[v], g->np[e->dst]);
    }
  }
  free(order);
  g->npaths = g->np[PP_ENTRY];
  return g->npaths;
}

/* Regeneration: at each node take the last out-edge whose value does not exceed what is
   left of the id; values grow along the out-list, so that edge is unique. */
int pp_number_decode(const PPGraph *g, uint64_t id, int *edges, int cap) {
  if (id >= g->npaths) return -1;
  int v = PP_ENTRY, k = 0;
  while (v != PP_EXIT) {
    int pick = -1;
    PP_OUT_FOR(g, v, j) {
      const PPEdge *e = &g->edges.v[g->out_edges[j]];
      if (e->val <= id) pick = g->out_edges[j];
    }
    if (pick < 0 || k >= cap) return -1;
    id -= g->edges.v[pick].val;
    edges[k++] = pick;
    v = g->edges.v[pick].dst;
  }
  return id == 0 ? k : -1;
}
