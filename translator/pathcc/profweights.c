/* Placement weights from an earlier profile (pathcc --placement-profile): each function's
   measured edge counts, as Ball and Larus placed probes with an edge profile. */
#include "profweights.h"
#include "model/flow.h"
#include "model/number.h"
#include "profile/profile.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *name;
  unsigned line;
  PPGraph g;        /* the function's live edges, as its tables list them */
  uint64_t *count;  /* per edge of g */
} Known;

struct PPProfWeights {
  VEC(Known) funcs;
};

/* The same file: equal names, or equal once both are resolved. */
static bool same_source(const char *a, const char *b) {
  if (!strcmp(a, b)) return true;
  char ra[PATH_MAX], rb[PATH_MAX];
  return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/* Path mode: the counts of the decoded paths added to the edges they run along; a back or cut
   edge gets its latch's path ends shared among the latch's back and cut edges. */
static void path_counts(const PPTabFunc *f, int fn, const struct pp_unitrec *u, uint64_t *count) {
  const PPGraph *g = &f->g;
  int m = (int)g->edges.n, *es = pp_xmalloc(sizeof(int) * ((size_t)m + 1));
  uint64_t n = f->derived ? 0 : f->hash ? u->nhash : f->g.npaths;  /* derived: one path, nothing to place */
  for (uint64_t i = 0; i < n; i++) {
    uint64_t id = f->hash ? u->hash[i].id : i;
    unsigned long long c = f->hash ? (u->hash[i].fn == (unsigned long long)fn ? u->hash[i].count : 0) : u->counters[f->offset + i];
    int k = c ? pp_number_decode(g, id, es, m + 1) : 0;
    for (int j = 0; j < k; j++) count[es[j]] = pp_sat_add(count[es[j]], c);
  }
  for (int i = 0; i < m; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (e->kind != EK_DUMMY_EXIT) continue;
    int latches = 0;
    for (int j = 0; j < m; j++) latches += (g->edges.v[j].kind == EK_BACK || g->edges.v[j].kind == EK_CUT) && g->edges.v[j].src == e->src;
    for (int j = 0; j < m && latches; j++)
      if ((g->edges.v[j].kind == EK_BACK || g->edges.v[j].kind == EK_CUT) && g->edges.v[j].src == e->src)
        count[j] = count[i] / (uint64_t)latches;
  }
  free(es);
}

/* Takes the functions of one unit's tables and counts. */
static void take_unit(PPProfWeights *w, const PPTables *t, const struct pp_unitrec *u) {
  for (size_t fn = 0; fn < t->funcs.n; fn++) {
    const PPTabFunc *f = &t->funcs.v[fn];
    Known k;
    memset(&k, 0, sizeof k);
    k.name = pp_xstrdup(f->name);
    k.line = f->line;
    k.count = pp_xcalloc(f->g.edges.n + 1, sizeof(uint64_t));
    if (pp_tables_edge_mode(t)) pp_flow_edges(f, u->counters, NULL, k.count, NULL);
    else path_counts(f, (int)fn, u, k.count);
    pp_graph_init(&k.g);
    for (size_t i = 0; i < f->g.edges.n; i++) {
      const PPEdge *e = &f->g.edges.v[i];
      while (k.g.blocks.n <= (size_t)(e->src > e->dst ? e->src : e->dst)) pp_graph_add_block(&k.g);
      pp_graph_add_edge(&k.g, e->src, e->dst, e->kind);
    }
    VEC_PUSH(w->funcs, k);
  }
}

PPProfWeights *pp_profweights_load(const char *profile, const char *source, char **err) {
  struct pp_profile p;
  char msg[512];
  if (pp_profile_read(profile, &p, msg, sizeof msg)) { *err = pp_xasprintf("--placement-profile: %s", msg); return NULL; }
  PPProfWeights *w = pp_xcalloc(1, sizeof *w);
  for (size_t i = 0; i < p.nunits; i++) {
    PPTables t;
    char *terr = NULL;
    if (pp_tables_read(p.units[i].name, &t, &terr)) { free(terr); continue; }  /* gone or another build: no weights from it */
    if (t.ncounters == p.units[i].ncounters && same_source(t.source, source)) take_unit(w, &t, &p.units[i]);
    pp_tables_free(&t);
  }
  pp_profile_free(&p);
  return w;
}

/* Is known function k's edge list that of g's live edges, in order? */
static bool same_graph(const Known *k, const PPGraph *g) {
  size_t j = 0;
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (e->dead) continue;
    if (j >= k->g.edges.n || k->g.edges.v[j].src != e->src || k->g.edges.v[j].dst != e->dst || k->g.edges.v[j].kind != e->kind) return false;
    j++;
  }
  return j == k->g.edges.n;
}

bool pp_profweights_apply(const PPProfWeights *w, const char *name, unsigned line, PPGraph *g, double *calls) {
  for (size_t i = 0; w && i < w->funcs.n; i++) {
    const Known *k = &w->funcs.v[i];
    if (strcmp(k->name, name) || k->line != line || !same_graph(k, g)) continue;
    double scale = 0;  /* the static estimate only breaks ties between equal counts */
    for (size_t e = 0; e < g->edges.n; e++) scale = g->edges.v[e].weight > scale ? g->edges.v[e].weight : scale;
    size_t j = 0;
    *calls = 0;
    for (size_t e = 0; e < g->edges.n; e++) {
      PPEdge *x = &g->edges.v[e];
      if (x->dead) continue;
      x->weight = (double)k->count[j++] + (scale > 0 ? 0.5 * x->weight / scale : 0);
      if (x->src == PP_ENTRY && x->kind == EK_NORMAL) *calls += x->weight;
    }
    return true;
  }
  return false;
}

void pp_profweights_free(PPProfWeights *w) {
  if (!w) return;
  for (size_t i = 0; i < w->funcs.n; i++) {
    free(w->funcs.v[i].name);
    free(w->funcs.v[i].count);
    pp_graph_free(&w->funcs.v[i].g);
  }
  VEC_FREE(w->funcs);
  free(w);
}
