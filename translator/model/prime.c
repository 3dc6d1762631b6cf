/* Prime paths (GCC 15's -fpath-coverage: simple paths that are no proper subpath of another
   simple path, a cycle included) of a function's CFG, enumerated as Ammann and Offutt do:
   extend every simple path by one block until it closes a cycle or cannot go on; those that
   ended are the candidates, and the prime paths are the candidates inside no longer one.
   pathprof counts them (pathprof/prime.c); pathcc --k=auto picks each function's k by them. */
#include "prime.h"
#include <stdlib.h>
#include <string.h>

typedef struct { size_t at; int n; } Span;
typedef VEC(Span) Spans;
typedef VEC(int) Ints;

static bool cfg_edge(const PPGraph *g, const PPEdge *e) {
  return (e->kind == EK_NORMAL || e->kind == EK_BACK || e->kind == EK_CUT) && e->src != 1 && e->dst != 1 &&
         g->blocks.v[e->src].live && g->blocks.v[e->dst].live;
}

bool pp_prime_boundary(const PPGraph *g, int u, int v) {
  bool back = false;
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (e->src != u || e->dst != v || !cfg_edge(g, e)) continue;
    if (e->kind == EK_NORMAL) return false;
    back = true;
  }
  return back;
}

static bool has(const int *b, int n, int x) {
  for (int i = 0; i < n; i++)
    if (b[i] == x) return true;
  return false;
}

static void push_path(Ints *pool, Spans *s, const int *b, int n, int last) {
  Span x = { pool->n, n + (last >= 0) };
  for (int i = 0; i < n; i++) VEC_PUSH(*pool, b[i]);
  if (last >= 0) VEC_PUSH(*pool, last);
  VEC_PUSH(*s, x);
}


static int longest_first(const void *a, const void *b) {
  const PPPrime *x = a, *y = b;
  if (x->n != y->n) return x->n > y->n ? -1 : 1;
  for (int i = 0; i < x->n; i++)
    if (x->blocks[i] != y->blocks[i]) return x->blocks[i] < y->blocks[i] ? -1 : 1;
  return 0;
}

/* Whether candidate t (of cand, in pool) is a proper subpath of a longer candidate; at[b]..: the
   candidates' positions holding block b (index into pos, pairs of candidate and position). */
static bool inside_longer(const Ints *pool, const Spans *cand, size_t t, const size_t *at, const int *pos) {
  const Span *x = &cand->v[t];
  const int *tb = pool->v + x->at;
  for (size_t k = at[tb[0]]; k < at[tb[0] + 1]; k++) {
    const Span *u = &cand->v[pos[2 * k]];
    int p = pos[2 * k + 1];
    if (u->n > x->n && p + x->n <= u->n && !memcmp(pool->v + u->at + p, tb, sizeof(int) * (size_t)x->n)) return true;
  }
  return false;
}

int pp_prime_enumerate(const PPGraph *g, size_t limit, PPPrimeFunc *out) {
  int nb = (int)g->blocks.n;
  int *start = pp_xcalloc((size_t)nb + 1, sizeof(int)), *succ = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  for (size_t i = 0; i < g->edges.n; i++)
    if (cfg_edge(g, &g->edges.v[i])) start[g->edges.v[i].src + 1]++;
  for (int b = 0; b < nb; b++) start[b + 1] += start[b];
  int *fill = pp_xmalloc(sizeof(int) * ((size_t)nb + 1));
  memcpy(fill, start, sizeof(int) * (size_t)nb);
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (cfg_edge(g, e) && !has(succ + start[e->src], fill[e->src] - start[e->src], e->dst)) succ[fill[e->src]++] = e->dst;
  }
  Ints pool = {0}, npool = {0}, cpool = {0};
  Spans cur = {0}, next = {0}, cand = {0};
  size_t seen = 0;
  int rc = 0;
  for (int b = 0; b < nb; b++)
    if (b != 1 && g->blocks.v[b].live) push_path(&pool, &cur, &b, 1, -1);
  while (cur.n && !rc) {
    for (size_t i = 0; i < cur.n && !rc; i++) {
      const int *p = pool.v + cur.v[i].at;
      int n = cur.v[i].n;
      bool grew = false;
      if (n == 1 || p[0] != p[n - 1])  /* a closed cycle goes no further */
        for (int s = start[p[n - 1]]; s < fill[p[n - 1]]; s++) {
          int v = succ[s];
          if (v != p[0] && has(p, n, v)) continue;
          push_path(&npool, &next, p, n, v);
          grew = true;
          if (++seen > limit) { rc = -1; break; }
        }
      if (!grew) push_path(&cpool, &cand, p, n, -1);
    }
    Ints tp = pool; pool = npool; npool = tp; npool.n = 0;
    Spans ts = cur; cur = next; next = ts; next.n = 0;
  }
  if (!rc) {
    /* where each block is in the candidates */
    size_t *at = pp_xcalloc((size_t)nb + 2, sizeof(size_t));
    for (size_t i = 0; i < cpool.n; i++) at[cpool.v[i] + 1]++;
    for (int b = 0; b < nb; b++) at[b + 1] += at[b];
    size_t *put = pp_xmalloc(sizeof(size_t) * ((size_t)nb + 1));
    memcpy(put, at, sizeof(size_t) * ((size_t)nb + 1));
    int *pos = pp_xmalloc(sizeof(int) * (2 * cpool.n + 2));
    for (size_t c = 0; c < cand.n; c++)
      for (int k = 0; k < cand.v[c].n; k++) {
        size_t w = put[cpool.v[cand.v[c].at + (size_t)k]]++;
        pos[2 * w] = (int)c;
        pos[2 * w + 1] = k;
      }
    for (size_t c = 0; c < cand.n; c++) {
      if (inside_longer(&cpool, &cand, c, at, pos)) continue;
      PPPrime x;
      memset(&x, 0, sizeof x);
      x.n = cand.v[c].n;
      x.blocks = pp_xmalloc(sizeof(int) * (size_t)x.n);
      memcpy(x.blocks, cpool.v + cand.v[c].at, sizeof(int) * (size_t)x.n);
      for (int k = 0; k + 1 < x.n; k++) x.crossings += pp_prime_boundary(g, x.blocks[k], x.blocks[k + 1]);
      VEC_PUSH(out->paths, x);
    }
    if (out->paths.n) qsort(out->paths.v, out->paths.n, sizeof *out->paths.v, longest_first);
    free(at); free(put); free(pos);
  }
  out->limited = rc != 0;
  VEC_FREE(pool); VEC_FREE(npool); VEC_FREE(cpool);
  VEC_FREE(cur); VEC_FREE(next); VEC_FREE(cand);
  free(start); free(succ); free(fill);
  return rc;
}

int pp_prime_need_k(const PPGraph *g, size_t limit) {
  PPPrimeFunc pf;
  memset(&pf, 0, sizeof pf);
  int rc = pp_prime_enumerate(g, limit, &pf), need = 1;
  for (size_t i = 0; i < pf.paths.n; i++) {
    if (pf.paths.v[i].crossings + 1 > need) need = pf.paths.v[i].crossings + 1;
    free(pf.paths.v[i].blocks);
  }
  VEC_FREE(pf.paths);
  return rc ? -1 : need;
}
