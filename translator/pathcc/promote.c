/* promote.c: loops whose iterations count into a local variable, settled at the loop's exit. */
/* In a tight loop every iteration ends a path at the back edge and bumps the same counter in
   memory, so iterations queue behind each other's increments; gcc moves gcov's counter of such
   a loop into a register. The rewriter does the same for the loops chosen here: the back edge
   counts every round in a local and takes the round's increments back from the register, which
   so holds its value at loop entry all along (the compiler sees it loop-invariant, and the local
   as an induction variable); the one exit edge counts the first round, whose path began before
   the loop, by that entry value, the others as the round path. Only loops from which nothing
   else can leave qualify. */
#include "promote.h"
#include <stdlib.h>

static bool real(const PPEdge *e) { return !e->dead && e->kind != EK_DUMMY_ENTRY && e->kind != EK_DUMMY_EXIT; }

/* The natural loop of back edge b: its header and the blocks that reach its latch without
   passing the header. */
static char *loop_body(const PPGraph *g, const PPEdge *b, const int *in_start, const int *in_adj) {
  char *in = pp_xcalloc(g->blocks.n, 1);
  int *stack = pp_xmalloc(sizeof(int) * (g->blocks.n + 1)), sp = 0;
  in[b->dst] = 1;
  if (!in[b->src]) in[stack[sp++] = b->src] = 1;
  while (sp > 0) {
    int v = stack[--sp];
    for (int k = in_start[v]; k < in_start[v + 1]; k++) {
      int u = g->edges.v[in_adj[k]].src;
      if (real(&g->edges.v[in_adj[k]]) && !in[u]) in[stack[sp++] = u] = 1;
    }
  }
  free(stack);
  return in;
}

/* Whether back edge bi's loop qualifies; fills p. The way round is the chain of in-loop
   successors from the header, which must come back to it by bi. */
static bool qualifies(const PPGraph *g, int bi, const char *in, const int *out_start, const int *out_adj, PPPromoted *p) {
  const PPEdge *b = &g->edges.v[bi];
  int exit = -1;
  for (size_t v = 0; v < g->blocks.n; v++) {
    if (!in[v]) continue;
    if (g->blocks.v[v].facts.calls) return false;
    int inside = 0;
    for (int k = out_start[v]; k < out_start[v + 1]; k++) {
      const PPEdge *e = &g->edges.v[out_adj[k]];
      if (!real(e)) continue;
      if (e->kind != EK_EXIT && in[e->dst]) inside++;
      else if (exit >= 0) return false;
      else exit = out_adj[k];
    }
    if (inside != 1) return false;
  }
  if (exit < 0 || g->edges.v[exit].no_site || g->edges.v[exit].quiet || g->edges.v[exit].dispatch) return false;
  uint64_t path = pp_graph_dummy(g, PP_ENTRY, b->dst, EK_DUMMY_ENTRY)->val + pp_graph_dummy(g, b->src, PP_EXIT, EK_DUMMY_EXIT)->val;
  uint64_t rinc = 0, xinc = 0;
  VEC(int) round = {0};
  p->nbefore = 0;
  for (int v = b->dst;;) {  /* round the loop: the one in-loop successor each time */
    int next = -1;
    if (v == g->edges.v[exit].src) { xinc = rinc; p->nbefore = (int)round.n; }  /* before the exit */
    if (v == b->src) break;
    for (int k = out_start[v]; k < out_start[v + 1]; k++) {
      const PPEdge *e = &g->edges.v[out_adj[k]];
      if (real(e) && e->kind != EK_EXIT && in[e->dst]) next = out_adj[k];
    }
    if (g->edges.v[next].kind != EK_NORMAL) { VEC_FREE(round); return false; }  /* another back edge or a cut */
    VEC_PUSH(round, next);
    path += g->edges.v[next].val;
    rinc += g->edges.v[next].inc;
    v = g->edges.v[next].dst;
  }
  VEC_PUSH(round, bi);
  p->round = round.v;
  p->nround = (int)round.n;
  p->back = bi;
  p->exit = exit;
  p->path = path;
  p->rinc = rinc;
  p->xinc = xinc;
  return true;
}

size_t pp_promote_loops(const PPGraph *g, PPPromoted **out) {
  VEC(PPPromoted) v = {0};
  int *in_start, *in_adj, *out_start, *out_adj;
  pp_graph_all_in(g, &in_start, &in_adj);
  pp_graph_all_out(g, &out_start, &out_adj);
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *b = &g->edges.v[i];
    if (b->kind != EK_BACK || b->dead || !g->blocks.v[b->src].live) continue;
    char *in = loop_body(g, b, in_start, in_adj);
    PPPromoted p;
    if (qualifies(g, (int)i, in, out_start, out_adj, &p)) VEC_PUSH(v, p);
    free(in);
  }
  free(in_start); free(in_adj); free(out_start); free(out_adj);
  *out = v.v;
  return v.n;
}

void pp_promote_free(PPPromoted *p, size_t n) {
  for (size_t i = 0; i < n; i++) free(p[i].round);
  free(p);
}
