/* pathprof coverage --format html: a self-contained HTML report directory (inline CSS and JS, no
   network): an index of files and functions, annotated source per file, and per function its
   hot paths (choosing one highlights its lines and CFG edges) and a CFG picture. */
#include "formats.h"
#include "htmlmcdc.h"
#include "mcdcfmt.h"
#include "primefmt.h"
#include "pathprof/diffcov.h"
#include "model/kipf.h"
#include "model/number.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HOT_PATHS 25      /* paths listed per function */
#define HOT_KPATHS 10     /* k-iteration paths listed per kpath function */
#define MAX_DRAWN 400     /* blocks beyond which the CFG is listed, not drawn */

static const char css[] =
  "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
  "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}th{background:#eee}"
  "td.name,th.name{text-align:left}tr:nth-child(even) td{background:#fafafa}"
  ".bar{display:inline-block;width:60px;height:9px;background:#e66;margin-right:4px}"
  ".bar i{display:block;height:9px;background:#4a4}"
  "pre,.src{font:12px/1.35 monospace}.src td{padding:0 6px;text-align:left;white-space:pre}"
  ".src td.n,.src td.c{text-align:right;color:#777}.src tr.hit td.c{color:#262}"
  ".src tr.miss td{background:#fdd}.src tr.part td.c{background:#ffd}.src tr.excl td{color:#999;font-style:italic}"
  "td.excl{color:#777}.src tr.sel td{background:#bdf!important}.src tr.uninst td{background:#eee;color:#666}"
  "p.uninst{background:#eee;padding:4px 8px}"
  ".src tr.chg td.n{box-shadow:inset 4px 0 #06c;color:#06c;font-weight:bold}"
  "ol.paths li{cursor:pointer;margin:1px 0}ol.paths li.sel{background:#bdf}ol.paths a{color:inherit;text-decoration:none}"
  "g.edge.sel path{stroke:#06c!important;stroke-width:5px!important}g.edge.sel polygon{stroke:#06c;fill:#06c}"
  "li.edge.sel{background:#bdf}.cfg{overflow:auto;max-height:80vh;border:1px solid #ddd}"
  "section{margin-bottom:1.5em}h2{font-size:1.1em;border-bottom:1px solid #ccc}"
  "#cfg,#source{display:inline-block;vertical-align:top;max-width:49%;margin-right:1%}"
  "a.mcdc{font:11px system-ui,sans-serif;padding:0 4px;border-radius:3px;background:#dfd;color:#262;text-decoration:none}"
  "a.mcdc.part{background:#fdb;color:#830}a.cmiss{background:#fc9;color:inherit;text-decoration:underline wavy #c60}"
  ".src tr.mc td.n{box-shadow:inset -4px 0 #f90}.dec{margin:1em 0}.dec h3{font-size:1em;margin:.3em 0}"
  "table.tt td.t{color:#262}table.tt td.f{color:#a22}table.tt td.x{color:#aaa}tr.cond.missing td{background:#fed}"
  ".dec:target{outline:2px solid #06c}";

/* Selecting a path: #path=ID in the URL (so a headless browser's --dump-dom shows the choice) or a click. */
static const char script[] =
  "function pick(id){document.querySelectorAll('.sel').forEach(function(x){x.classList.remove('sel');});"
  "var p=document.getElementById('p'+id);if(!p)return;p.classList.add('sel');"
  "p.getAttribute('data-lines').split(' ').forEach(function(n){var r=document.getElementById('L'+n);if(r)r.classList.add('sel');});"
  "p.getAttribute('data-edges').split(' ').forEach(function(e){var g=document.getElementById(e);if(g)g.classList.add('sel');});"
  "document.body.setAttribute('data-path',id);}"
  "function fromHash(){var m=/path=(k?\\d+)/.exec(location.hash);if(m)pick(m[1]);}"
  "window.addEventListener('hashchange',fromHash);document.addEventListener('DOMContentLoaded',fromHash);";

/* ---- small writers ---- */


static void head(FILE *o, const char *title, bool js) {
  fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", o);
  pp_fputs_xml(o, title);
  fprintf(o, "</title><style>%s</style>%s%s%s</head>\n<body>\n", css, js ? "<script>" : "", js ? script : "", js ? "</script>" : "");
}

/* "hit/total pct%" as a table cell with a bar; "-" when there is nothing to cover. */
static void cell(FILE *o, uint64_t hit, uint64_t total) {
  if (!total) { fputs("<td>-</td>", o); return; }
  double r = (double)hit / (double)total;
  fprintf(o, "<td><span class=\"bar\"><i style=\"width:%.0f%%\"></i></span>%" PRIu64 "/%" PRIu64 " %.1f%%</td>", 100 * r, hit,
          total, 100 * r);
}

static void sum_cells(FILE *o, const PPCovSum *s) {
  cell(o, s->lines_hit, s->lines);
  cell(o, s->funcs_hit, s->funcs);
  cell(o, s->blocks_hit, s->blocks);
  cell(o, s->edges_hit, s->edges);
  cell(o, s->br_hit, s->br);
  cell(o, s->paths_hit, s->paths);
  if (s->lines_excl || s->funcs_excl || s->br_excl || s->paths_excl)
    fprintf(o, "<td class=\"excl\">%" PRIu64 " lines, %" PRIu64 " functions, %" PRIu64 " branches, %" PRIu64 " paths</td>",
            s->lines_excl, s->funcs_excl, s->br_excl, s->paths_excl);
  else fputs("<td>-</td>", o);
}

/* A function's lines, blocks, edges, branches and paths cells. */
static void func_cells(FILE *o, const PPCovFunc *fn) {
  cell(o, fn->lines_hit, fn->lines_total);
  cell(o, fn->blocks_hit, fn->blocks_total);
  cell(o, fn->edges_hit, fn->edges_total);
  cell(o, fn->branches_hit, fn->branches_total);
  if (fn->view->edges) fputs("<td>edge mode</td>", o);
  else cell(o, fn->paths_executed, fn->f->g.npaths);
}

/* ---- annotated source ---- */

/* With --diff, the change whose lines source rows mark (class chg); NULL otherwise. */
static const PPDiff *marks;

/* Rows first..last of file f: line number, count (gcov's marks), source. */
static void source_rows(FILE *o, const PPCoverage *c, const PPCovFile *f, unsigned first, unsigned last) {
  PPHtmlMcdc *mc = pp_html_mcdc_open(c, (int)(f - c->files.v));  /* MC/DC marks, with decision tables */
  fputs("<table class=\"src\">\n", o);
  for (unsigned ln = first; ln <= last; ln++) {
    const PPCovLine *l = ln <= f->nlines ? &f->lines[ln] : NULL;
    const char *cls = l && l->uninstrumented ? "uninst" : !l || !l->exists ? "none" : l->excluded ? "excl"
                      : !l->count ? "miss" : l->unexecuted_block ? "part" : "hit";
    bool chg = marks && pp_diff_changed(marks, (int)(f - c->files.v), ln);
    fprintf(o, "<tr id=\"L%u\" class=\"%s%s%s\"><td class=\"n\">%u</td><td class=\"c\">", ln, cls, chg ? " chg" : "",
            pp_html_mcdc_row_missing(mc, ln) ? " mc" : "", ln);
    if (l && l->uninstrumented) fputs("<span title=\"not instrumented\">n/i</span>", o);
    else if (l && l->exists && l->excluded) fprintf(o, "excl %" PRIu64, l->count);
    else if (l && l->exists) {
      if (l->count) fprintf(o, "%" PRIu64 "%s", l->count, l->unexecuted_block ? "*" : "");
      else fputs("#####", o);
    }
    fputs("</td><td>", o);
    for (size_t k = 0; k < f->funcs.n; k++) {  /* a function's first line links to its page */
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      if (fn->f->line == ln) fprintf(o, "<a name=\"fn%d\" href=\"f%d.html\">&#9654;</a> ", f->funcs.v[k], f->funcs.v[k]);
    }
    if (mc) pp_html_mcdc_source(o, mc, f, ln);
    else if (f->src && ln <= f->nsrc) pp_fputs_xml(o, f->src[ln]);
    fputs("</td></tr>\n", o);
  }
  fputs("</table>\n", o);
  pp_html_mcdc_close(mc);
}

/* File i's functions pathcc could not instrument, with their reasons; their lines are marked
   n/i (class uninst) and count in no total. */
static void uninstrumented(FILE *o, const PPCoverage *c, size_t i, const PPCovSum *s) {
  if (!s->funcs_uninst) return;
  fprintf(o, "<p class=\"uninst\">Not instrumented: %" PRIu64 " function%s, %" PRIu64 " lines marked n/i, in no total:",
          s->funcs_uninst, s->funcs_uninst > 1 ? "s" : "", s->lines_uninst);
  for (size_t k = 0, n = 0; k < c->uninst.n; k++) {
    const PPCovUninst *u = &c->uninst.v[k];
    if (u->file != (int)i) continue;
    fprintf(o, "%s <a href=\"#L%u\">", n++ ? ";" : "", u->line);
    pp_fputs_xml(o, u->name);
    fprintf(o, "</a> (line %u): ", u->line);
    pp_fputs_xml(o, u->why);
  }
  fputs("</p>\n", o);
}

static void file_page(FILE *o, const PPCoverage *c, size_t i) {
  const PPCovFile *f = &c->files.v[i];
  PPCovSum s = {0};
  pp_coverage_sum_file(c, f, &s);
  head(o, pp_base_name(pp_coverage_file_name(f)), false);
  fputs("<p><a href=\"index.html\">index</a></p>\n<h1>", o);
  pp_fputs_xml(o, pp_coverage_file_name(f));
  fprintf(o, "</h1>\n<table><tr><th>lines</th><th>functions</th><th>blocks</th><th>edges</th><th>branches</th><th>paths</th>"
          "<th>excluded</th>%s</tr><tr>", c->mcdc ? "<th>MC/DC conditions</th>" : "");
  sum_cells(o, &s);
  if (c->mcdc) {
    PPMcdcSum ms = {0};
    pp_mcdc_sum_file(c->mcdc, (int)i, &ms);
    cell(o, ms.cond_hit, ms.cond);
  }
  fputs("</tr></table>\n", o);
  uninstrumented(o, c, i, &s);
  if (!f->src) fputs("<p>The source file was not found; lines with code are listed without their text.</p>\n", o);
  source_rows(o, c, f, 1, f->src ? f->nsrc : f->nlines);
  pp_html_mcdc_section(o, c, (int)i);
  fputs("</body></html>\n", o);
}

/* ---- a function's page: sections in order; add one by adding to fn_sections ---- */

typedef struct {
  const PPCoverage *c;
  const PPCovFunc *fn;
  const PPCovFile *file;
  int index;            /* in c->funcs: the page is f<index>.html */
  const char *dir;      /* the report's directory (for scratch files) */
} FnPage;

static bool cfg_kind(const PPEdge *e) { return e->kind == EK_NORMAL || e->kind == EK_EXIT || e->kind == EK_BACK || e->kind == EK_CUT; }

/* The CFG edges a path runs along (a path that ends at a latch also takes its back/cut edges),
   as "e3 e7", and its lines in the function's own file, as "12 13 14". */
static void path_marks(const FnPage *p, uint64_t id, PPStr *edges, PPStr *lines) {
  const PPGraph *g = &p->fn->f->g;
  int *es = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  int k = pp_number_decode(g, id, es, (int)g->edges.n + 1);
  char *on = pp_xcalloc(p->file->nlines + 2, 1);
  for (int i = 0; i < k; i++) {
    const PPEdge *e = &g->edges.v[es[i]];
    if (cfg_kind(e)) pp_str_addf(edges, "%se%d", edges->n ? " " : "", es[i]);
    if (e->kind == EK_DUMMY_EXIT)
      for (size_t j = 0; j < g->edges.n; j++)
        if ((g->edges.v[j].kind == EK_BACK || g->edges.v[j].kind == EK_CUT) && g->edges.v[j].src == e->src)
          pp_str_addf(edges, "%se%zu", edges->n ? " " : "", j);
    int blocks[2] = { e->src, e->dst };
    for (int b = 0; b < 2; b++) {
      if (b == 0 && e->kind == EK_DUMMY_ENTRY) continue;  /* the entry is not on a path from a loop head */
      const PPBlock *bl = &g->blocks.v[blocks[b]];
      for (size_t r = 0; r < bl->lines.n; r++)
        if (bl->lines.v[r].file == p->fn->f->file)
          for (unsigned ln = bl->lines.v[r].first; ln <= bl->lines.v[r].last && ln <= p->file->nlines; ln++) on[ln] = 1;
    }
  }
  for (unsigned ln = 1; ln <= p->file->nlines; ln++)
    if (on[ln]) pp_str_addf(lines, "%s%u", lines->n ? " " : "", ln);
  if (!edges->s) pp_str_add(edges, "");
  if (!lines->s) pp_str_add(lines, "");
  free(on);
  free(es);
}

static void sec_summary(FILE *o, const FnPage *p) {
  const PPCovFunc *fn = p->fn;
  fputs("<section id=\"summary\"><table><tr><th>calls</th><th>lines</th><th>blocks</th><th>edges</th><th>branches</th><th>paths</th>"
        "</tr><tr>", o);
  fprintf(o, "<td>%" PRIu64 "</td>", fn->calls);
  func_cells(o, fn);
  fputs("</tr></table></section>\n", o);
}

static void sec_paths(FILE *o, const FnPage *p) {
  const PPFuncView *v = p->fn->view;
  fputs("<section id=\"hot\"><h2>Hot paths</h2>\n", o);
  if (v->edges) { fputs("<p>Built with <code>--mode=edge</code>: edges are counted, paths are not.</p></section>\n", o); return; }
  if (!v->n) { fputs("<p>No path of this function ran.</p></section>\n", o); return; }
  fputs("<p>Choose a path to highlight its lines and edges.</p>\n<ol class=\"paths\">\n", o);
  for (size_t i = 0; i < v->n && i < HOT_PATHS; i++) {
    PPStr edges = {0}, lines = {0};
    path_marks(p, v->paths[i].id, &edges, &lines);
    char *text = pp_path_lines(&v->u->tab, p->fn->f, v->paths[i].id);
    fprintf(o, "<li class=\"path\" id=\"p%" PRIu64 "\" data-lines=\"%s\" data-edges=\"%s\"><a href=\"#path=%" PRIu64 "\">"
            "<b>%" PRIu64 "</b> (%.1f%%) #%" PRIu64 ": ", v->paths[i].id, lines.s, edges.s, v->paths[i].id, v->paths[i].count,
            v->total ? 100.0 * (double)v->paths[i].count / (double)v->total : 0.0, v->paths[i].id);
    pp_fputs_xml(o, text);
    fputs("</a></li>\n", o);
    free(text); free(edges.s); free(lines.s);
  }
  fputs("</ol>\n", o);
  if (v->n > HOT_PATHS) fprintf(o, "<p>%zu more executed paths (pathprof report --function NAME --top N lists them).</p>\n", v->n - HOT_PATHS);
  fputs("</section>\n", o);
}

/* Activations that never finished: their partial paths, each the prefix of a path up to the
   call it stopped in (a negative count takes a prefix back). */
static void sec_partials(FILE *o, const FnPage *p) {
  const PPFuncView *v = p->fn->view;
  if (!v->nparts) return;
  fprintf(o, "<section id=\"partial\"><h2>Partial paths</h2>\n<p>%" PRId64 " activation%s never finished (exit, a crash, "
          "longjmp, exec or pthread_exit while it ran): each counts its lines up to where it stopped.</p>\n<ol class=\"partials\">\n",
          p->fn->unfinished, p->fn->unfinished == 1 ? "" : "s");
  for (size_t i = 0; i < v->nparts && i < HOT_PATHS; i++) {
    char *text = pp_partial_lines(&v->u->tab, p->fn->f, &v->parts[i]);
    fprintf(o, "<li class=\"partial\"><b>%" PRId64 "</b> #%" PRIu64 ": ", v->parts[i].count, v->parts[i].id);
    pp_fputs_xml(o, text);
    fputs("</li>\n", o);
    free(text);
  }
  fputs("</ol></section>\n", o);
}

/* kpath builds: the hottest paths of k iterations from the function's forest (as pathprof
   kpaths shows them); choosing one highlights the lines and edges of all its iterations. */
static void sec_kpaths(FILE *o, const FnPage *p) {
  const PPFuncView *v = p->fn->view;
  if (!p->fn->f->kpath) return;
  const struct pp_forest *ksf = pp_profile_forest(v->u->prof, v->u->rec->checksum, (unsigned long long)v->fn);
  fputs("<section id=\"kpaths\"><h2>Hot k-iteration paths</h2>\n", o);
  if (!ksf || !ksf->nnodes) { fputs("<p>No path of this function ran.</p></section>\n", o); return; }
  PPKipf t;
  pp_kipf_build(ksf, (unsigned)ksf->k, &t);
  size_t n;
  int *hot = pp_kipf_ranked(&t, -1, (int)t.k - 1, &n);
  uint64_t total = 0, ids[64];
  for (size_t i = 0; i < n; i++) total = pp_sat_add(total, t.nodes.v[hot[i]].count);
  if (!n) fprintf(o, "<p>No activation of this function ran %u paths in a row.</p>\n", t.k);
  else fprintf(o, "<p>Consecutive paths of one activation, %u at a time%s. Choose one to highlight all its iterations.</p>\n"
          "<ol class=\"paths\">\n", t.k, v->copies > 1 ? " (from the first unit it was compiled into)" : "");
  for (size_t i = 0; i < n && i < HOT_KPATHS; i++) {
    const PPKNode *x = &t.nodes.v[hot[i]];
    PPStr edges = {0}, lines = {0};
    int m = pp_kipf_ngram(&t, hot[i], ids, 64);
    for (int j = 0; j < m; j++) path_marks(p, ids[j], &edges, &lines);
    fprintf(o, "<li class=\"path\" id=\"pk%zu\" data-lines=\"%s\" data-edges=\"%s\"><a href=\"#path=k%zu\"><b>%" PRIu64
            "</b> (%.1f%%)", i, lines.s ? lines.s : "", edges.s ? edges.s : "", i, x->count, 100.0 * (double)x->count / (double)total);
    for (int j = 0; j < m; j++) {
      char *text = pp_path_lines(&v->u->tab, p->fn->f, ids[j]);
      fprintf(o, "<br>%s #%" PRIu64 ": ", j ? "then" : "&nbsp;", ids[j]);
      pp_fputs_xml(o, text);
      free(text);
    }
    fputs("</a></li>\n", o);
    free(edges.s); free(lines.s);
  }
  if (n) fputs("</ol>\n", o);
  if (n > HOT_KPATHS) fprintf(o, "<p>%zu more (pathprof kpaths --function NAME --top N lists them).</p>\n", n - HOT_KPATHS);
  if (ksf->dropped) fprintf(o, "<p>%llu path ids found no memory for their forest nodes and are not counted here.</p>\n", ksf->dropped);
  fputs("</section>\n", o);
  free(hot);
  pp_kipf_free(&t);
}

/* "B3 12-13" for a block: its number and its lines in the function's file. */
static char *block_label(const FnPage *p, int b) {
  const PPBlock *bl = &p->fn->f->g.blocks.v[b];
  PPStr s = {0};
  pp_str_add(&s, b == PP_ENTRY ? "entry" : b == PP_EXIT ? "exit" : "");
  if (b > PP_EXIT) pp_str_addf(&s, "B%d", b);
  for (size_t r = 0; r < bl->lines.n; r++) {
    const PPLines *l = &bl->lines.v[r];
    if (l->first == l->last) pp_str_addf(&s, " %u", l->first);
    else pp_str_addf(&s, " %u-%u", l->first, l->last);
  }
  return pp_str_take(&s);
}

/* Edge width grows with the log of its count. */
static double width(uint64_t n, uint64_t max) {
  return n ? 1.0 + 5.0 * log((double)n + 1) / log((double)max + 2) : 0.6;
}

/* Graphviz's dot, found once before the pages are written (they are written by several threads). */
static const char *dot_path;

static const char *dot_program(void) { return dot_path; }

static const char *find_dot(void) {
  const char *e = getenv("PATHPROF_DOT");
  if (e) return *e ? e : NULL;
  const char *path = getenv("PATH");
  if (!path) return NULL;
  char *copy = pp_xstrdup(path), *save = NULL;
  static char found[4096];
  const char *r = NULL;
  for (char *d = strtok_r(copy, ":", &save); d && !r; d = strtok_r(NULL, ":", &save)) {
    snprintf(found, sizeof found, "%s/dot", *d ? d : ".");
    if (access(found, X_OK) == 0) r = found;
  }
  free(copy);
  return r;
}

/* Runs dot on a DOT file; returns the SVG text (prolog and doctype cut) or NULL. */
static char *run_dot(const char *dot, const char *in, const char *out) {
  pid_t pid = fork();
  if (pid == 0) {
    execlp(dot, dot, "-Tsvg", "-o", out, in, (char *)NULL);
    _exit(127);
  }
  int st;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) return NULL;
  size_t n;
  char *svg = pp_read_file(out, &n), *at = svg ? strstr(svg, "<svg") : NULL;
  if (!at) { free(svg); return NULL; }
  char *r = pp_xstrdup(at);
  free(svg);
  return r;
}

static void cfg_list(FILE *o, const FnPage *p, const char *why) {
  const PPGraph *g = &p->fn->f->g;
  char **label = pp_xcalloc(g->blocks.n + 1, sizeof *label);  /* each block's, made once */
  fprintf(o, "<p>%s</p>\n<ul class=\"cfg-list\">\n", why);
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (!cfg_kind(e) || !g->blocks.v[e->src].live) continue;
    if (!label[e->src]) label[e->src] = block_label(p, e->src);
    if (!label[e->dst]) label[e->dst] = block_label(p, e->dst);
    fprintf(o, "<li class=\"edge\" id=\"e%zu\">", i);
    pp_fputs_xml(o, label[e->src]);
    fputs(" &rarr; ", o);
    pp_fputs_xml(o, label[e->dst]);
    fprintf(o, " (%s): %" PRIu64 "</li>\n", pp_edge_kind_name(e->kind), p->fn->edges[i]);
  }
  fputs("</ul>\n", o);
  for (size_t b = 0; b < g->blocks.n; b++) free(label[b]);
  free(label);
}

static void sec_cfg(FILE *o, const FnPage *p) {
  const char *dir = p->dir;
  const PPGraph *g = &p->fn->f->g;
  const char *dot = dot_program();
  fputs("<section id=\"cfg\"><h2>Control flow</h2>\n", o);
  if (!dot) { cfg_list(o, p, "Graphviz <code>dot</code> is not installed: the edges and their counts."); fputs("</section>\n", o); return; }
  if (g->blocks.n > MAX_DRAWN) { cfg_list(o, p, "Too many blocks to draw: the edges and their counts."); fputs("</section>\n", o); return; }
  uint64_t max = 0;
  for (size_t i = 0; i < g->edges.n; i++)
    if (cfg_kind(&g->edges.v[i]) && p->fn->edges[i] > max) max = p->fn->edges[i];
  char *in = pp_xasprintf("%s/.f%d.dot", dir, p->index), *out = pp_xasprintf("%s/.f%d.svg", dir, p->index);
  FILE *d = fopen(in, "w");
  char *svg = NULL;
  if (d) {
    fputs("digraph cfg {\n node [shape=box, fontname=\"monospace\", fontsize=10];\n edge [fontname=\"monospace\", fontsize=9];\n", d);
    for (size_t b = 0; b < g->blocks.n; b++) {
      if (!g->blocks.v[b].live) continue;
      char *l = block_label(p, (int)b);
      fprintf(d, " b%zu [id=\"b%zu\", label=\"%s\\n%" PRIu64 "\"%s];\n", b, b, l, p->fn->blocks[b],
              p->fn->blocks[b] ? "" : ", color=\"#cc4444\"");
      free(l);
    }
    for (size_t i = 0; i < g->edges.n; i++) {
      const PPEdge *e = &g->edges.v[i];
      if (!cfg_kind(e) || !g->blocks.v[e->src].live) continue;
      uint64_t n = p->fn->edges[i];
      fprintf(d, " b%d -> b%d [id=\"e%zu\", label=\"%" PRIu64 "\", penwidth=%.2f, color=\"%s\"%s];\n", e->src, e->dst, i, n,
              width(n, max), n ? "#338833" : "#cc4444", e->kind == EK_BACK || e->kind == EK_CUT ? ", style=dashed, constraint=false" : "");
    }
    fputs("}\n", d);
    if (fclose(d) == 0) svg = run_dot(dot, in, out);
  }
  remove(in);
  remove(out);
  free(in); free(out);
  if (svg) {
    fprintf(o, "<div class=\"cfg\">%s</div>\n", svg);
    fputs("<p>Blocks show their lines and executions; edge width grows with the count, red never ran, dashed edges go back.</p>\n", o);
  } else cfg_list(o, p, "Graphviz <code>dot</code> failed on this graph: the edges and their counts.");
  free(svg);
  fputs("</section>\n", o);
}

static void sec_source(FILE *o, const FnPage *p) {
  unsigned last = p->fn->f->end_line;
  if (p->file->src && last > p->file->nsrc) last = p->file->nsrc;
  fputs("<section id=\"source\"><h2>Source</h2>\n", o);
  source_rows(o, p->c, p->file, p->fn->f->line, last);
  fputs("</section>\n", o);
}

/* With --prime-paths: the function's prime paths and their counts. */
static void sec_prime(FILE *o, const FnPage *p) {
  if (p->c->primes) pp_prime_html(o, p->c, p->c->primes, p->index);
}

/* The sections of a function's page, top to bottom. */
static void (*const fn_sections[])(FILE *, const FnPage *) = { sec_summary, sec_paths, sec_partials, sec_kpaths, sec_prime,
                                                                sec_cfg, sec_source };

static void function_page(FILE *o, const PPCoverage *c, int i, const char *dir) {
  FnPage p = { c, &c->funcs.v[i], &c->files.v[c->funcs.v[i].file], i, dir };
  head(o, p.fn->f->name, true);
  fprintf(o, "<p><a href=\"index.html\">index</a> &middot; <a href=\"s%d.html#fn%d\">", p.fn->file, i);
  pp_fputs_xml(o, pp_base_name(pp_coverage_file_name(p.file)));
  fputs("</a></p>\n<h1>", o);
  pp_fputs_xml(o, p.fn->f->name);
  fprintf(o, " <small>(%s:%u-%u)</small></h1>\n", pp_base_name(pp_coverage_file_name(p.file)), p.fn->f->line, p.fn->f->end_line);
  for (size_t k = 0; k < sizeof fn_sections / sizeof *fn_sections; k++) fn_sections[k](o, &p);
  fputs("</body></html>\n", o);
}

/* ---- the directory ---- */

/* Writes one page through a temporary name, so a reader never sees half of it. */
typedef enum { PAGE_INDEX, PAGE_FILE, PAGE_FUNCTION } PageKind;

static int write_page(const char *dir, const char *name, PageKind k, const PPCoverage *c, size_t i, const char *profile) {
  char *path = pp_xasprintf("%s/%s", dir, name), *tmp = pp_xasprintf("%s.tmp.%ld", path, (long)getpid());
  FILE *o = fopen(tmp, "w");
  int rc = 0;
  if (!o) rc = -1;
  else {
    if (k == PAGE_INDEX) pp_html_index(o, c, profile, marks);
    else if (k == PAGE_FILE) file_page(o, c, i);
    else function_page(o, c, (int)i, dir);
    bool bad = fflush(o) != 0 || ferror(o);
    if (fclose(o) || bad || rename(tmp, path)) rc = -1;
  }
  if (rc) {
    fprintf(stderr, "pathprof coverage: cannot write %s: %s\n", path, strerror(errno));
    remove(tmp);
  }
  free(path); free(tmp);
  return rc;
}

/* The pages to write, shared by the writers: file pages first, then function pages. */
typedef struct {
  const PPCoverage *c;
  const char *profile, *dir;
  size_t next;              /* the next page to take */
  int rc;
  pthread_mutex_t lock;
} Pages;

/* Takes pages one at a time and writes them; pages are independent files. */
static void *page_writer(void *arg) {
  Pages *w = arg;
  const PPCoverage *c = w->c;
  for (;;) {
    pthread_mutex_lock(&w->lock);
    size_t i = w->next++;
    int failed = w->rc;
    pthread_mutex_unlock(&w->lock);
    if (failed || i >= c->files.n + c->funcs.n) return NULL;
    bool file = i < c->files.n;
    size_t k = file ? i : i - c->files.n;
    if (marks && !pp_diff_file(marks, file ? (int)k : c->funcs.v[k].file)) continue;  /* --diff: the changed files only */
    char *n = pp_xasprintf(file ? "s%zu.html" : "f%zu.html", k);
    int rc = write_page(w->dir, n, file ? PAGE_FILE : PAGE_FUNCTION, c, k, w->profile);
    free(n);
    if (rc) {
      pthread_mutex_lock(&w->lock);
      w->rc = rc;
      pthread_mutex_unlock(&w->lock);
    }
  }
}

int pp_html_write(const PPCoverage *c, const char *profile, const char *dir, const PPDiff *d) {
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "pathprof coverage: cannot create directory %s: %s\n", dir, strerror(errno));
    return -1;
  }
  marks = d;
  dot_path = find_dot();
  int rc = write_page(dir, "index.html", PAGE_INDEX, c, 0, profile);
  Pages w = { c, profile, dir, 0, rc, PTHREAD_MUTEX_INITIALIZER };
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t n = cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus, started = 0;
  pthread_t t[8];
  for (size_t i = 1; i < n; i++)  /* one writer per processor, this thread too */
    if (!pthread_create(&t[started], NULL, page_writer, &w)) started++;
  page_writer(&w);
  for (size_t i = 0; i < started; i++) pthread_join(t[i], NULL);
  marks = NULL;
  return w.rc;
}
