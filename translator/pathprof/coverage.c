/* Coverage derived exactly from path counts (doc/coverage-json.md explains the model).

   Counts. A block's count is the number of executed paths through it: an acyclic path visits a
   block at most once, and every block execution belongs to exactly one path. Edge counts come the
   same way from the decoded edge sequence. A back or cut edge u->h is not on any path: it ends a
   path at u (dummy-exit u->exit) and starts the next at h (dummy-entry entry->h). When u has one
   back/cut edge its traversals are the paths ending at u; otherwise the headers' path starts are
   used to tell them apart (leaves of the latch/header graph first), and what still cannot be told
   apart marks the function ambiguous. */
#include "covint.h"
#include "uninst.h"
#include "model/number.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the function's counts ---- */

bool cov_cfg_edge(const PPEdge *e) { return e->kind == EK_NORMAL || e->kind == EK_EXIT || e->kind == EK_BACK || e->kind == EK_CUT; }

bool cov_edge_dead(const PPGraph *g, const PPEdge *e) { return !g->blocks.v[e->src].live; }

/* Back/cut edge counts from the paths ending at each latch and starting at each header. */
static void settle_back_edges(PPCovFunc *c, uint64_t *dexit, uint64_t *dentry) {
  const PPGraph *g = &c->f->g;
  size_t m = g->edges.n;
  char *open = pp_xcalloc(m, 1);
  size_t left = 0;
  for (size_t i = 0; i < m; i++) {
    const PPEdge *e = &g->edges.v[i];
    if ((e->kind == EK_BACK || e->kind == EK_CUT) && !cov_edge_dead(g, e)) { open[i] = 1; left++; }
  }
  while (left) {
    bool progress = false;
    for (int side = 0; side < 2 && !progress; side++)  /* latches first: their counts are complete */
      for (size_t i = 0; i < m; i++) {
        if (!open[i]) continue;
        const PPEdge *e = &g->edges.v[i];
        int node = side ? e->dst : e->src, others = 0;
        for (size_t j = 0; j < m; j++)
          if (open[j] && j != i && (side ? g->edges.v[j].dst : g->edges.v[j].src) == node) others++;
        if (others) continue;
        uint64_t v = side ? dentry[e->dst] : dexit[e->src];
        c->edges[i] = v;
        dexit[e->src] -= v < dexit[e->src] ? v : dexit[e->src];
        dentry[e->dst] -= v < dentry[e->dst] ? v : dentry[e->dst];
        open[i] = 0;
        left--;
        progress = true;
      }
    if (!progress) {  /* a cycle of latches and headers: the split is not determined */
      c->ambiguous = true;
      for (size_t i = 0; i < m; i++) {
        if (!open[i]) continue;
        const PPEdge *e = &g->edges.v[i];
        uint64_t v = dexit[e->src] < dentry[e->dst] ? dexit[e->src] : dentry[e->dst];
        c->edges[i] = v;
        dexit[e->src] -= v;
        dentry[e->dst] -= v;
        open[i] = 0;
        left--;
      }
    }
  }
  free(open);
}

/* The partial paths: each prefix counts its blocks and edges up to the block it stopped in, and
   its start (a call, or a path from a loop header); it ends nowhere. Those taking prefixes back
   (negative counts) come last, after everything they take back was added. */
static void count_partials(PPCovFunc *c, uint64_t *dentry) {
  const PPGraph *g = &c->f->g;
  int *es = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < c->view->nparts; i++) {
      const PPPartial *p = &c->view->parts[i];
      if ((p->count < 0) != (pass == 1)) continue;
      int k = pp_partial_edges(c->f, p, es, (int)g->edges.n + 1), v = pp_partial_block(c->f, p->site);
      if (k < 0) { c->bad_ids = pp_sat_add(c->bad_ids, (uint64_t)(p->count < 0 ? -p->count : p->count)); continue; }
      c->unfinished += p->count;
      if (k == 0 && (p->site & PP_SITE_BEFORE)) {  /* nothing before the setjmp's block but the start */
        if (v == PP_ENTRY) pp_sat_add_signed(&c->calls, p->count);
        else pp_sat_add_signed(&dentry[v], p->count);
        continue;
      }
      if (k > 0 && g->edges.v[es[0]].kind == EK_DUMMY_ENTRY) pp_sat_add_signed(&dentry[g->edges.v[es[0]].dst], p->count);
      else {
        pp_sat_add_signed(&c->calls, p->count);
        pp_sat_add_signed(&c->blocks[PP_ENTRY], p->count);
      }
      for (int j = 0; j < k; j++) {
        pp_sat_add_signed(&c->edges[es[j]], p->count);
        pp_sat_add_signed(&c->blocks[g->edges.v[es[j]].dst], p->count);
      }
    }
  free(es);
}

/* Edge mode: the edge counts are given; a block counts the CFG edges into it, the entry the calls. */
static void count_from_edges(PPCovFunc *c) {
  const PPGraph *g = &c->f->g;
  size_t m = g->edges.n;
  memcpy(c->edges, c->view->edges, sizeof(uint64_t) * m);
  for (size_t i = 0; i < c->view->nparts; i++) c->unfinished += c->view->parts[i].count;
  c->calls = c->view->edges[m];
  c->blocks[PP_ENTRY] = c->calls;
  for (size_t i = 0; i < m; i++)
    if (cov_cfg_edge(&g->edges.v[i])) c->blocks[g->edges.v[i].dst] = pp_sat_add(c->blocks[g->edges.v[i].dst], c->edges[i]);
}

static void count_function(PPCovFunc *c) {
  const PPGraph *g = &c->f->g;
  size_t nb = g->blocks.n, m = g->edges.n;
  c->blocks = pp_xcalloc(nb, sizeof(uint64_t));
  c->edges = pp_xcalloc(m + 1, sizeof(uint64_t));
  if (c->view->edges) { count_from_edges(c); return; }
  uint64_t *dexit = pp_xcalloc(nb, sizeof(uint64_t)), *dentry = pp_xcalloc(nb, sizeof(uint64_t));
  int *es = pp_xmalloc(sizeof(int) * (m + 1));
  for (size_t i = 0; i < c->view->n; i++) {
    uint64_t n = c->view->paths[i].count;
    int k = pp_number_decode(g, c->view->paths[i].id, es, (int)m + 1);
    if (k <= 0) { c->bad_ids = pp_sat_add(c->bad_ids, n); continue; }
    c->paths_executed++;
    c->path_runs = pp_sat_add(c->path_runs, n);
    const PPEdge *first = &g->edges.v[es[0]], *last = &g->edges.v[es[k - 1]];
    if (first->kind == EK_DUMMY_ENTRY) dentry[first->dst] = pp_sat_add(dentry[first->dst], n);
    else {
      c->calls = pp_sat_add(c->calls, n);
      c->blocks[PP_ENTRY] = pp_sat_add(c->blocks[PP_ENTRY], n);
    }
    for (int j = 0; j < k; j++) {
      const PPEdge *e = &g->edges.v[es[j]];
      c->edges[es[j]] = pp_sat_add(c->edges[es[j]], n);
      if (e->dst != PP_EXIT) c->blocks[e->dst] = pp_sat_add(c->blocks[e->dst], n);
    }
    c->blocks[PP_EXIT] = pp_sat_add(c->blocks[PP_EXIT], n);
    if (last->kind == EK_DUMMY_EXIT) dexit[last->src] = pp_sat_add(dexit[last->src], n);
  }
  count_partials(c, dentry);
  settle_back_edges(c, dexit, dentry);
  free(es); free(dexit); free(dentry);
}

/* ---- putting it together ---- */

static int by_name(const void *a, const void *b) {
  const PPCovFile *x = a, *y = b;
  return strcmp(x->path ? x->path : x->name, y->path ? y->path : y->name);
}

static int by_line(const void *a, const void *b) {
  const PPCovBranch *x = a, *y = b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->func != y->func) return x->func - y->func;
  if (x->block != y->block) return x->block - y->block;
  return x->arm - y->arm;
}

static void branches(PPCoverage *cov, PPCovFunc *c, int fn, const VGraph *v) {
  const PPGraph *g = &c->f->g;
  for (size_t b = 0; b < g->blocks.n; b++) {
    if (!g->blocks.v[b].live || b == PP_EXIT) continue;
    int n = 0;
    for (size_t i = 0; i < g->edges.n; i++) n += g->edges.v[i].src == (int)b && cov_cfg_edge(&g->edges.v[i]);
    if (n < 2) continue;
    /* the decision's line: the last code line of its block, else the function's */
    const LRefs *ls = &v->b.v[b].lines;
    int file = c->file;
    unsigned line = c->name_line;
    if (ls->n) { file = ls->v[ls->n - 1].file; line = ls->v[ls->n - 1].line; }
    int arm = 0;
    for (size_t i = 0; i < g->edges.n; i++) {
      const PPEdge *e = &g->edges.v[i];
      if (e->src != (int)b || !cov_cfg_edge(e)) continue;
      PPCovBranch br = { fn, (int)b, (int)i, arm++, line, c->edges[i], c->blocks[b] > 0, false };
      VEC_PUSH(cov->files.v[file].branches, br);
      c->branches_total++;
      c->branches_hit += c->edges[i] > 0;
    }
  }
}

void pp_coverage_build(PPLoaded *l, PPCoverage *cov, bool gcov_nocode) {
  memset(cov, 0, sizeof *cov);
  cov->gcov_nocode = gcov_nocode;
  cov->loaded = l;
  cov->views = pp_program_functions(l, &cov->nviews);
  for (size_t i = 0; i < cov->nviews; i++) {
    PPCovFunc c;
    memset(&c, 0, sizeof c);
    c.view = &cov->views[i];
    c.t = &c.view->u->tab;
    c.f = &c.t->funcs.v[c.view->fn];
    c.file = cov_file_index(cov, c.t->files.v[c.f->file], c.view->u->tables_path);
    c.name_line = cov_name_line(&cov->files.v[c.file], c.f);
    count_function(&c);
    VEC_PUSH(cov->funcs, c);
  }
  VGraph *vgs = pp_xcalloc(cov->funcs.n + 1, sizeof *vgs);
  for (size_t i = 0; i < cov->funcs.n; i++) {
    cov_build_vgraph(cov, &cov->funcs.v[i], &vgs[i]);
    cov_contract(&vgs[i]);
  }
  /* the files' line tables are as long as their longest line reference */
  for (size_t i = 0; i < cov->funcs.n; i++) {
    PPCovFunc *c = &cov->funcs.v[i];
    cov_grow_lines(&cov->files.v[c->file], c->f->end_line);
    for (size_t b = 0; b < vgs[i].b.n; b++)
      for (size_t k = 0; k < vgs[i].b.v[b].lines.n; k++)
        cov_grow_lines(&cov->files.v[vgs[i].b.v[b].lines.v[k].file], vgs[i].b.v[b].lines.v[k].line);
  }
  cov_line_counts(cov, vgs);
  for (size_t i = 0; i < cov->funcs.n; i++) {
    PPCovFunc *c = &cov->funcs.v[i];
    const PPGraph *g = &c->f->g;
    for (size_t b = 0; b < g->blocks.n; b++)
      if (g->blocks.v[b].live && b != PP_EXIT) { c->blocks_total++; c->blocks_hit += c->blocks[b] > 0; }
    for (size_t e = 0; e < g->edges.n; e++)
      if (cov_cfg_edge(&g->edges.v[e]) && !cov_edge_dead(g, &g->edges.v[e])) { c->edges_total++; c->edges_hit += c->edges[e] > 0; }
    branches(cov, c, (int)i, &vgs[i]);
    /* the function's lines: those its blocks mention, in its own file */
    PPCovFile *f = &cov->files.v[c->file];
    char *seen = pp_xcalloc(f->nlines + 1, 1);
    for (size_t b = 0; b < vgs[i].b.n; b++) {
      if (!vgs[i].b.v[b].alive) continue;
      for (size_t k = 0; k < vgs[i].b.v[b].lines.n; k++) {
        LRef r = vgs[i].b.v[b].lines.v[k];
        if (r.file != c->file || seen[r.line]) continue;
        seen[r.line] = 1;
        c->lines_total++;
        c->lines_hit += f->lines[r.line].count > 0;
      }
    }
    free(seen);
    VEC_PUSH(f->funcs, (int)i);
  }
  for (size_t i = 0; i < cov->funcs.n; i++) {
    for (size_t b = 0; b < vgs[i].b.n; b++) VEC_FREE(vgs[i].b.v[b].lines);
    VEC_FREE(vgs[i].b);
    VEC_FREE(vgs[i].a);
  }
  free(vgs);
  pp_uninst_mark(cov);
  /* files by name; the functions' file indexes follow */
  size_t nf = cov->files.n;
  int *order = pp_xmalloc(sizeof(int) * (nf + 1)), *newpos = pp_xmalloc(sizeof(int) * (nf + 1));
  for (size_t i = 0; i < nf; i++) order[i] = (int)i;
  for (size_t i = 1; i < nf; i++)
    for (size_t j = i; j > 0 && by_name(&cov->files.v[order[j - 1]], &cov->files.v[order[j]]) > 0; j--) {
      int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
    }
  PPCovFile *sorted = pp_xmalloc(sizeof *sorted * (nf + 1));
  for (size_t i = 0; i < nf; i++) { sorted[i] = cov->files.v[order[i]]; newpos[order[i]] = (int)i; }
  if (nf) memcpy(cov->files.v, sorted, sizeof *sorted * nf);
  for (size_t i = 0; i < cov->funcs.n; i++) cov->funcs.v[i].file = newpos[cov->funcs.v[i].file];
  for (size_t i = 0; i < cov->uninst.n; i++) cov->uninst.v[i].file = newpos[cov->uninst.v[i].file];
  for (size_t i = 0; i < nf; i++) {
    PPCovFile *f = &cov->files.v[i];
    pp_sort(f->branches.v, f->branches.n, sizeof *f->branches.v, by_line);
    for (size_t a2 = 1; a2 < f->funcs.n; a2++)  /* functions by first line */
      for (size_t b2 = a2; b2 > 0 && cov->funcs.v[f->funcs.v[b2 - 1]].f->line > cov->funcs.v[f->funcs.v[b2]].f->line; b2--) {
        int t = f->funcs.v[b2]; f->funcs.v[b2] = f->funcs.v[b2 - 1]; f->funcs.v[b2 - 1] = t;
      }
  }
  free(order); free(sorted); free(newpos);
  cov_memo_free(cov->memo);  /* its indexes are from before the sort */
  cov->memo = NULL;
  pp_coverage_exclude(cov);
}

void pp_coverage_sum_file(const PPCoverage *c, const PPCovFile *f, PPCovSum *s) {
  for (unsigned ln = 1; ln <= f->nlines; ln++) {
    s->lines_uninst += f->lines[ln].uninstrumented;
    if (!f->lines[ln].exists) continue;
    if (f->lines[ln].excluded) { s->lines_excl++; continue; }
    s->lines++;
    s->lines_hit += f->lines[ln].count > 0;
  }
  for (size_t i = 0; i < c->uninst.n; i++) s->funcs_uninst += c->uninst.v[i].file == (int)(f - c->files.v);
  for (size_t i = 0; i < f->funcs.n; i++) {
    const PPCovFunc *fn = &c->funcs.v[f->funcs.v[i]];
    s->funcs++;  /* markers take out lines, branches and paths, not functions (as in gcovr) */
    s->funcs_hit += fn->calls > 0;
    s->funcs_excl += fn->excluded;
    s->blocks += fn->blocks_total; s->blocks_hit += fn->blocks_hit;
    s->edges += fn->edges_total; s->edges_hit += fn->edges_hit;
    s->br += fn->branches_total; s->br_hit += fn->branches_hit;
    s->br_excl += fn->branches_excl;
    if (fn->view->edges) continue;  /* edge mode counts no paths */
    s->paths = pp_sat_add(s->paths, fn->f->g.npaths - fn->paths_excl);
    s->paths_hit += fn->paths_executed - fn->paths_excl_hit;
    s->paths_excl = pp_sat_add(s->paths_excl, fn->paths_excl);
  }
}

void pp_coverage_sum_add(PPCovSum *a, const PPCovSum *b) {
  a->lines += b->lines; a->lines_hit += b->lines_hit; a->funcs += b->funcs; a->funcs_hit += b->funcs_hit;
  a->blocks += b->blocks; a->blocks_hit += b->blocks_hit; a->edges += b->edges; a->edges_hit += b->edges_hit;
  a->br += b->br; a->br_hit += b->br_hit; a->paths = pp_sat_add(a->paths, b->paths); a->paths_hit += b->paths_hit;
  a->lines_excl += b->lines_excl; a->funcs_excl += b->funcs_excl; a->br_excl += b->br_excl;
  a->paths_excl = pp_sat_add(a->paths_excl, b->paths_excl);
  a->lines_uninst += b->lines_uninst; a->funcs_uninst += b->funcs_uninst;
}

void pp_coverage_free(PPCoverage *c) {
  for (size_t i = 0; i < c->funcs.n; i++) { free(c->funcs.v[i].blocks); free(c->funcs.v[i].edges); }
  VEC_FREE(c->funcs);
  for (size_t i = 0; i < c->files.n; i++) {
    PPCovFile *f = &c->files.v[i];
    free(f->name); free(f->path); free(f->text); free(f->src); free(f->lines);
    VEC_FREE(f->funcs);
    VEC_FREE(f->branches);
  }
  VEC_FREE(c->files);
  VEC_FREE(c->uninst);
  cov_memo_free(c->memo);
  pp_program_free(c->views, c->nviews);
  memset(c, 0, sizeof *c);
}

const char *pp_coverage_file_name(const PPCovFile *f) { return f->path ? f->path : f->name; }
