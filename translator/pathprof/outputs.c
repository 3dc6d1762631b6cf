/* pathprof coverage: the derived coverage as a summary, gcov-style annotated source, JSON
   (doc/coverage-json.md), an lcov tracefile or Cobertura XML. */
#include "coverage.h"
#include "html.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *profile_arg(const char *arg) {
  if (arg) return arg;
  const char *e = getenv("PATHPROF_FILE");
  return e && *e && !strchr(e, '%') ? e : "pathprof.out";
}

static const char *fname(const PPCovFile *f) { return f->path ? f->path : f->name; }

static double rate(uint64_t hit, uint64_t total) { return total ? (double)hit / (double)total : 1.0; }

static void pct(FILE *o, uint64_t hit, uint64_t total) {
  if (total) fprintf(o, "%7" PRIu64 "/%-7" PRIu64 " %5.1f%%", hit, total, 100.0 * (double)hit / (double)total);
  else fprintf(o, "%15s %6s", "-", "");
}

/* ---- text: a summary per file and function ---- */

static void out_text(FILE *o, const PPCoverage *c, const char *profile) {
  PPCovSum all = {0};
  fprintf(o, "pathprof coverage: %s: %zu files, %zu functions\n", profile, c->files.n, c->funcs.n);
  fprintf(o, "%-32s %-22s %-22s %-22s %-22s %s\n", "", "lines", "functions", "blocks", "branches", "paths");
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    PPCovSum s = {0};
    pp_coverage_sum_file(c, f, &s);
    pp_coverage_sum_add(&all, &s);
    fprintf(o, "\n%-32s ", fname(f));
    pct(o, s.lines_hit, s.lines); fputc(' ', o);
    pct(o, s.funcs_hit, s.funcs); fputc(' ', o);
    pct(o, s.blocks_hit, s.blocks); fputc(' ', o);
    pct(o, s.br_hit, s.br); fputc(' ', o);
    pct(o, s.paths_hit, s.paths); fputc('\n', o);
    for (size_t k = 0; k < f->funcs.n; k++) {
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      char *name = pp_xasprintf("  %s:%u", fn->f->name, fn->f->line);
      fprintf(o, "%-32s ", name);
      free(name);
      pct(o, fn->lines_hit, fn->lines_total); fputc(' ', o);
      fprintf(o, "%14" PRIu64 " calls  ", fn->calls);
      pct(o, fn->blocks_hit, fn->blocks_total); fputc(' ', o);
      pct(o, fn->branches_hit, fn->branches_total); fputc(' ', o);
      if (fn->view->edges) fprintf(o, "%15s %6s", "edge mode", "");
      else pct(o, fn->paths_executed, fn->f->g.npaths);
      if (fn->view->unbalanced) fputs("  (edge counters unbalanced: an activation did not return)", o);
      if (fn->ambiguous) fputs("  (back-edge counts ambiguous)", o);
      if (fn->view->overflow) fprintf(o, "  (%" PRIu64 " out-of-range path ends)", fn->view->overflow);
      fputc('\n', o);
    }
  }
  fprintf(o, "\n%-32s ", "total");
  pct(o, all.lines_hit, all.lines); fputc(' ', o);
  pct(o, all.funcs_hit, all.funcs); fputc(' ', o);
  pct(o, all.blocks_hit, all.blocks); fputc(' ', o);
  pct(o, all.br_hit, all.br); fputc(' ', o);
  pct(o, all.paths_hit, all.paths); fputc('\n', o);
}

/* ---- gcov: annotated source ---- */

static void out_gcov(FILE *o, const PPCoverage *c, const char *profile) {
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    fprintf(o, "%9s:%5u:Source:%s\n", "-", 0u, f->name);
    fprintf(o, "%9s:%5u:Data:%s\n", "-", 0u, profile);
    unsigned n = f->src ? f->nsrc : f->nlines;
    for (unsigned ln = 1; ln <= n; ln++) {
      const PPCovLine *l = ln <= f->nlines ? &f->lines[ln] : NULL;
      char cnt[32];
      if (!l || !l->exists) strcpy(cnt, "-");
      else if (!l->count) strcpy(cnt, "#####");
      else snprintf(cnt, sizeof cnt, "%" PRIu64 "%s", l->count, l->unexecuted_block ? "*" : "");
      const char *text = f->src && ln <= f->nsrc ? f->src[ln] : "";
      if (!f->src && (!l || !l->exists)) continue;
      fprintf(o, "%9s:%5u:%s\n", cnt, ln, text);
    }
  }
}

/* ---- JSON (doc/coverage-json.md) ---- */

static json_t *jcount(uint64_t v) { return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v); }

static json_t *jratio(uint64_t hit, uint64_t total) {
  return json_pack("{s:o, s:o}", "total", jcount(total), "covered", jcount(hit));
}

static json_t *jsum(const PPCovSum *s) {
  return json_pack("{s:o, s:o, s:o, s:o, s:o, s:{s:s, s:o}}", "lines", jratio(s->lines_hit, s->lines),
                   "functions", jratio(s->funcs_hit, s->funcs), "blocks", jratio(s->blocks_hit, s->blocks),
                   "edges", jratio(s->edges_hit, s->edges), "branches", jratio(s->br_hit, s->br),
                   "paths", "total", "", "covered", jcount(s->paths_hit));
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
  for (size_t b = 0; b < g->blocks.n; b++) json_array_append_new(blocks, jcount(fn->blocks[b]));
  for (size_t e = 0; e < g->edges.n; e++) {
    const PPEdge *x = &g->edges.v[e];
    json_array_append_new(edges, json_pack("{s:i, s:i, s:s, s:o}", "src", x->src, "dst", x->dst, "kind",
                                           pp_edge_kind_name(x->kind), "count", jcount(fn->edges[e])));
  }
  (void)c;
  json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:o, s:i, s:b, s:o, s:o, s:o, s:o, s:{s:s, s:o, s:o}, s:o, s:o, s:o, s:o}",
                   "name", fn->f->name, "line", (int)fn->f->line, "end_line", (int)fn->f->end_line,
                   "name_line", (int)fn->name_line, "calls", jcount(fn->calls), "copies", fn->view->copies,
                   "ambiguous", fn->ambiguous,
                   "lines", jratio(fn->lines_hit, fn->lines_total), "blocks", jratio(fn->blocks_hit, fn->blocks_total),
                   "edges", jratio(fn->edges_hit, fn->edges_total),
                   "branches", jratio(fn->branches_hit, fn->branches_total),
                   "paths", "total", paths, "covered", jcount(fn->paths_executed), "executions", jcount(fn->path_runs),
                   "overflow", jcount(fn->view->overflow), "tables", json_string(fn->view->u->tables_path),
                   "block_counts", blocks, "edge_counts", edges);
  json_object_set_new(o, "mode", json_string(fn->view->edges ? "edge" : "path"));
  if (fn->view->edges) {  /* edge mode: paths were not counted */
    json_object_set_new(json_object_get(o, "paths"), "covered", json_null());
    json_object_set_new(json_object_get(o, "paths"), "executions", json_null());
    json_object_set_new(o, "unbalanced", json_boolean(fn->view->unbalanced));
  }
  return o;
}

static void out_json(FILE *o, const PPCoverage *c, const char *profile) {
  json_t *files = json_array();
  PPCovSum all = {0};
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    PPCovSum s = {0};
    pp_coverage_sum_file(c, f, &s);
    pp_coverage_sum_add(&all, &s);
    json_t *lines = json_array(), *funcs = json_array(), *brs = json_array();
    for (unsigned ln = 1; ln <= f->nlines; ln++)
      if (f->lines[ln].exists)
        json_array_append_new(lines, json_pack("{s:i, s:o, s:b}", "line", (int)ln, "count", jcount(f->lines[ln].count),
                                               "unexecuted_block", f->lines[ln].unexecuted_block));
    for (size_t k = 0; k < f->funcs.n; k++) json_array_append_new(funcs, jfunc(c, &c->funcs.v[f->funcs.v[k]]));
    for (size_t k = 0; k < f->branches.n;) {
      const PPCovBranch *b = &f->branches.v[k];
      json_t *outs = json_array();
      size_t j = k;
      for (; j < f->branches.n && f->branches.v[j].func == b->func && f->branches.v[j].block == b->block; j++)
        json_array_append_new(outs, jcount(f->branches.v[j].count));
      json_array_append_new(brs, json_pack("{s:i, s:s, s:i, s:b, s:o}", "line", (int)b->line, "function",
                                           c->funcs.v[b->func].f->name, "block", b->block, "reached", b->reached,
                                           "outcomes", outs));
      k = j;
    }
    json_t *sum = jsum(&s);
    set_paths_total(sum, s.paths);
    json_array_append_new(files, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "file", f->name, "path",
                                           f->path ? json_string(f->path) : json_null(), "summary", sum,
                                           "lines", lines, "functions", funcs, "branches", brs));
  }
  json_t *sum = jsum(&all);
  set_paths_total(sum, all.paths);
  json_t *root = json_pack("{s:s, s:i, s:s, s:s, s:o, s:o}", "format", "pathprof-coverage", "version", 1, "profile",
                           profile, "line_model", "gcov-12", "summary", sum, "files", files);
  json_dumpf(root, o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  fputc('\n', o);
  json_decref(root);
}

/* ---- lcov tracefile ---- */

static void out_lcov(FILE *o, const PPCoverage *c) {
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    fprintf(o, "TN:\nSF:%s\n", fname(f));
    unsigned fnh = 0;
    for (size_t k = 0; k < f->funcs.n; k++) {
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      fprintf(o, "FN:%u,%s\n", fn->name_line, fn->f->name);
    }
    for (size_t k = 0; k < f->funcs.n; k++) {
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      fprintf(o, "FNDA:%" PRIu64 ",%s\n", fn->calls, fn->f->name);
      fnh += fn->calls > 0;
    }
    fprintf(o, "FNF:%zu\nFNH:%u\n", f->funcs.n, fnh);
    unsigned brf = 0, brh = 0, block = 0;
    for (size_t k = 0; k < f->branches.n; k++) {
      const PPCovBranch *b = &f->branches.v[k];
      /* lcov's block number: one per decision, unique in the file */
      if (k && b->arm == 0) block++;
      if (b->reached) fprintf(o, "BRDA:%u,%u,%d,%" PRIu64 "\n", b->line, block, b->arm, b->count);
      else fprintf(o, "BRDA:%u,%u,%d,-\n", b->line, block, b->arm);
      brf++;
      brh += b->count > 0;
    }
    fprintf(o, "BRF:%u\nBRH:%u\n", brf, brh);
    unsigned lf = 0, lh = 0;
    for (unsigned ln = 1; ln <= f->nlines; ln++)
      if (f->lines[ln].exists) {
        fprintf(o, "DA:%u,%" PRIu64 "\n", ln, f->lines[ln].count);
        lf++;
        lh += f->lines[ln].count > 0;
      }
    fprintf(o, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
  }
}

/* ---- Cobertura XML (coverage-04.dtd) ---- */

/* The decisions on line ln of file f: outcomes taken and outcomes in all. */
static void line_branches(const PPCovFile *f, unsigned ln, unsigned *taken, unsigned *total) {
  *taken = *total = 0;
  for (size_t k = 0; k < f->branches.n; k++)
    if (f->branches.v[k].line == ln) { (*total)++; *taken += f->branches.v[k].count > 0; }
}

static void xml_line(FILE *o, const char *indent, const PPCovFile *f, unsigned ln) {
  unsigned taken, total;
  line_branches(f, ln, &taken, &total);
  fprintf(o, "%s<line number=\"%u\" hits=\"%" PRIu64 "\"", indent, ln, f->lines[ln].count);
  if (total)
    fprintf(o, " branch=\"true\" condition-coverage=\"%u%% (%u/%u)\"", 100u * taken / total, taken, total);
  else fputs(" branch=\"false\"", o);
  fputs("/>\n", o);
}

static void out_cobertura(FILE *o, const PPCoverage *c) {
  PPCovSum all = {0};
  for (size_t i = 0; i < c->files.n; i++) pp_coverage_sum_file(c, &c->files.v[i], &all);
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  long long ts = sde && *sde ? atoll(sde) : (long long)time(NULL);
  fprintf(o, "<?xml version=\"1.0\" ?>\n<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n");
  fprintf(o, "<coverage line-rate=\"%.4f\" branch-rate=\"%.4f\" lines-covered=\"%" PRIu64 "\" lines-valid=\"%" PRIu64
          "\" branches-covered=\"%" PRIu64 "\" branches-valid=\"%" PRIu64 "\" complexity=\"0\" version=\"pathprof-1\" timestamp=\"%lld\">\n",
          rate(all.lines_hit, all.lines), rate(all.br_hit, all.br), all.lines_hit, all.lines, all.br_hit, all.br, ts);
  fputs(" <sources>\n  <source>/</source>\n </sources>\n <packages>\n", o);
  /* one package per directory */
  for (size_t i = 0; i < c->files.n;) {
    const char *n = fname(&c->files.v[i]), *slash = strrchr(n, '/');
    size_t dl = slash ? (size_t)(slash - n) : 0;
    size_t j = i;
    PPCovSum ps = {0};
    for (; j < c->files.n; j++) {
      const char *m = fname(&c->files.v[j]), *s2 = strrchr(m, '/');
      if ((s2 ? (size_t)(s2 - m) : 0) != dl || strncmp(m, n, dl)) break;
      pp_coverage_sum_file(c, &c->files.v[j], &ps);
    }
    fputs("  <package name=\"", o);
    char *dir = pp_xasprintf("%.*s", (int)dl, n);
    pp_fputs_xml(o, *dir ? dir : ".");
    free(dir);
    fprintf(o, "\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n   <classes>\n", rate(ps.lines_hit, ps.lines),
            rate(ps.br_hit, ps.br));
    for (size_t k = i; k < j; k++) {
      const PPCovFile *f = &c->files.v[k];
      PPCovSum s = {0};
      pp_coverage_sum_file(c, f, &s);
      const char *path = fname(f);
      fputs("    <class name=\"", o);
      pp_fputs_xml(o, slash ? strrchr(path, '/') + 1 : path);
      fputs("\" filename=\"", o);
      pp_fputs_xml(o, path[0] == '/' ? path + 1 : path);
      fprintf(o, "\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n     <methods>\n", rate(s.lines_hit, s.lines),
              rate(s.br_hit, s.br));
      for (size_t m = 0; m < f->funcs.n; m++) {
        const PPCovFunc *fn = &c->funcs.v[f->funcs.v[m]];
        fputs("      <method name=\"", o);
        pp_fputs_xml(o, fn->f->name);
        fprintf(o, "\" signature=\"\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n       <lines>\n",
                rate(fn->lines_hit, fn->lines_total), rate(fn->branches_hit, fn->branches_total));
        for (unsigned ln = fn->f->line; ln <= fn->f->end_line && ln <= f->nlines; ln++)
          if (f->lines[ln].exists) xml_line(o, "        ", f, ln);
        fputs("       </lines>\n      </method>\n", o);
      }
      fputs("     </methods>\n     <lines>\n", o);
      for (unsigned ln = 1; ln <= f->nlines; ln++)
        if (f->lines[ln].exists) xml_line(o, "      ", f, ln);
      fputs("     </lines>\n    </class>\n", o);
    }
    fputs("   </classes>\n  </package>\n", o);
    i = j;
  }
  fputs(" </packages>\n</coverage>\n", o);
}

int pp_cmd_coverage(int argc, char **argv) {
  const char *format = "text", *out = NULL, *file = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "-o")) {
      if (i + 1 >= argc) { fprintf(stderr, "pathprof coverage: %s needs a value\n", argv[i]); return 2; }
      if (argv[i][1] == 'o') out = argv[++i]; else format = argv[++i];
    } else if (!strncmp(argv[i], "--format=", 9)) format = argv[i] + 9;
    else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "pathprof coverage: unknown option %s\n", argv[i]); return 2; }
    else if (file) { fprintf(stderr, "pathprof coverage: one profile at a time (merge them first: pathprof merge)\n"); return 2; }
    else file = argv[i];
  }
  static const char *const formats[] = { "text", "json", "lcov", "cobertura", "gcov", "html", 0 };
  int fmt = -1;
  for (int i = 0; formats[i]; i++)
    if (!strcmp(format, formats[i])) fmt = i;
  if (fmt < 0) { fprintf(stderr, "pathprof coverage: unknown format '%s' (text, json, lcov, cobertura, gcov, html)\n", format); return 2; }
  if (fmt == 5 && (!out || !strcmp(out, "-"))) { fprintf(stderr, "pathprof coverage: --format html writes a directory: name it with -o DIR\n"); return 2; }
  file = profile_arg(file);
  PPLoaded l;
  if (pp_load(file, &l)) return 1;
  PPCoverage c;
  pp_coverage_build(&l, &c);
  if (fmt == 5) {
    int rc = pp_html_write(&c, file, out) || l.missing ? 1 : 0;
    pp_coverage_free(&c);
    pp_loaded_free(&l);
    return rc;
  }
  FILE *o = stdout;
  char *tmp = NULL;
  if (out && strcmp(out, "-")) {
    tmp = pp_xasprintf("%s.tmp.%ld", out, (long)getpid());
    if (!(o = fopen(tmp, "w"))) {
      fprintf(stderr, "pathprof coverage: cannot write %s: %s\n", tmp, strerror(errno));
      free(tmp);
      pp_coverage_free(&c);
      pp_loaded_free(&l);
      return 1;
    }
  }
  switch (fmt) {
  case 0: out_text(o, &c, file); break;
  case 1: out_json(o, &c, file); break;
  case 2: out_lcov(o, &c); break;
  case 3: out_cobertura(o, &c); break;
  default: out_gcov(o, &c, file); break;
  }
  int rc = l.missing ? 1 : 0;
  for (size_t i = 0; i < c.funcs.n; i++)
    if (c.funcs.v[i].bad_ids)
      fprintf(stderr, "pathprof coverage: %s: %" PRIu64 " path ends of %s have ids outside its paths and were left out\n", file,
              c.funcs.v[i].bad_ids, c.funcs.v[i].f->name);
  if (tmp && l.missing) {  /* a unit without tables: a partial report would replace the old one */
    fclose(o);
    remove(tmp);
    fprintf(stderr, "pathprof coverage: %s not written (tables missing)\n", out);
    free(tmp);
  } else if (tmp) {
    int bad = fflush(o) != 0 || ferror(o);
    if (fclose(o) || bad || rename(tmp, out)) {
      fprintf(stderr, "pathprof coverage: cannot write %s: %s\n", out, strerror(errno));
      remove(tmp);
      rc = 1;
    }
    free(tmp);
  } else fflush(stdout);
  pp_coverage_free(&c);
  pp_loaded_free(&l);
  return rc;
}
