/* Prime-path coverage from the path profile: the prime paths of each function (model/prime.c)
   with the times each ran, from the Ball-Larus paths and, for those taking back edges, the
   k-iteration paths of a kpath build (prime.h). */
#include "prime.h"
#include "model/kipf.h"
#include <stdlib.h>
#include <string.h>

/* An executed Ball-Larus path's blocks, decoded once. */
typedef struct { uint64_t id, count; int *blocks, n; } Decoded;

static int by_id(const void *a, const void *b) {
  const Decoded *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id;
}

static const Decoded *decoded(const Decoded *d, size_t n, uint64_t id) {
  Decoded key = { id, 0, NULL, 0 };
  return bsearch(&key, d, n, sizeof key, by_id);
}

/* Whether blocks b[0..n) hold p[0..m) contiguously. */
static bool holds(const int *b, int n, const int *p, int m) {
  for (int i = 0; i + m <= n; i++)
    if (!memcmp(b + i, p, sizeof(int) * (size_t)m)) return true;
  return false;
}

/* Whether the n-gram of paths ids[0..n) runs prime path x: its first piece ends the first path,
   its middle pieces are the paths between, its last piece starts the last path. */
static bool ngram_runs(const PPGraph *g, const PPPrime *x, const uint64_t *ids, int n, const Decoded *d, size_t nd) {
  int from = 0;
  for (int k = 0; k < n; k++) {
    int to = from;
    while (to + 1 < x->n && !pp_prime_boundary(g, x->blocks[to], x->blocks[to + 1])) to++;
    int len = to - from + 1;  /* the piece x->blocks[from..to] */
    const Decoded *p = decoded(d, nd, ids[k]);
    if (!p || p->n < len) return false;
    if (k == 0 && n > 1 && memcmp(p->blocks + p->n - len, x->blocks, sizeof(int) * (size_t)len)) return false;
    if (k > 0 && k < n - 1 && (p->n != len || memcmp(p->blocks, x->blocks + from, sizeof(int) * (size_t)len))) return false;
    if (k == n - 1 && k > 0 && memcmp(p->blocks, x->blocks + from, sizeof(int) * (size_t)len)) return false;
    from = to + 1;
  }
  return true;
}

static void count_function(const PPCoverage *c, PPPrimeFunc *pf) {
  const PPCovFunc *cf = &c->funcs.v[pf->func];
  const PPGraph *g = &cf->f->g;
  const PPFuncView *v = cf->view;
  Decoded *d = pp_xcalloc(v->n + 1, sizeof *d);
  int cap = (int)g->blocks.n + 1;
  for (size_t i = 0; i < v->n; i++) {
    bool from, to;
    d[i].id = v->paths[i].id;
    d[i].count = v->paths[i].count;
    d[i].blocks = pp_xmalloc(sizeof(int) * (size_t)cap);
    d[i].n = pp_path_blocks(g, v->paths[i].id, d[i].blocks, cap, &from, &to);
  }
  qsort(d, v->n, sizeof *d, by_id);
  const struct pp_forest *ksf = cf->f->kpath ? pp_profile_forest(v->u->prof, v->u->rec->checksum, v->fn) : NULL;
  PPKipf t;
  memset(&t, 0, sizeof t);
  pf->k = !v->n && cf->f->kpath && cf->t->k >= 2 ? cf->t->k : 1;  /* a kpath function that never ran has no forest */
  if (ksf && ksf->k >= 2) {
    pf->k = (unsigned)ksf->k;
    pp_kipf_build(ksf, pf->k, &t);
  }
  uint64_t ids[64];
  for (size_t i = 0; i < pf->paths.n; i++) {
    PPPrime *x = &pf->paths.v[i];
    if (x->crossings + 1 > pf->need_k) pf->need_k = x->crossings + 1;
    if (x->crossings == 0) {
      for (size_t p = 0; p < v->n; p++)
        if (d[p].n > 0 && holds(d[p].blocks, d[p].n, x->blocks, x->n)) x->count = pp_sat_add(x->count, d[p].count);
    } else if (!v->n) {
      /* the function never ran a path: none of its prime paths ran, whatever k */
    } else if ((unsigned)x->crossings + 1 <= pf->k && x->crossings + 1 <= 64) {
      for (size_t n = 0; n < t.nodes.n; n++) {
        const PPKNode *kn = &t.nodes.v[n];
        if ((int)kn->depth != x->crossings || !kn->count) continue;
        int m = pp_kipf_ngram(&t, (int)n, ids, 64);
        if (ngram_runs(g, x, ids, m, d, v->n)) x->count = pp_sat_add(x->count, kn->count);
      }
    } else {
      x->state = PP_PRIME_UNDECIDED;
      pf->undecided++;
      continue;
    }
    x->state = x->count ? PP_PRIME_RAN : PP_PRIME_NOT_RUN;
    pf->ran += x->count > 0;
  }
  if (t.nodes.v) pp_kipf_free(&t);
  for (size_t i = 0; i < v->n; i++) free(d[i].blocks);
  free(d);
}

void pp_primes_build(const PPCoverage *c, size_t limit, PPPrimes *p) {
  memset(p, 0, sizeof *p);
  p->limit = limit;
  for (size_t fn = 0; fn < c->funcs.n; fn++) {
    PPPrimeFunc pf;
    memset(&pf, 0, sizeof pf);
    pf.func = (int)fn;
    pf.edge = c->funcs.v[fn].view->edges != NULL;
    if (pp_prime_enumerate(&c->funcs.v[fn].f->g, limit, &pf)) { VEC_PUSH(p->funcs, pf); continue; }
    if (!pf.edge) count_function(c, &pf);
    else  /* edge counts hold no paths */
      for (size_t i = 0; i < pf.paths.n; i++) {
        pf.paths.v[i].state = PP_PRIME_UNDECIDED;
        pf.undecided++;
        if (pf.paths.v[i].crossings + 1 > pf.need_k) pf.need_k = pf.paths.v[i].crossings + 1;
      }
    if (pf.paths.n > p->most) p->most = pf.paths.n;
    VEC_PUSH(p->funcs, pf);
  }
}

void pp_primes_free(PPPrimes *p) {
  for (size_t i = 0; i < p->funcs.n; i++) {
    for (size_t k = 0; k < p->funcs.v[i].paths.n; k++) free(p->funcs.v[i].paths.v[k].blocks);
    VEC_FREE(p->funcs.v[i].paths);
  }
  VEC_FREE(p->funcs);
}
