/* pathprof coverage --format json: the whole coverage model as JSON (doc/coverage-json.md). */
#include "formats.h"
#include "mcdcfmt.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <jansson.h>
#include <time.h>

/* Clamped, not wrapped (formats.h). */
json_t *pp_json_count(uint64_t v) { return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v); }

/* One shape for every pair, so readers of any JSON report parse them alike (formats.h). */
json_t *pp_json_ratio(uint64_t hit, uint64_t total) {
  return json_pack("{s:o, s:o}", "total", pp_json_count(total), "covered", pp_json_count(hit));
}

static json_t *jsum(const PPCovSum *s) {
  return json_pack("{s:o, s:o, s:o, s:o, s:o, s:{s:s, s:o}, s:{s:o, s:o, s:o, s:o}}", "lines", pp_json_ratio(s->lines_hit, s->lines),
                   "functions", pp_json_ratio(s->funcs_hit, s->funcs), "blocks", pp_json_ratio(s->blocks_hit, s->blocks),
                   "edges", pp_json_ratio(s->edges_hit, s->edges), "branches", pp_json_ratio(s->br_hit, s->br),
                   "paths", "total", "", "covered", pp_json_count(s->paths_hit),
                   "excluded", "lines", pp_json_count(s->lines_excl), "functions", pp_json_count(s->funcs_excl), "branches",
                   pp_json_count(s->br_excl), "paths", pp_json_count(s->paths_excl));
}

static void set_paths_total(json_t *sum, uint64_t total) {
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRIu64, total);
  json_object_set_new(json_object_get(sum, "paths"), "total", json_string(buf));
}

static json_t *jfunc(const PPCoverage *c, const PPCovFunc *fn) {
  const PPGraph *g = &fn->f->g;
  char paths[32];
  snprintf(paths, sizeof paths, "%" PRIu64, g->npaths);
  json_t *blocks = json_array(), *edges = json_array();
  for (size_t b = 0; b < g->blocks.n; b++) json_array_append_new(blocks, pp_json_count(fn->blocks[b]));
  for (size_t e = 0; e < g->edges.n; e++) {
    const PPEdge *x = &g->edges.v[e];
    json_array_append_new(edges, json_pack("{s:i, s:i, s:s, s:o}", "src", x->src, "dst", x->dst, "kind",
                                           pp_edge_kind_name(x->kind), "count", pp_json_count(fn->edges[e])));
  }
  (void)c;
  json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:o, s:i, s:b, s:o, s:o, s:o, s:o, s:{s:s, s:o, s:o}, s:o, s:o, s:o, s:o}",
                   "name", fn->f->name, "line", (int)fn->f->line, "end_line", (int)fn->f->end_line,
                   "name_line", (int)fn->name_line, "calls", pp_json_count(fn->calls), "copies", fn->view->copies,
                   "ambiguous", fn->ambiguous,
                   "lines", pp_json_ratio(fn->lines_hit, fn->lines_total), "blocks", pp_json_ratio(fn->blocks_hit, fn->blocks_total),
                   "edges", pp_json_ratio(fn->edges_hit, fn->edges_total),
                   "branches", pp_json_ratio(fn->branches_hit, fn->branches_total),
                   "paths", "total", paths, "covered", pp_json_count(fn->paths_executed), "executions", pp_json_count(fn->path_runs),
                   "overflow", pp_json_count(fn->view->overflow), "tables", json_string(fn->view->u->tables_path),
                   "block_counts", blocks, "edge_counts", edges);
  json_object_set_new(o, "mode", json_string(fn->view->edges ? "edge" : "path"));
  json_t *parts = json_array();
  for (size_t i = 0; i < fn->view->nparts; i++) {
    const PPPartial *p = &fn->view->parts[i];
    uint64_t site = p->site & PP_SITE_LAST;
    const PPStop *st = site < fn->f->stops.n && !(p->site & PP_SITE_BEFORE) ? &fn->f->stops.v[site] : NULL;
    char *lines = pp_partial_lines(&fn->view->u->tab, fn->f, p);
    json_array_append_new(parts, json_pack("{s:I, s:I, s:i, s:s}", "count", (json_int_t)p->count, "site", (json_int_t)p->site,
                                           "stop_line", st ? (int)st->line : 0, "lines", lines));
    free(lines);
  }
  json_object_set_new(o, "unfinished", json_integer((json_int_t)fn->unfinished));
  json_object_set_new(o, "excluded", json_pack("{s:b, s:i, s:i, s:o, s:o}", "function", fn->excluded, "lines", (int)fn->lines_excl,
                                               "branches", (int)fn->branches_excl, "paths", pp_json_count(fn->paths_excl),
                                               "paths_executed", pp_json_count(fn->paths_excl_hit)));
  json_object_set_new(o, "partial_paths", parts);
  if (fn->view->edges) {  /* edge mode: paths were not counted */
    json_object_set_new(json_object_get(o, "paths"), "covered", json_null());
    json_object_set_new(json_object_get(o, "paths"), "executions", json_null());
    json_object_set_new(o, "unbalanced", json_boolean(fn->view->unbalanced));
  }
  return o;
}

/* jansson's dump goes through a buffer here: json_dumpf writes token by token. */
typedef struct { FILE *o; size_t n; char b[1 << 16]; } Out;

static int out_add(const char *p, size_t n, void *data) {
  Out *w = data;
  if (w->n + n > sizeof w->b) {
    fwrite(w->b, 1, w->n, w->o);
    w->n = 0;
    if (n > sizeof w->b) return fwrite(p, 1, n, w->o) == n ? 0 : -1;
  }
  memcpy(w->b + w->n, p, n);
  w->n += n;
  return 0;
}

/* A summary's "mcdc" member (a build with decision tables): decisions with every condition shown
   and conditions with both values shown, under the definition named. */
static void set_mcdc_sum(json_t *sum, const PPMcdc *m, int file) {
  PPMcdcSum ms = {0};
  pp_mcdc_sum_file(m, file, &ms);
  json_object_set_new(sum, "mcdc", json_pack("{s:s, s:o, s:o}", "definition", pp_mcdc_def_name(m->def), "decisions",
                                             pp_json_ratio(ms.dec_hit, ms.dec), "conditions", pp_json_ratio(ms.cond_hit, ms.cond)));
}

static json_t *jfile(const PPCoverage *c, const PPCovFile *f, const PPCovSum *s) {
  json_t *lines = json_array(), *funcs = json_array(), *brs = json_array();
  for (unsigned ln = 1; ln <= f->nlines; ln++)
    if (f->lines[ln].exists)
      json_array_append_new(lines, json_pack("{s:i, s:o, s:b, s:b}", "line", (int)ln, "count", pp_json_count(f->lines[ln].count),
                                             "unexecuted_block", f->lines[ln].unexecuted_block, "excluded",
                                             f->lines[ln].excluded));
  for (size_t k = 0; k < f->funcs.n; k++) json_array_append_new(funcs, jfunc(c, &c->funcs.v[f->funcs.v[k]]));
  for (size_t k = 0; k < f->branches.n;) {
    const PPCovBranch *b = &f->branches.v[k];
    json_t *outs = json_array();
    size_t j = k;
    for (; j < f->branches.n && f->branches.v[j].func == b->func && f->branches.v[j].block == b->block; j++)
      json_array_append_new(outs, pp_json_count(f->branches.v[j].count));
    json_array_append_new(brs, json_pack("{s:i, s:s, s:i, s:b, s:o, s:b}", "line", (int)b->line, "function",
                                         c->funcs.v[b->func].f->name, "block", b->block, "reached", b->reached,
                                         "outcomes", outs, "excluded", b->excluded));
    k = j;
  }
  json_t *sum = jsum(s);
  set_paths_total(sum, s->paths);
  json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "file", f->name, "path", f->path ? json_string(f->path) : json_null(),
                        "summary", sum, "lines", lines, "functions", funcs, "branches", brs);
  if (c->mcdc) {  /* the file's decisions, by position */
    const PPMcdc *m = c->mcdc;
    int fi = (int)(f - c->files.v);
    json_t *decs = json_array();
    set_mcdc_sum(sum, m, fi);
    for (size_t i = m->file_start[fi]; i < m->file_start[fi + 1]; i++)
      json_array_append_new(decs, pp_mcdc_jdecision(c, &m->decs.v[m->by_file[i]]));
    json_object_set_new(o, "mcdc", decs);
  }
  return o;
}

/* Written as it is made, one file at a time (a big program's whole document would take
   hundreds of megabytes as a tree): the header with the totals, then each file on a line. */
void pp_format_json(FILE *o, const PPCoverage *c, const char *profile) {
  PPCovSum all = {0}, *each = pp_xcalloc(c->files.n + 1, sizeof *each);
  for (size_t i = 0; i < c->files.n; i++) {
    pp_coverage_sum_file(c, &c->files.v[i], &each[i]);
    pp_coverage_sum_add(&all, &each[i]);
  }
  json_t *sum = jsum(&all);
  set_paths_total(sum, all.paths);
  if (c->mcdc) set_mcdc_sum(sum, c->mcdc, -1);
  json_t *head = json_pack("{s:s, s:i, s:s, s:s, s:o}", "format", "pathprof-coverage", "version", 1, "profile",
                           profile, "line_model", "source-1", "summary", sum);
  Out *w = pp_xmalloc(sizeof *w);
  w->o = o;
  w->n = 0;
  char *text = json_dumps(head, JSON_COMPACT | JSON_PRESERVE_ORDER);
  out_add(text, strlen(text) - 1, w);  /* the header without its closing brace */
  out_add(",\"files\":[\n", 11, w);
  free(text);
  json_decref(head);
  for (size_t i = 0; i < c->files.n; i++) {
    json_t *f = jfile(c, &c->files.v[i], &each[i]);
    if (i) out_add(",\n", 2, w);
    json_dump_callback(f, out_add, w, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(f);
  }
  out_add("\n]}\n", 4, w);
  fwrite(w->b, 1, w->n, o);
  free(w);
  free(each);
}
