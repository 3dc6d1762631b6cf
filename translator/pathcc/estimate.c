/* Static edge-frequency estimate after Wu and Larus (1994): branch heuristics combined with
   Dempster-Shafer, block frequencies propagated through loops inner to outer. */
#include "estimate.h"
#include "place.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Probability that the branch the heuristic favours is taken (Wu-Larus, Table 2). */
#define P_LOOP_BRANCH 0.88
#define P_POINTER 0.60
#define P_OPCODE 0.84
#define P_CALL 0.78
#define P_RETURN 0.72
#define P_STORE 0.55
#define P_GUARD 0.62
#define MAX_CYCLIC 0.999   /* a loop's back-edge probability is capped below 1 */
#define REGION 16          /* blocks of straight-line code looked at after a branch */

typedef struct {
  PPGraph *g;
  int n, m;
  int *ostart, *oadj, *istart, *iadj;   /* flowing edges by source and by destination */
  int *ipdom;                           /* immediate postdominator, -1 none */
  int nloops, *heads;                   /* loop headers, inner loops first */
  char *member;                         /* member[l * n + v]: v is in loop l */
  int *inner;                           /* innermost loop of each block, -1 none */
  double *prob, *bfreq, *efreq, *cyclic;
} Est;

/* Edges control runs along: live CFG edges (back and cut included; dummies stand for them). */
static bool flowing(const PPEdge *e) { return !e->dead && e->kind <= EK_CUT; }

/* CSR adjacency of the flowing edges, by source (out) and by destination (in). */
static void adjacency(Est *s) {
  s->ostart = pp_xcalloc((size_t)s->n + 1, sizeof(int));
  s->istart = pp_xcalloc((size_t)s->n + 1, sizeof(int));
  s->oadj = pp_xmalloc(sizeof(int) * ((size_t)s->m + 1));
  s->iadj = pp_xmalloc(sizeof(int) * ((size_t)s->m + 1));
  for (int i = 0; i < s->m; i++)
    if (flowing(&s->g->edges.v[i])) { s->ostart[s->g->edges.v[i].src + 1]++; s->istart[s->g->edges.v[i].dst + 1]++; }
  for (int v = 0; v < s->n; v++) { s->ostart[v + 1] += s->ostart[v]; s->istart[v + 1] += s->istart[v]; }
  int *of = pp_xcalloc((size_t)s->n, sizeof(int)), *inf = pp_xcalloc((size_t)s->n, sizeof(int));
  for (int i = 0; i < s->m; i++) {
    const PPEdge *e = &s->g->edges.v[i];
    if (!flowing(e)) continue;
    s->oadj[s->ostart[e->src] + of[e->src]++] = i;
    s->iadj[s->istart[e->dst] + inf[e->dst]++] = i;
  }
  free(of); free(inf);
}

#define OUT_FOR(s, v, k) for (int k = (s)->ostart[v]; k < (s)->ostart[(v) + 1]; k++)
#define IN_FOR(s, v, k) for (int k = (s)->istart[v]; k < (s)->istart[(v) + 1]; k++)

/* ---- postdominators (Cooper, Harvey and Kennedy, on the reversed CFG) ---- */

static int meet(const int *ipdom, const int *rank, int a, int b) {
  while (a != b) {
    while (rank[a] < rank[b]) a = ipdom[a];  /* postorder: the exit ranks highest */
    while (rank[b] < rank[a]) b = ipdom[b];
  }
  return a;
}

static void postdominators(Est *s) {
  int n = s->n, *order = pp_xmalloc(sizeof(int) * (size_t)n), *rank = pp_xmalloc(sizeof(int) * (size_t)n), k = 0;
  int *stack = pp_xmalloc(sizeof(int) * (size_t)n * 2 + 2), top = 0;
  char *seen = pp_xcalloc((size_t)n, 1);
  s->ipdom = pp_xmalloc(sizeof(int) * (size_t)n);
  for (int v = 0; v < n; v++) { s->ipdom[v] = -1; rank[v] = -1; }
  /* postorder of a DFS from the exit over reversed edges; rank = position in it */
  stack[top++] = PP_EXIT;
  stack[top++] = s->istart[PP_EXIT];
  seen[PP_EXIT] = 1;
  while (top) {
    int v = stack[top - 2], *next = &stack[top - 1];
    if (*next < s->istart[v + 1]) {
      int w = s->g->edges.v[s->iadj[(*next)++]].src;
      if (!seen[w]) { seen[w] = 1; stack[top++] = w; stack[top++] = s->istart[w]; }
    } else { rank[v] = k; order[k++] = v; top -= 2; }
  }
  s->ipdom[PP_EXIT] = PP_EXIT;
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = k - 1; i >= 0; i--) {  /* reverse postorder */
      int v = order[i], d = -1;
      if (v == PP_EXIT) continue;
      OUT_FOR(s, v, j) {
        int w = s->g->edges.v[s->oadj[j]].dst;
        if (rank[w] < 0 || s->ipdom[w] < 0) continue;
        d = d < 0 ? w : meet(s->ipdom, rank, d, w);
      }
      if (d != s->ipdom[v]) { s->ipdom[v] = d; changed = true; }
    }
  }
  s->ipdom[PP_EXIT] = -1;
  free(order); free(rank); free(stack); free(seen);
}

/* Does block p postdominate block b (every way from b to the exit passes p)? */
static bool postdominates(const Est *s, int p, int b) {
  for (int x = b, guard = 0; x >= 0 && guard <= s->n; x = s->ipdom[x], guard++)
    if (x == p) return true;
  return false;
}

/* ---- natural loops ---- */

static const Est *size_est;
static int by_size(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b, nx = 0, ny = 0;
  for (int v = 0; v < size_est->n; v++) { nx += size_est->member[x * size_est->n + v]; ny += size_est->member[y * size_est->n + v]; }
  return nx != ny ? nx - ny : x - y;
}

/* One loop per header of back edges: the header plus every block that reaches one of its
   latches without passing the header. Returns false when the loops would take too much memory. */
static bool loops(Est *s) {
  int n = s->n, *loop_of = pp_xmalloc(sizeof(int) * (size_t)n);
  s->nloops = 0;
  for (int v = 0; v < n; v++) loop_of[v] = -1;
  for (int i = 0; i < s->m; i++) {
    const PPEdge *e = &s->g->edges.v[i];
    if (flowing(e) && e->kind == EK_BACK && loop_of[e->dst] < 0) loop_of[e->dst] = s->nloops++;
  }
  if ((size_t)s->nloops * (size_t)n > 20000000) { free(loop_of); return false; }
  s->member = pp_xcalloc((size_t)s->nloops * (size_t)n + 1, 1);
  s->heads = pp_xmalloc(sizeof(int) * ((size_t)s->nloops + 1));
  int *stack = pp_xmalloc(sizeof(int) * (size_t)n), top;
  for (int h = 0; h < n; h++) {
    int l = loop_of[h];
    if (l < 0) continue;
    char *in = s->member + (size_t)l * (size_t)n;
    s->heads[l] = h;
    in[h] = 1;
    top = 0;
    IN_FOR(s, h, k) {
      const PPEdge *e = &s->g->edges.v[s->iadj[k]];
      if (e->kind == EK_BACK && !in[e->src]) { in[e->src] = 1; stack[top++] = e->src; }
    }
    while (top) {
      int v = stack[--top];
      IN_FOR(s, v, k) {
        int w = s->g->edges.v[s->iadj[k]].src;
        if (!in[w] && s->g->blocks.v[w].live) { in[w] = 1; stack[top++] = w; }
      }
    }
  }
  /* headers by loop size: inner loops first; a block's innermost loop is the first holding it */
  int *ls = pp_xmalloc(sizeof(int) * ((size_t)s->nloops + 1)), *heads = pp_xmalloc(sizeof(int) * ((size_t)s->nloops + 1));
  char *member = pp_xcalloc((size_t)s->nloops * (size_t)n + 1, 1);
  for (int l = 0; l < s->nloops; l++) ls[l] = l;
  size_est = s;
  pp_sort(ls, (size_t)s->nloops, sizeof(int), by_size);
  for (int l = 0; l < s->nloops; l++) {
    heads[l] = s->heads[ls[l]];
    memcpy(member + (size_t)l * (size_t)n, s->member + (size_t)ls[l] * (size_t)n, (size_t)n);
  }
  free(s->heads); free(s->member);
  s->heads = heads;
  s->member = member;
  s->inner = pp_xmalloc(sizeof(int) * (size_t)n);
  for (int v = 0; v < n; v++) {
    s->inner[v] = -1;
    for (int l = 0; l < s->nloops && s->inner[v] < 0; l++)
      if (member[(size_t)l * (size_t)n + v]) s->inner[v] = l;
  }
  free(ls); free(stack); free(loop_of);
  return true;
}

/* ---- branch probabilities ---- */

/* Facts of the straight-line code from block v on: v, then while there is one way on and the
   next block has no other way in. *leaves: an exit edge leaves v itself (a return right there,
   not one at the end of a long straight run, which both sides of most branches reach). */
static PPFacts region(const Est *s, int v, bool *leaves) {
  PPFacts f = s->g->blocks.v[v].facts;
  *leaves = false;
  for (int steps = 0; steps < REGION; steps++) {
    int outs = s->ostart[v + 1] - s->ostart[v];
    OUT_FOR(s, v, k) *leaves |= steps == 0 && s->g->edges.v[s->oadj[k]].kind == EK_EXIT;
    if (outs != 1) break;
    int w = s->g->edges.v[s->oadj[s->ostart[v]]].dst;
    if (w == PP_EXIT || s->istart[w + 1] - s->istart[w] != 1 || s->g->edges.v[s->oadj[s->ostart[v]]].kind == EK_BACK) break;
    v = w;
    const PPFacts *x = &s->g->blocks.v[v].facts;
    f.calls |= x->calls;
    f.stores |= x->stores;
    for (int i = 0; i < x->nuses && f.nuses < PP_FACT_VARS; i++) f.uses[f.nuses++] = x->uses[i];
  }
  return f;
}

/* Dempster-Shafer: the belief p that the true edge is taken, combined with a heuristic's q. */
static double combine(double p, double q) {
  double a = p * q, b = (1 - p) * (1 - q);
  return a + b > 0 ? a / (a + b) : p;
}

static bool uses_operand(const PPFacts *region_facts, const PPFacts *d) {
  for (int i = 0; i < region_facts->nuses; i++)
    for (int k = 0; k < 2; k++)
      if (d->operands[k] && region_facts->uses[i] == d->operands[k]) return true;
  return false;
}

/* A heuristic that favours one side: applies when exactly one of the two does what it looks at. */
static double one_side(double p, bool on_true, bool on_false, double q_true) {
  return on_true != on_false ? combine(p, on_true ? q_true : 1 - q_true) : p;
}

/* Probability that decision block b takes its true edge t (false edge f). */
static double branch_prob(const Est *s, int b, const PPEdge *t, const PPEdge *f) {
  const PPFacts *d = &s->g->blocks.v[b].facts;
  double p = 0.5;
  /* loop branch: take the back edge, stay in the loop */
  if ((t->kind == EK_BACK) != (f->kind == EK_BACK)) p = combine(p, t->kind == EK_BACK ? P_LOOP_BRANCH : 1 - P_LOOP_BRANCH);
  else if (s->inner[b] >= 0) {
    const char *in = s->member + (size_t)s->inner[b] * (size_t)s->n;
    p = one_side(p, !in[t->dst], !in[f->dst], 1 - P_LOOP_BRANCH);
  }
  /* pointer: pointers are rarely null or equal; opcode: values are rarely negative or equal to a constant */
  bool eq = d->cmp == PP_CMP_EQ, ne = d->cmp == PP_CMP_NE;
  if (d->ptr && (eq || ne)) p = combine(p, eq ? 1 - P_POINTER : P_POINTER);
  else if (!d->ptr && (((d->cmp == PP_CMP_LT || d->cmp == PP_CMP_LE) && d->vs_zero) || (eq && (d->vs_const || d->fp))))
    p = combine(p, 1 - P_OPCODE);
  else if (!d->ptr && (((d->cmp == PP_CMP_GT || d->cmp == PP_CMP_GE) && d->vs_zero) || (ne && (d->vs_const || d->fp))))
    p = combine(p, P_OPCODE);
  /* call, return, store, guard: on a successor that does not postdominate the branch */
  bool tl, fl;
  PPFacts rt = region(s, t->dst, &tl), rf = region(s, f->dst, &fl);
  bool tp = !postdominates(s, t->dst, b) && t->dst != PP_EXIT, fp = !postdominates(s, f->dst, b) && f->dst != PP_EXIT;
  p = one_side(p, tp && rt.calls, fp && rf.calls, 1 - P_CALL);
  p = one_side(p, t->kind == EK_EXIT || (tp && (rt.returns || tl)), f->kind == EK_EXIT || (fp && (rf.returns || fl)), 1 - P_RETURN);
  p = one_side(p, tp && rt.stores, fp && rf.stores, 1 - P_STORE);
  p = one_side(p, tp && uses_operand(&rt, d), fp && uses_operand(&rf, d), P_GUARD);
  return p;
}

/* Every flowing edge's probability given its source ran: decisions by the heuristics, other
   ways out evenly. */
static void probabilities(Est *s) {
  s->prob = pp_xcalloc((size_t)s->m + 1, sizeof(double));
  for (int v = 0; v < s->n; v++) {
    int outs = s->ostart[v + 1] - s->ostart[v];
    if (!outs) continue;
    const PPEdge *t = NULL, *f = NULL;
    int ti = -1, fi = -1;
    OUT_FOR(s, v, k) {
      const PPEdge *e = &s->g->edges.v[s->oadj[k]];
      s->prob[s->oadj[k]] = 1.0 / outs;
      if (e->arm == ARM_TRUE) { t = e; ti = s->oadj[k]; }
      if (e->arm == ARM_FALSE) { f = e; fi = s->oadj[k]; }
    }
    if (outs == 2 && t && f) {
      s->prob[ti] = branch_prob(s, v, t, f);
      s->prob[fi] = 1 - s->prob[ti];
    }
  }
}

/* ---- frequencies ---- */

/* Blocks in a topological order of the flowing edges other than back edges. */
static int topo(const Est *s, int *order) {
  int *indeg = pp_xcalloc((size_t)s->n, sizeof(int)), k = 0;
  for (int i = 0; i < s->m; i++)
    if (flowing(&s->g->edges.v[i]) && s->g->edges.v[i].kind != EK_BACK) indeg[s->g->edges.v[i].dst]++;
  order[k++] = PP_ENTRY;
  for (int i = 0; i < k; i++)
    OUT_FOR(s, order[i], j) {
      const PPEdge *e = &s->g->edges.v[s->oadj[j]];
      if (e->kind != EK_BACK && --indeg[e->dst] == 0) order[k++] = e->dst;
    }
  free(indeg);
  return k;
}

/* Wu-Larus propagation from head over the blocks of loop l (l < 0: the whole function): the head
   runs once, other blocks what flows in, divided by (1 - cyclic) at inner loop heads; the back
   edges to head give head's own cyclic probability. */
static void propagate(Est *s, const int *order, int k, int head, int l) {
  const char *in = l >= 0 ? s->member + (size_t)l * (size_t)s->n : NULL;
  double back = 0;
  for (int i = 0; i < k; i++) {
    int v = order[i];
    if (in && !in[v]) continue;
    double f = 0;
    if (v == head) f = 1;
    else {
      IN_FOR(s, v, j) {
        const PPEdge *e = &s->g->edges.v[s->iadj[j]];
        if (e->kind != EK_BACK && (!in || in[e->src])) f += s->efreq[s->iadj[j]];
      }
      if (s->g->blocks.v[v].header) f /= 1 - s->cyclic[v];
    }
    s->bfreq[v] = f > 1e300 ? 1e300 : f;
    OUT_FOR(s, v, j) {
      int ei = s->oadj[j];
      s->efreq[ei] = s->bfreq[v] * s->prob[ei];
      if (s->g->edges.v[ei].kind == EK_BACK && s->g->edges.v[ei].dst == head) back += s->efreq[ei];
    }
  }
  if (l >= 0) s->cyclic[head] = back < MAX_CYCLIC ? back : MAX_CYCLIC;
}

static void est_free(Est *s) {
  free(s->ostart); free(s->oadj); free(s->istart); free(s->iadj); free(s->ipdom); free(s->heads); free(s->member);
  free(s->inner); free(s->prob); free(s->bfreq); free(s->efreq); free(s->cyclic);
}

void pp_estimate_wu_larus(PPGraph *g) {
  Est s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.n = (int)g->blocks.n;
  s.m = (int)g->edges.n;
  adjacency(&s);
  if (!loops(&s)) { est_free(&s); pp_place_estimate(g); return; }
  postdominators(&s);
  probabilities(&s);
  s.bfreq = pp_xcalloc((size_t)s.n, sizeof(double));
  s.efreq = pp_xcalloc((size_t)s.m + 1, sizeof(double));
  s.cyclic = pp_xcalloc((size_t)s.n, sizeof(double));
  int *order = pp_xmalloc(sizeof(int) * (size_t)s.n), k = topo(&s, order);
  for (int l = 0; l < s.nloops; l++) propagate(&s, order, k, s.heads[l], l);
  propagate(&s, order, k, PP_ENTRY, -1);
  for (int i = 0; i < s.m; i++) g->edges.v[i].weight = flowing(&g->edges.v[i]) ? s.efreq[i] : 0;
  pp_place_dummy_weights(g);
  free(order);
  est_free(&s);
}
