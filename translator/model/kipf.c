/* k-slab forest (as dumped by the runtime) -> k-iteration path forest, by the thesis's join. */
#include "kipf.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The k-SF in preorder with, for each node, the index just past its subtree. */
typedef struct {
  const struct pp_knode *v;
  size_t n;
  size_t *end;
} Ksf;

/* end[i] for every node: the first later node that is not below it. */
static size_t *subtree_ends(const struct pp_knode *v, size_t n) {
  size_t *end = pp_xmalloc(sizeof *end * (n + 1)), *stack = pp_xmalloc(sizeof *stack * (n + 1)), top = 0;
  for (size_t i = 0; i < n; i++) {
    while (top > 0 && v[stack[top - 1]].depth >= v[i].depth) end[stack[--top]] = i;
    stack[top++] = i;
  }
  while (top > 0) end[stack[--top]] = n;
  free(stack);
  return end;
}

/* A new k-IPF node under parent (-1: a root, linked by the caller). */
static int add_node(PPKipf *t, int parent, uint64_t label, uint64_t count, unsigned depth) {
  PPKNode n = { label, count, parent, -1, -1, depth };
  VEC_PUSH(t->nodes, n);
  int i = (int)t->nodes.n - 1;
  if (parent >= 0) {
    t->nodes.v[i].sib = t->nodes.v[parent].child;
    t->nodes.v[parent].child = i;
  }
  return i;
}

/* join_subtree(rho, gamma, d) below an existing k-IPF node gamma: the child of gamma labelled
   like rho gets rho's counter (made if missing), and rho's children join below it while d > 1. */
static void join_subtree(PPKipf *t, const Ksf *f, size_t rho, int gamma, unsigned d) {
  int delta = t->nodes.v[gamma].child;
  while (delta >= 0 && t->nodes.v[delta].label != f->v[rho].label) delta = t->nodes.v[delta].sib;
  if (delta < 0) delta = add_node(t, gamma, f->v[rho].label, 0, t->nodes.v[gamma].depth + 1);
  t->nodes.v[delta].count = pp_sat_add(t->nodes.v[delta].count, f->v[rho].count);
  if (d > 1)
    for (size_t s = rho + 1; s < f->end[rho]; s = f->end[s]) join_subtree(t, f, s, delta, d - 1);
}

/* Orders k-SF node indices by label, then position, for grouping the nodes of each id. */
static const struct pp_knode *sort_base;
static int by_label(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  if (sort_base[x].label != sort_base[y].label) return sort_base[x].label < sort_base[y].label ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* make_k_ipf: I = the distinct ids of the k-SF, s(r) = its nodes labelled r; each s(r) is
   joined below one root r of the k-IPF (the dummy root phi is implicit: the roots are the
   distinct ids, made in increasing order). */
void pp_kipf_build(const struct pp_forest *ksf, unsigned k, PPKipf *out) {
  size_t n = (size_t)ksf->nnodes;
  Ksf f = { ksf->nodes, n, subtree_ends(ksf->nodes, n) };
  size_t *order = pp_xmalloc(sizeof *order * (n + 1));
  int last_root = -1;
  assert(k >= 1);
  memset(out, 0, sizeof *out);
  out->first_root = -1;
  out->k = k;
  for (size_t i = 0; i < n; i++) order[i] = i;
  sort_base = ksf->nodes;
  pp_sort(order, n, sizeof *order, by_label);
  for (size_t i = 0; i < n; i++) {
    const struct pp_knode *rho = &ksf->nodes[order[i]];
    if (last_root < 0 || out->nodes.v[last_root].label != rho->label) {
      int r = add_node(out, -1, rho->label, 0, 0);
      if (last_root < 0) out->first_root = r;
      else out->nodes.v[last_root].sib = r;
      last_root = r;
    }
    out->nodes.v[last_root].count = pp_sat_add(out->nodes.v[last_root].count, rho->count);
    if (k > 1)
      for (size_t s = order[i] + 1; s < f.end[order[i]]; s = f.end[s]) join_subtree(out, &f, s, last_root, k - 1);
  }
  free(order);
  free(f.end);
}

void pp_kipf_free(PPKipf *t) {
  VEC_FREE(t->nodes);
  t->first_root = -1;
}

/* Orders node indices hottest first, ties by index, for qsort (the forest is rank_tree). */
static const PPKipf *rank_tree;
static int hotter_node(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  uint64_t cx = rank_tree->nodes.v[x].count, cy = rank_tree->nodes.v[y].count;
  if (cx != cy) return cx > cy ? -1 : 1;
  return x - y;
}

int *pp_kipf_ranked(const PPKipf *t, int first, int depth, size_t *n) {
  VEC(int) v = {0};
  if (depth < 0) {
    for (int x = first; x >= 0; x = t->nodes.v[x].sib)
      if (t->nodes.v[x].count) VEC_PUSH(v, x);
  } else {
    for (size_t x = 0; x < t->nodes.n; x++)
      if (t->nodes.v[x].count && t->nodes.v[x].depth == (unsigned)depth) VEC_PUSH(v, (int)x);
  }
  rank_tree = t;
  pp_sort(v.v, v.n, sizeof *v.v, hotter_node);
  *n = v.n;
  return v.v ? v.v : pp_xmalloc(sizeof(int));
}

int pp_kipf_ngram(const PPKipf *t, int i, uint64_t *ids, int cap) {
  int n = (int)t->nodes.v[i].depth + 1;
  assert(n <= cap);
  for (int j = n - 1; j >= 0; j--, i = t->nodes.v[i].parent) ids[j] = t->nodes.v[i].label;
  return n;
}
