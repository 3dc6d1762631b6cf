/* Probe placement: edge weights, a maximum spanning tree, and event-counting increments on chords. */
#include "place.h"
#include "model/flow.h"
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
  pp_place_dummy_weights(g);
  free(order); free(f); free(outdeg); free(start); free(adj);
}

void pp_place_dummy_weights(PPGraph *g) {
  int n = (int)g->blocks.n, m = (int)g->edges.n;
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
  free(in_w); free(out_w);
}

static int find(int *uf, int x) {
  while (uf[x] != x) x = uf[x] = uf[uf[x]];
  return x;
}

/* The edges one spanning tree is grown over. */
typedef struct { const PPGraph *g; } TreeSet;

static const TreeSet *sort_set;

/* Path mode: a chord on an exit or dummy edge costs nothing, its increment folds into the
   counter update that edge (or the back edge a dummy stands for) makes anyway. */
static bool free_chord(const TreeSet *t, int i) {
  PPEdgeKind k = t->g->edges.v[i].kind;
  return k == EK_EXIT || k == EK_DUMMY_ENTRY || k == EK_DUMMY_EXIT;
}

/* Edges without a place for code first, then quiet ones, free chords last, else heavier first;
   equal weights keep edge order so placement is deterministic. Edges without a place have
   out-degree one at their source, so they form a forest and all fit on the tree; quiet ones
   mostly do. */
static int by_weight(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  const PPEdge *x = &sort_set->g->edges.v[i], *y = &sort_set->g->edges.v[j];
  if (x->no_site != y->no_site) return x->no_site ? -1 : 1;
  if (x->quiet != y->quiet) return x->quiet ? -1 : 1;
  bool fi = free_chord(sort_set, i), fj = free_chord(sort_set, j);
  if (fi != fj) return fi ? 1 : -1;
  if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
  return i - j;
}

/* Live CFG edges: what edge mode counts (back and cut edges included, dummies not). */
static bool cfg_live(const PPEdge *e) { return !e->dead && e->kind <= EK_CUT; }

/* Kruskal over the undirected DAG edges with exit-entry forced in. Marks tree edges in
   in_tree[]. */
static void spanning_tree(const PPGraph *g, bool *in_tree) {
  int n = (int)g->blocks.n, m = 0;
  int *uf = pp_xmalloc(sizeof(int) * (size_t)n), *idx = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  TreeSet set = { g };
  for (int v = 0; v < n; v++) uf[v] = v;
  uf[PP_EXIT] = PP_ENTRY;
  for (size_t i = 0; i < g->edges.n; i++)
    if (pp_edge_in_dag(&g->edges.v[i])) idx[m++] = (int)i;
  sort_set = &set;
  pp_sort(idx, (size_t)m, sizeof(int), by_weight);
  for (int i = 0; i < m; i++) {
    int a = find(uf, g->edges.v[idx[i]].src), b = find(uf, g->edges.v[idx[i]].dst);
    if (a != b) { uf[a] = b; in_tree[idx[i]] = true; }
  }
  sort_set = NULL;
  free(uf); free(idx);
}

/* Edge mode's flow graph (model/flow.h) with what orders its edges for the tree: a rank (0
   edges without a place for code, 1 stop edges, which no code can count, 2 quiet edges, 3 the
   rest, 4 the virtual edge when the entry block's calls may stop: it must be counted, before
   them) and a weight (heavier first within a rank). */
typedef struct { PPFlowGraph fg; int *rank; double *w; } EdgeSet;

static const EdgeSet *edge_set;

static int by_rank(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  if (edge_set->rank[i] != edge_set->rank[j]) return edge_set->rank[i] - edge_set->rank[j];
  if (edge_set->w[i] != edge_set->w[j]) return edge_set->w[i] > edge_set->w[j] ? -1 : 1;
  return i - j;
}

/* Ranks and weights of the flow graph's edges (-1 rank: not in the flow): a return edge weighs
   what its block's entries do. */
static void rank_edges(const PPGraph *g, double calls, const PPStop *stops, const PPSplit *sp, size_t ns, EdgeSet *s) {
  int m = (int)g->edges.n;
  double *into = pp_xcalloc(g->blocks.n + 1, sizeof(double));
  for (int i = 0; i < m; i++)
    if (cfg_live(&g->edges.v[i])) into[g->edges.v[i].dst] += g->edges.v[i].weight;
  into[PP_ENTRY] += calls;
  for (int i = 0; i < s->fg.ne; i++) {
    if (i < m) {
      const PPEdge *e = &g->edges.v[i];
      s->rank[i] = !cfg_live(e) ? -1 : e->no_site ? 0 : e->quiet ? 2 : 3;
      s->w[i] = e->weight;
    } else if (i == m) {  /* off the tree when the entry block has a stop edge: parallel to it */
      s->rank[i] = 3;
      for (size_t k = 0; k < ns; k++) s->rank[i] = stops[sp[k].site].block == PP_ENTRY ? 4 : s->rank[i];
      s->w[i] = calls;
    } else {
      int k = (i - m - 1) / 2;
      bool stop = i == PP_FLOW_STOP(m, k);
      s->rank[i] = stop ? 1 : s->fg.src[i] < 0 ? -1 : 3;
      s->w[i] = into[stops[sp[k].site].block];
    }
  }
  free(into);
}

int pp_place_edges(PPGraph *g, double calls, const PPStop *stops, PPSplit *splits, size_t ns, int *entry_slot) {
  int m = (int)g->edges.n, slots = 0, k = 0;
  EdgeSet s;
  pp_flow_graph(g, stops, splits, ns, &s.fg);
  s.rank = pp_xmalloc(sizeof(int) * (size_t)s.fg.ne);
  s.w = pp_xmalloc(sizeof(double) * (size_t)s.fg.ne);
  rank_edges(g, calls, stops, splits, ns, &s);
  int *idx = pp_xmalloc(sizeof(int) * (size_t)s.fg.ne), *uf = pp_xmalloc(sizeof(int) * (size_t)s.fg.nv);
  bool *in_tree = pp_xcalloc((size_t)s.fg.ne, sizeof(bool));
  for (int i = 0; i < s.fg.ne; i++)
    if (s.rank[i] >= 0) idx[k++] = i;
  for (int v = 0; v < s.fg.nv; v++) uf[v] = v;
  edge_set = &s;
  pp_sort(idx, (size_t)k, sizeof(int), by_rank);
  edge_set = NULL;
  bool placed = true;
  for (int i = 0; i < k; i++) {
    int a = find(uf, s.fg.src[idx[i]]), b = find(uf, s.fg.dst[idx[i]]);
    if (a != b) { uf[a] = b; in_tree[idx[i]] = true; }
    /* a stop edge off the tree would need a count no code can make (edges without a place for
       code tie its vertex to the exit already: a return whose value holds decisions) */
    placed &= in_tree[idx[i]] || s.rank[idx[i]] != 1;
  }
  if (!placed) slots = -1;
  for (int i = 0; i < m && placed; i++) {
    PPEdge *e = &g->edges.v[i];
    e->inc = 0;
    e->chord = s.rank[i] >= 0 && !in_tree[i];
    e->slot = e->chord ? slots++ : -1;
  }
  if (placed) *entry_slot = in_tree[m] ? -1 : slots++;
  for (size_t j = 0; j < ns && placed; j++) {
    int r = PP_FLOW_RET(m, (int)j);
    if (splits[j].slot != PP_SPLIT_LAST) splits[j].slot = in_tree[r] ? -1 : slots++;
  }
  free(in_tree); free(idx); free(uf); free(s.rank); free(s.w);
  pp_flow_graph_free(&s.fg);
  return slots;
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

/* Places probes for the one register: increments on the chords of the usual spanning tree
   whose sums along each path are its combined value; val keeps the Ball-Larus values. */
void pp_ppp_place(PPGraph *g, const PPPNumbering *p, int k) {
  uint64_t *bl = pp_xmalloc(sizeof(uint64_t) * (g->edges.n + 1));
  for (size_t i = 0; i < g->edges.n; i++) {
    bl[i] = g->edges.v[i].val;
    g->edges.v[i].val = pp_ppp_combined(p->w[i], bl[i], k);
  }
  pp_place_probes(g);
  for (size_t i = 0; i < g->edges.n; i++) g->edges.v[i].val = bl[i];
  free(bl);
}
