/* MC/DC per decision from the path profile: each executed path passes through a decision's
   conditions in evaluation order, so its blocks give a condition vector with its count. */
#include "mcdc.h"
#include <stdlib.h>
#include <string.h>

/* The position of block b in blocks[from..nb), or -1. */
static int find_block(const int *blocks, int nb, int from, int b) {
  for (int i = from; i < nb; i++)
    if (blocks[i] == b) return i;
  return -1;
}

int pp_mcdc_walk(const PPCond *conds, int n, const int *blocks, int nb, signed char *vals) {
  for (int i = 0; i < n; i++) vals[i] = -1;
  int p = find_block(blocks, nb, 0, conds[0].block);
  if (p < 0) {  /* a path starting inside the decision (after a cut) has one of its later conditions */
    for (int i = 1; i < n; i++)
      if (find_block(blocks, nb, 0, conds[i].block) >= 0) return -2;
    return -1;
  }
  int k = 0;
  for (;;) {
    if (p + 1 >= nb) return -2;
    int next;
    if (blocks[p + 1] == conds[k].t) vals[k] = 1, next = conds[k].next_t;
    else if (blocks[p + 1] == conds[k].f) vals[k] = 0, next = conds[k].next_f;
    else return -2;
    if (next < 0) return next == PP_DEC_TRUE ? 1 : 0;
    k = next;  /* always a later condition (the tables reader checks it) */
    if ((p = find_block(blocks, nb, p + 1, conds[k].block)) < 0) return -2;
  }
}

void pp_mcdc_add_vec(PPMcdcDecision *d, const signed char *vals, int outcome, uint64_t count) {
  int n = d->d->n;
  for (size_t i = 0; i < d->vecs.n; i++)
    if (d->vecs.v[i].outcome == outcome && !memcmp(d->vecs.v[i].vals, vals, (size_t)n)) { d->vecs.v[i].count += count; return; }
  PPMcdcVec v = { pp_xmalloc((size_t)n), outcome, count };
  memcpy(v.vals, vals, (size_t)n);
  VEC_PUSH(d->vecs, v);
}

/* Unique-cause as clang counts it: two vectors with different outcomes whose values differ in
   condition i alone among the conditions both evaluated. */
static bool unique_pair(int n, const PPMcdcVec *a, const PPMcdcVec *b, int *which) {
  int diff = 0;
  if (a->outcome == b->outcome) return false;
  for (int j = 0; j < n; j++)
    if (a->vals[j] >= 0 && b->vals[j] >= 0 && a->vals[j] != b->vals[j]) { diff++; *which = j; }
  return diff == 1;
}

/* The outcomes (bit 1: true, bit 0: false) reachable from condition k when conditions v
   evaluated keep their values and the others may take either; memo caches per condition. */
static int reach(const PPCond *c, const signed char *v, int k, signed char *memo) {
  if (k == PP_DEC_TRUE) return 2;
  if (k == PP_DEC_FALSE) return 1;
  if (memo[k] >= 0) return memo[k];
  int r = 0;
  if (v[k] != 0) r |= reach(c, v, c[k].next_t, memo);
  if (v[k] != 1) r |= reach(c, v, c[k].next_f, memo);
  return memo[k] = (signed char)r;
}

/* Masking: condition i's value in vector v is not masked when flipping it alone, the other
   evaluated conditions kept, can change the outcome for some values of the conditions v did
   not evaluate (GCC's rule: in X && Y a false Y masks X, in X || Y a true Y masks X). */
static bool unmasked(const PPCond *c, int n, const PPMcdcVec *v, int i, signed char *memo) {
  memset(memo, -1, (size_t)n);
  int other = reach(c, v->vals, v->vals[i] ? c[i].next_f : c[i].next_t, memo);
  return (other & (v->outcome ? 1 : 2)) != 0;
}

int pp_mcdc_analyse(const PPCond *conds, int n, const PPMcdcVec *vecs, int nvec, PPMcdcDef def, PPMcdcCond *res) {
  signed char *memo = pp_xmalloc((size_t)n + 1);
  for (int i = 0; i < n; i++) res[i] = (PPMcdcCond){ { false, false }, { false, false }, { -1, -1 } };
  for (int a = 0; a < nvec; a++)
    for (int i = 0; i < n; i++) {
      int v = vecs[a].vals[i];
      if (v < 0) continue;
      res[i].seen[v] = true;
      if (def == PP_MCDC_MASKING && !res[i].shown[v] && unmasked(conds, n, &vecs[a], i, memo)) {
        res[i].shown[v] = true;
        res[i].pair[v] = a;
      }
    }
  for (int a = 0; def == PP_MCDC_UNIQUE && a < nvec; a++)
    for (int b = a + 1; b < nvec; b++) {
      int i;
      if (!unique_pair(n, &vecs[a], &vecs[b], &i) || (res[i].shown[0] && res[i].shown[1])) continue;
      int va = vecs[a].vals[i];
      res[i].shown[0] = res[i].shown[1] = true;
      res[i].pair[va] = a;
      res[i].pair[!va] = b;
    }
  free(memo);
  int covered = 0;
  for (int i = 0; i < n; i++) covered += res[i].shown[0] && res[i].shown[1];
  return covered;
}

/* The vectors of every decision of function fn from its executed paths. */
static void function_decisions(const PPCoverage *c, int fn, PPMcdc *m) {
  const PPCovFunc *cf = &c->funcs.v[fn];
  const PPGraph *g = &cf->f->g;
  size_t first = m->decs.n;
  for (size_t i = 0; i < g->decisions.n; i++) {
    PPMcdcDecision d;
    memset(&d, 0, sizeof d);
    d.func = fn;
    d.d = &g->decisions.v[i];
    d.conds = &g->conds.v[d.d->first];
    VEC_PUSH(m->decs, d);
  }
  int cap = (int)g->blocks.n + 1, *blocks = pp_xmalloc(sizeof(int) * (size_t)cap);
  signed char *vals = pp_xmalloc(g->conds.n + 1);
  for (size_t p = 0; p < cf->view->n; p++) {
    bool from, to;
    int nb = pp_path_blocks(g, cf->view->paths[p].id, blocks, cap, &from, &to);
    for (size_t i = first; nb > 0 && i < m->decs.n; i++) {
      PPMcdcDecision *d = &m->decs.v[i];
      int out = pp_mcdc_walk(d->conds, d->d->n, blocks, nb, vals);
      if (out == -2) d->partial += cf->view->paths[p].count;
      if (out < 0) continue;
      d->evaluations += cf->view->paths[p].count;
      pp_mcdc_add_vec(d, vals, out, cf->view->paths[p].count);
    }
  }
  free(blocks);
  free(vals);
}

static const PPMcdc *sorting;  /* qsort's comparisons need the decisions */

static int by_position(const void *a, const void *b) {
  const PPMcdcDecision *x = &sorting->decs.v[*(const int *)a], *y = &sorting->decs.v[*(const int *)b];
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  if (x->d->line != y->d->line) return x->d->line < y->d->line ? -1 : 1;
  if (x->d->col != y->d->col) return x->d->col < y->d->col ? -1 : 1;
  return *(const int *)a - *(const int *)b;
}

static int by_block(const void *a, const void *b) {
  const PPMcdcWhere *x = a, *y = b;
  if (x->func != y->func) return x->func < y->func ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

/* The decisions by file and position, and the conditions by block. */
static void index_decisions(const PPCoverage *c, PPMcdc *m) {
  size_t nd = 0, nc = 0;
  m->by_file = pp_xmalloc(sizeof(int) * (m->decs.n + 1));
  m->file_start = pp_xcalloc(c->files.n + 2, sizeof(size_t));
  for (size_t i = 0; i < m->decs.n; i++) {
    PPMcdcDecision *d = &m->decs.v[i];
    const PPCovFunc *f = &c->funcs.v[d->func];
    d->file = pp_coverage_file_of(c, f->t->files.v[d->d->file]);
    if (d->file >= 0) { m->by_file[nd++] = (int)i; m->file_start[d->file + 1]++; }
    nc += (size_t)d->d->n;
  }
  for (size_t f = 0; f < c->files.n; f++) m->file_start[f + 1] += m->file_start[f];
  sorting = m;
  qsort(m->by_file, nd, sizeof(int), by_position);
  sorting = NULL;
  m->where = pp_xmalloc(sizeof *m->where * (nc + 1));
  m->nwhere = 0;
  for (size_t i = 0; i < m->decs.n; i++)
    for (int k = 0; k < m->decs.v[i].d->n; k++)
      m->where[m->nwhere++] = (PPMcdcWhere){ m->decs.v[i].func, m->decs.v[i].conds[k].block, (int)i, k };
  qsort(m->where, m->nwhere, sizeof *m->where, by_block);
}

const PPMcdcWhere *pp_mcdc_where(const PPMcdc *m, int func, int block) {
  PPMcdcWhere key = { func, block, 0, 0 };
  return m->nwhere ? bsearch(&key, m->where, m->nwhere, sizeof key, by_block) : NULL;
}

int pp_mcdc_edge_shown(const PPMcdc *m, const PPCoverage *c, int func, int edge) {
  const PPEdge *e = &c->funcs.v[func].f->g.edges.v[edge];
  const PPMcdcWhere *w = pp_mcdc_where(m, func, e->src);
  if (!w) return -1;
  const PPMcdcDecision *d = &m->decs.v[w->dec];
  const PPCond *k = &d->conds[w->k];
  if (e->dst != k->t && e->dst != k->f) return -1;
  return d->res[w->k].shown[e->dst == k->t];
}

bool pp_mcdc_possible(const PPCoverage *c) {
  for (size_t fn = 0; fn < c->funcs.n; fn++)
    if (c->funcs.v[fn].t->conditions && !c->funcs.v[fn].view->edges) return true;
  return false;
}

void pp_mcdc_build(const PPCoverage *c, PPMcdcDef def, PPMcdc *m) {
  memset(m, 0, sizeof *m);
  m->def = def;
  for (size_t fn = 0; fn < c->funcs.n; fn++) {
    const PPCovFunc *cf = &c->funcs.v[fn];
    if (!cf->t->conditions) { VEC_PUSH(m->no_decisions, (int)fn); continue; }
    if (cf->view->edges) { VEC_PUSH(m->edge_mode, (int)fn); continue; }
    function_decisions(c, (int)fn, m);
  }
  for (size_t i = 0; i < m->decs.n; i++) {
    PPMcdcDecision *d = &m->decs.v[i];
    d->res = pp_xcalloc((size_t)d->d->n, sizeof *d->res);
    d->covered = pp_mcdc_analyse(d->conds, d->d->n, d->vecs.v, (int)d->vecs.n, def, d->res);
  }
  index_decisions(c, m);
}

void pp_mcdc_free(PPMcdc *m) {
  for (size_t i = 0; i < m->decs.n; i++) {
    for (size_t k = 0; k < m->decs.v[i].vecs.n; k++) free(m->decs.v[i].vecs.v[k].vals);
    VEC_FREE(m->decs.v[i].vecs);
    free(m->decs.v[i].res);
  }
  VEC_FREE(m->decs);
  VEC_FREE(m->no_decisions);
  VEC_FREE(m->edge_mode);
  free(m->by_file);
  free(m->file_start);
  free(m->where);
}
