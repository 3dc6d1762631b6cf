/* The CFG/DAG model: construction, the DAG adjacency index and topological order. */
#include "graph.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

void pp_graph_init(PPGraph *g) {
  memset(g, 0, sizeof *g);
  pp_graph_add_block(g);
  pp_graph_add_block(g);
}

void pp_graph_free(PPGraph *g) {
  for (size_t i = 0; i < g->blocks.n; i++) {
    VEC_FREE(g->blocks.v[i].lines);
    VEC_FREE(g->blocks.v[i].stmts);
    free(g->blocks.v[i].label);
  }
  VEC_FREE(g->blocks);
  VEC_FREE(g->edges);
  VEC_FREE(g->conds);
  VEC_FREE(g->decisions);
  free(g->out_start); free(g->out_edges); free(g->in_start); free(g->in_edges); free(g->np);
  memset(g, 0, sizeof *g);
}

int pp_graph_add_block(PPGraph *g) {
  PPBlock b;
  memset(&b, 0, sizeof b);
  b.head = b.tail = -1;
  VEC_PUSH(g->blocks, b);
  return (int)g->blocks.n - 1;
}

int pp_graph_add_edge(PPGraph *g, int src, int dst, PPEdgeKind kind) {
  PPEdge e;
  memset(&e, 0, sizeof e);
  e.src = src; e.dst = dst; e.kind = kind; e.site = -1; e.arm = -1; e.slot = -1;
  VEC_PUSH(g->edges, e);
  return (int)g->edges.n - 1;
}

/* Adjacent or overlapping ranges of one file merge, so a block lists each line once. */
void pp_block_add_lines(PPGraph *g, int b, int file, unsigned first, unsigned last) {
  PPBlock *bl = &g->blocks.v[b];
  if (last < first) last = first;
  if (bl->lines.n) {
    PPLines *l = &bl->lines.v[bl->lines.n - 1];
    if (l->file == file && first <= l->last + 1 && last + 1 >= l->first) {
      if (first < l->first) l->first = first;
      if (last > l->last) l->last = last;
      return;
    }
  }
  PPLines l = { file, first, last };
  VEC_PUSH(bl->lines, l);
}

const PPEdge *pp_graph_dummy(const PPGraph *g, int src, int dst, PPEdgeKind k) {
  assert(k == EK_DUMMY_ENTRY || k == EK_DUMMY_EXIT);
  for (size_t i = 0; i < g->edges.n; i++)
    if (g->edges.v[i].kind == k && g->edges.v[i].src == src && g->edges.v[i].dst == dst) return &g->edges.v[i];
  assert(!"missing dummy edge");
  return NULL;
}

bool pp_edge_in_dag(const PPEdge *e) {
  return !e->dead && e->kind != EK_BACK && e->kind != EK_CUT;
}

static void all_edges(const PPGraph *g, bool by_dst, int **startp, int **adjp) {
  int n = (int)g->blocks.n, m = (int)g->edges.n;
  int *start = pp_xcalloc((size_t)n + 1, sizeof(int)), *adj = pp_xmalloc(sizeof(int) * (size_t)(m + 1));
  int *pos = pp_xmalloc(sizeof(int) * (size_t)n);
#define END(i) (by_dst ? g->edges.v[i].dst : g->edges.v[i].src)
  for (int i = 0; i < m; i++) start[END(i) + 1]++;
  for (int v = 0; v < n; v++) start[v + 1] += start[v];
  memcpy(pos, start, sizeof(int) * (size_t)n);
  for (int i = 0; i < m; i++) adj[pos[END(i)]++] = i;
#undef END
  free(pos);
  *startp = start;
  *adjp = adj;
}

void pp_graph_all_out(const PPGraph *g, int **startp, int **adjp) { all_edges(g, false, startp, adjp); }
void pp_graph_all_in(const PPGraph *g, int **startp, int **adjp) { all_edges(g, true, startp, adjp); }

/* Counting-sort the DAG edges by source and by target, keeping id order within a node. */
void pp_graph_index(PPGraph *g) {
  int n = (int)g->blocks.n, m = (int)g->edges.n;
  free(g->out_start); free(g->out_edges); free(g->in_start); free(g->in_edges);
  g->out_start = pp_xcalloc((size_t)n + 1, sizeof(int));
  g->in_start = pp_xcalloc((size_t)n + 1, sizeof(int));
  g->out_edges = pp_xmalloc(sizeof(int) * (size_t)(m ? m : 1));
  g->in_edges = pp_xmalloc(sizeof(int) * (size_t)(m ? m : 1));
  for (int i = 0; i < m; i++)
    if (pp_edge_in_dag(&g->edges.v[i])) {
      g->out_start[g->edges.v[i].src + 1]++;
      g->in_start[g->edges.v[i].dst + 1]++;
    }
  for (int v = 0; v < n; v++) {
    g->out_start[v + 1] += g->out_start[v];
    g->in_start[v + 1] += g->in_start[v];
  }
  int *po = pp_xmalloc(sizeof(int) * (size_t)n), *pi = pp_xmalloc(sizeof(int) * (size_t)n);
  memcpy(po, g->out_start, sizeof(int) * (size_t)n);
  memcpy(pi, g->in_start, sizeof(int) * (size_t)n);
  for (int i = 0; i < m; i++)
    if (pp_edge_in_dag(&g->edges.v[i])) {
      g->out_edges[po[g->edges.v[i].src]++] = i;
      g->in_edges[pi[g->edges.v[i].dst]++] = i;
    }
  free(po);
  free(pi);
}

/* Kahn's algorithm over live nodes; the entry comes first, the exit last. */
int pp_graph_topo(const PPGraph *g, int *order) {
  int n = (int)g->blocks.n, k = 0, live = 0;
  int *indeg = pp_xcalloc((size_t)n, sizeof(int));
  for (int v = 0; v < n; v++) {
    if (!g->blocks.v[v].live) continue;
    live++;
    indeg[v] = g->in_start[v + 1] - g->in_start[v];
    if (indeg[v] == 0) order[k++] = v;
  }
  for (int i = 0; i < k; i++)
    PP_OUT_FOR(g, order[i], j) {
      int w = g->edges.v[g->out_edges[j]].dst;
      if (--indeg[w] == 0) order[k++] = w;
    }
  free(indeg);
  return k == live ? k : -1;
}

static const char *kind_names[] = { "normal", "exit", "back", "cut", "dummy-entry", "dummy-exit" };

const char *pp_edge_kind_name(PPEdgeKind k) { return kind_names[k]; }

int pp_edge_kind_parse(const char *s) {
  for (int i = 0; i < 6; i++)
    if (!strcmp(s, kind_names[i])) return i;
  return -1;
}
