/* CFG -> DAG: reachability, back edges found by DFS, dummy edges, cuts that bound the path count. */
#include "dag.h"
#include <stdlib.h>
#include <string.h>

/* Marks blocks reachable from the entry over CFG edges; edges out of dead blocks die too. */
static void mark_live(PPGraph *g) {
  int n = (int)g->blocks.n, top = 0;
  int *stack = pp_xmalloc(sizeof(int) * (size_t)n);
  for (int v = 0; v < n; v++) g->blocks.v[v].live = false;
  g->blocks.v[PP_ENTRY].live = true;
  stack[top++] = PP_ENTRY;
  int m = (int)g->edges.n, *start, *adj;
  pp_graph_all_out(g, &start, &adj);
  while (top) {
    int v = stack[--top];
    for (int i = start[v]; i < start[v + 1]; i++) {
      int w = g->edges.v[adj[i]].dst;
      if (!g->blocks.v[w].live) { g->blocks.v[w].live = true; stack[top++] = w; }
    }
  }
  for (int i = 0; i < m; i++) g->edges.v[i].dead = !g->blocks.v[g->edges.v[i].src].live;
  g->blocks.v[PP_EXIT].live = true;
  free(stack); free(start); free(adj);
}

/* Iterative DFS in edge order; an edge to a node still on the stack retreats. */
static void dfs(PPGraph *g, int root, char *state, int *node, int *next) {
  int top = 1;
  node[0] = root; next[0] = g->out_start[root]; state[root] = 1;
  while (top) {
    int v = node[top - 1];
    if (next[top - 1] == g->out_start[v + 1]) { state[v] = 2; top--; continue; }
    int e = g->out_edges[next[top - 1]++];
    int w = g->edges.v[e].dst;
    if (state[w] == 1) g->edges.v[e].kind = EK_BACK;
    else if (state[w] == 0) { state[w] = 1; node[top] = w; next[top] = g->out_start[w]; top++; }
  }
}

/* From the entry first; then from the targets of edges cut beforehand (goto *p's hub), whose
   region the entry's search cannot reach, so its loops get back edges too. */
static void mark_back_edges(PPGraph *g) {
  int n = (int)g->blocks.n;
  pp_graph_index(g);
  char *state = pp_xcalloc((size_t)n, 1);        /* 0 new, 1 on stack, 2 done */
  int *node = pp_xmalloc(sizeof(int) * (size_t)n), *next = pp_xmalloc(sizeof(int) * (size_t)n);
  dfs(g, PP_ENTRY, state, node, next);
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (e->kind == EK_CUT && !e->dead && !state[e->dst]) dfs(g, e->dst, state, node, next);
  }
  free(state); free(node); free(next);
}

/* Adds the dummy edge kind from src to dst unless it exists already (one per header/latch). */
static void ensure_dummy(PPGraph *g, int src, int dst, PPEdgeKind kind) {
  for (size_t i = 0; i < g->edges.n; i++)
    if (g->edges.v[i].kind == kind && g->edges.v[i].src == src && g->edges.v[i].dst == dst) return;
  pp_graph_add_edge(g, src, dst, kind);
}

/* Every back or cut edge u->v is replaced by entry->v and u->exit. */
static void add_dummies(PPGraph *g) {
  size_t m = g->edges.n;
  for (size_t i = 0; i < m; i++) {
    PPEdge e = g->edges.v[i];
    if (e.dead || (e.kind != EK_BACK && e.kind != EK_CUT)) continue;
    if (e.kind == EK_BACK) g->blocks.v[e.dst].header = true;
    ensure_dummy(g, PP_ENTRY, e.dst, EK_DUMMY_ENTRY);
    ensure_dummy(g, e.src, PP_EXIT, EK_DUMMY_EXIT);
  }
}

/* A node can be cut only if all its outgoing edges can carry a path end: dispatch edges put
   their code at the case label, which fall-through also executes, so switch heads stay. */
static bool cuttable(const PPGraph *g, int v) {
  if (v == PP_ENTRY) return false;
  PP_OUT_FOR(g, v, i) if (g->edges.v[g->out_edges[i]].dispatch) return false;
  return true;
}

/* In reverse topological order, cut every non-exit outgoing edge of a node whose path count
   exceeds t; afterwards every node but the entry and switch heads has at most t paths. */
static bool cut_pass(PPGraph *g, uint64_t t) {
  int n = (int)g->blocks.n;
  int *order = pp_xmalloc(sizeof(int) * (size_t)n);
  uint64_t *np = pp_xcalloc((size_t)n, sizeof(uint64_t));
  int k = pp_graph_topo(g, order);
  bool changed = false;
  for (int i = k - 1; i >= 0; i--) {
    int v = order[i];
    if (v == PP_EXIT) { np[v] = 1; continue; }
    PP_OUT_FOR(g, v, j) np[v] = pp_sat_add(np[v], np[g->edges.v[g->out_edges[j]].dst]);
    if (np[v] <= t || !cuttable(g, v)) continue;
    np[v] = 1; /* the dummy edge to the exit */
    PP_OUT_FOR(g, v, j) {
      PPEdge *e = &g->edges.v[g->out_edges[j]];
      if (e->dst != PP_EXIT) { e->kind = EK_CUT; changed = true; }
      else np[v]++;
    }
  }
  free(order);
  free(np);
  return changed;
}

int pp_dag_build(PPGraph *g, uint64_t max_paths, const char **why) {
  mark_live(g);
  mark_back_edges(g);
  add_dummies(g);
  pp_graph_index(g);
  int *order = pp_xmalloc(sizeof(int) * g->blocks.n);
  int acyclic = pp_graph_topo(g, order);
  free(order);
  if (acyclic < 0) { *why = "internal error: a cycle without a back edge"; return -1; }
  size_t dag_edges = 0;
  for (size_t i = 0; i < g->edges.n; i++) dag_edges += pp_edge_in_dag(&g->edges.v[i]);
  uint64_t t = max_paths / (2 * (uint64_t)dag_edges + 4);
  if (t < 2) t = 2;
  if (cut_pass(g, t)) {
    add_dummies(g);
    pp_graph_index(g);
  }
  *why = NULL;
  return 0;
}
