/* exclude.c: lcov's and gcovr's exclusion markers in the sources (LCOV_EXCL_LINE, LCOV_EXCL_START
   .. LCOV_EXCL_STOP, LCOV_EXCL_BR_LINE, LCOV_EXCL_BR_START .. LCOV_EXCL_BR_STOP, and the same
   with GCOVR_): excluded lines, their branches, the functions whose name line is excluded and
   the paths through excluded code leave the totals and are counted apart. */
#include "covint.h"
#include "model/number.h"
#include <stdlib.h>
#include <string.h>

/* The markers of one line: bits of what they do. */
enum { EX_LINE = 1, EX_START = 2, EX_STOP = 4, BR_LINE = 8, BR_START = 16, BR_STOP = 32 };

static unsigned markers(const char *s) {
  static const struct { const char *name; unsigned bit; } m[] = {
    { "EXCL_LINE", EX_LINE }, { "EXCL_START", EX_START }, { "EXCL_STOP", EX_STOP },
    { "EXCL_BR_LINE", BR_LINE }, { "EXCL_BR_START", BR_START }, { "EXCL_BR_STOP", BR_STOP } };
  unsigned bits = 0;
  for (const char *p = s; (p = strstr(p, "EXCL_")); p++) {
    bool lcov = p - s >= 5 && !strncmp(p - 5, "LCOV_", 5), gcovr = p - s >= 6 && !strncmp(p - 6, "GCOVR_", 6);
    if (!lcov && !gcovr) continue;
    for (size_t i = 0; i < sizeof m / sizeof *m; i++) {
      size_t n = strlen(m[i].name);
      char after = p[n];
      if (!strncmp(p, m[i].name, n) && !(after == '_' || (after >= 'A' && after <= 'Z'))) bits |= m[i].bit;
    }
  }
  return bits;
}

/* Marks file f's excluded lines (regions from a START to its STOP, both included; an open one
   runs to the end of the file). */
static void mark_file(PPCovFile *f) {
  bool region = false, br_region = false;
  for (unsigned ln = 1; f->src && ln <= f->nsrc && ln <= f->nlines; ln++) {
    unsigned m = markers(f->src[ln]);
    region |= (m & EX_START) != 0;
    br_region |= (m & BR_START) != 0;
    f->lines[ln].excluded = region || (m & EX_LINE);
    f->lines[ln].br_excluded = br_region || (m & BR_LINE);
    if (m & EX_STOP) region = false;
    if (m & BR_STOP) br_region = false;
  }
}

/* Whether every line of block b in f's file is excluded (a block without lines is not). */
static bool block_excluded(const PPCoverage *c, const PPCovFunc *fn, const PPBlock *b) {
  const PPCovFile *f = &c->files.v[fn->file];
  bool any = false;
  for (size_t i = 0; i < b->lines.n; i++) {
    if (strcmp(fn->t->files.v[b->lines.v[i].file], f->name)) continue;
    for (unsigned ln = b->lines.v[i].first; ln <= b->lines.v[i].last; ln++) {
      if (ln > f->nlines || !f->lines[ln].exists) continue;
      if (!f->lines[ln].excluded) return false;
      any = true;
    }
  }
  return any;
}

/* The excluded blocks as a mask (coverage.h): the plain report's path totals and --diff's both
   leave out the paths through these, so they must come from one place. */
char *pp_coverage_excluded_blocks(const PPCoverage *c, const PPCovFunc *fn) {
  const PPGraph *g = &fn->f->g;
  char *ex = pp_xcalloc(g->blocks.n + 1, 1);
  for (size_t b = 0; b < g->blocks.n; b++) ex[b] = g->blocks.v[b].live && b != PP_EXIT && block_excluded(c, fn, &g->blocks.v[b]);
  return ex;
}

/* Counted from the exit back in topological order (coverage.h); the entry rule keeps a marked
   entry from taking out the paths that start at a loop head, which never run its code. */
uint64_t *pp_paths_avoiding(const PPGraph *g, const char *mark) {
  int n = (int)g->blocks.n;
  int *order = pp_xmalloc(sizeof(int) * (size_t)(n + 1));
  uint64_t *av = pp_xcalloc((size_t)n + 1, sizeof(uint64_t));
  int k = pp_graph_topo(g, order);
  for (int i = k - 1; i >= 0; i--) {
    int v = order[i];
    if (v == PP_EXIT) { av[v] = 1; continue; }
    if (mark[v] && v != PP_ENTRY) continue;
    PP_OUT_FOR(g, v, j) {
      const PPEdge *e = &g->edges.v[g->out_edges[j]];
      if (v == PP_ENTRY && mark[v] && e->kind != EK_DUMMY_ENTRY) continue;
      av[v] = pp_sat_add(av[v], av[e->dst]);
    }
  }
  free(order);
  return av;
}

/* Decodes the path's blocks (pp_path_blocks leaves the entry out of paths from a loop head, the
   rule pp_paths_avoiding counts by), so counts of executed and static paths agree. */
bool pp_path_runs_marked(const PPGraph *g, uint64_t id, const char *mark) {
  int *blocks = pp_xmalloc(sizeof(int) * (g->blocks.n + 1));
  bool from_loop, to_loop, runs = false;
  int nb = pp_path_blocks(g, id, blocks, (int)g->blocks.n + 1, &from_loop, &to_loop);
  for (int i = 0; i < nb && !runs; i++) runs = mark[blocks[i]];
  free(blocks);
  return runs;
}

/* Paths through excluded blocks: all paths less those that avoid them, and the executed ones
   among them, by the same count and entry rule as --diff's paths (a shared mechanism, so an
   excluded entry cannot take out more paths than the executed ones it leaves out). */
static void exclude_paths(const PPCoverage *c, PPCovFunc *fn) {
  const PPGraph *g = &fn->f->g;
  if (fn->view->edges || !g->out_start) return;
  char *ex = pp_coverage_excluded_blocks(c, fn);
  bool any = false;
  for (size_t b = 0; b < g->blocks.n && !any; b++) any = ex[b];
  if (any) {
    uint64_t *av = pp_paths_avoiding(g, ex);
    fn->paths_excl = g->npaths - (av[PP_ENTRY] < g->npaths ? av[PP_ENTRY] : g->npaths);
    for (size_t i = 0; i < fn->view->n; i++) fn->paths_excl_hit += pp_path_runs_marked(g, fn->view->paths[i].id, ex);
    free(av);
  }
  free(ex);
}

void pp_coverage_exclude(PPCoverage *c) {
  for (size_t i = 0; i < c->files.n; i++) mark_file(&c->files.v[i]);
  for (size_t i = 0; i < c->files.n; i++) {
    PPCovFile *f = &c->files.v[i];
    for (size_t k = 0; k < f->branches.n; k++) {
      PPCovBranch *b = &f->branches.v[k];
      if (b->line > f->nlines || !(f->lines[b->line].excluded || f->lines[b->line].br_excluded)) continue;
      b->excluded = true;
      PPCovFunc *fn = &c->funcs.v[b->func];
      fn->branches_total--;
      fn->branches_hit -= b->count > 0;
      fn->branches_excl++;
    }
  }
  for (size_t i = 0; i < c->funcs.n; i++) {
    PPCovFunc *fn = &c->funcs.v[i];
    PPCovFile *f = &c->files.v[fn->file];
    fn->excluded = fn->name_line <= f->nlines && f->lines[fn->name_line].excluded;
    for (unsigned ln = fn->f->line; ln <= fn->f->end_line && ln <= f->nlines; ln++)
      if (f->lines[ln].exists && f->lines[ln].excluded && fn->lines_total) {
        fn->lines_excl++;
        fn->lines_total--;
        fn->lines_hit -= f->lines[ln].count > 0 && fn->lines_hit;
      }
    exclude_paths(c, fn);
  }
}
