/* MC/DC in the coverage formats (pathprof coverage --mcdc): text summary and truth tables, gcov's
   condition lines, JSON (doc/coverage-json.md) and lcov 2.x MCDC records. */
#include "formats.h"
#include "mcdcfmt.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *pp_mcdc_def_name(PPMcdcDef d) { return d == PP_MCDC_UNIQUE ? "unique-cause" : "masking"; }
static char tf(int v) { return v < 0 ? '-' : v ? 'T' : 'F'; }

/* Statements-mode or edge-mode functions have no vectors: one line each says how to get them. */
/* One line per unit, not per function: a whole build in statements mode is one message each. */
static void explain_missing(FILE *o, const PPCoverage *c, const PPMcdc *m) {
  const PPTables *last = NULL;
  for (size_t i = 0; i < m->no_decisions.n; i++) {
    const PPCovFunc *f = &c->funcs.v[m->no_decisions.v[i]];
    if (f->t != last)
      fprintf(o, "pathprof coverage: %s: no MC/DC: built with --decisions=statements; rebuild with pathcc --decisions=conditions\n", f->t->source);
    last = f->t;
  }
  for (size_t i = 0; i < m->edge_mode.n; i++) {
    const PPCovFunc *f = &c->funcs.v[m->edge_mode.v[i]];
    if (f->t != last)
      fprintf(o, "pathprof coverage: %s: no MC/DC: built with --mode=edge (edge counts hold no condition vectors); rebuild in path mode\n", f->t->source);
    last = f->t;
  }
}

void pp_mcdc_explain(const PPCoverage *c, const PPMcdc *m) { explain_missing(stderr, c, m); }

void pp_mcdc_sum_add(PPMcdcSum *s, const PPMcdcDecision *d) {
  s->dec++;
  s->dec_hit += d->covered == d->d->n;
  s->cond += (uint64_t)d->d->n;
  s->cond_hit += (uint64_t)d->covered;
}

void pp_mcdc_sum_file(const PPMcdc *m, int file, PPMcdcSum *s) {
  if (file < 0)
    for (size_t i = 0; i < m->decs.n; i++) pp_mcdc_sum_add(s, &m->decs.v[i]);
  else
    for (size_t i = m->file_start[file]; i < m->file_start[file + 1]; i++) pp_mcdc_sum_add(s, &m->decs.v[m->by_file[i]]);
}


/* One decision's truth table of executed vectors and each condition's verdict. */
static void text_decision(FILE *o, const PPCoverage *c, const PPMcdcDecision *d) {
  const PPCovFunc *f = &c->funcs.v[d->func];
  fprintf(o, "\n%s:%u:%u: %s: %d condition%s, %" PRIu64 " evaluations, %d/%d conditions covered\n",
          f->t->files.v[d->d->file], d->d->line, d->d->col, f->f->name, d->d->n, d->d->n == 1 ? "" : "s",
          d->evaluations, d->covered, d->d->n);
  if (d->partial) fprintf(o, "  (%" PRIu64 " evaluations split by a cut edge left out)\n", d->partial);
  fputs("  vector  ", o);
  for (int i = 0; i < d->d->n; i++) fprintf(o, "c%-2d", i);
  fputs(" outcome  count\n", o);
  for (size_t v = 0; v < d->vecs.n; v++) {
    fprintf(o, "  %6zu  ", v + 1);
    for (int i = 0; i < d->d->n; i++) fprintf(o, "%c  ", tf(d->vecs.v[v].vals[i]));
    fprintf(o, " %c     %8" PRIu64 "\n", tf(d->vecs.v[v].outcome), d->vecs.v[v].count);
  }
  for (int i = 0; i < d->d->n; i++) {
    const PPMcdcCond *r = &d->res[i];
    fprintf(o, "  c%d %s (line %u): ", i, d->conds[i].text, d->conds[i].line);
    if (r->shown[0] && r->shown[1]) fprintf(o, "covered by vectors %d and %d\n", r->pair[1] + 1, r->pair[0] + 1);
    else {
      fputs("not covered:", o);
      for (int v = 1; v >= 0; v--)
        if (!r->shown[v]) fprintf(o, " %s %s", v ? "true" : "false", r->seen[v] ? "not shown" : "never evaluated");
      fputc('\n', o);
    }
  }
}

void pp_mcdc_text(FILE *o, const PPCoverage *c, const PPMcdc *m, const char *profile) {
  PPMcdcSum all = {0};
  fprintf(o, "pathprof coverage --mcdc=%s: %s: %zu decisions\n", pp_mcdc_def_name(m->def), profile, m->decs.n);
  fprintf(o, "%-40s %-22s %s\n", "", "decisions", "conditions");
  for (size_t i = 0; i < m->decs.n;) {  /* decisions come grouped by function */
    const PPCovFunc *f = &c->funcs.v[m->decs.v[i].func];
    PPMcdcSum s = {0};
    size_t k = i;
    for (; k < m->decs.n && m->decs.v[k].func == m->decs.v[i].func; k++) pp_mcdc_sum_add(&s, &m->decs.v[k]);
    char *name = pp_xasprintf("%s:%u %s", f->t->files.v[f->f->file], f->name_line, f->f->name);
    fprintf(o, "%-40s ", name);
    free(name);
    pp_text_ratio(o, s.dec_hit, s.dec); fputc(' ', o);
    pp_text_ratio(o, s.cond_hit, s.cond); fputc('\n', o);
    all.dec += s.dec; all.dec_hit += s.dec_hit; all.cond += s.cond; all.cond_hit += s.cond_hit;
    i = k;
  }
  fprintf(o, "%-40s ", "total");
  pp_text_ratio(o, all.dec_hit, all.dec); fputc(' ', o);
  pp_text_ratio(o, all.cond_hit, all.cond); fputc('\n', o);
  for (size_t i = 0; i < m->decs.n; i++) text_decision(o, c, &m->decs.v[i]);
}

/* The source line of a decision, when the file was found. */
static const char *src_line(const PPCoverage *c, const PPMcdcDecision *d) {
  const PPCovFunc *f = &c->funcs.v[d->func];
  int fi = pp_coverage_file_of(c, f->t->files.v[d->d->file]);
  const PPCovFile *cf = fi >= 0 ? &c->files.v[fi] : NULL;
  return cf && cf->src && d->d->line >= 1 && d->d->line <= cf->nsrc ? cf->src[d->d->line] : "";
}

void pp_mcdc_gcov_decision(FILE *o, const PPMcdcDecision *d) {
  int shown = 0;
  for (int k = 0; k < d->d->n; k++) shown += d->res[k].shown[0] + d->res[k].shown[1];
  fprintf(o, "condition outcomes covered %d/%d\n", shown, 2 * d->d->n);
  for (int k = 0; k < d->d->n; k++) {
    const PPMcdcCond *r = &d->res[k];
    if (r->shown[0] && r->shown[1]) continue;
    fprintf(o, "condition %2d not covered (%s%s%s)\n", k, r->shown[1] ? "" : "true",
            !r->shown[0] && !r->shown[1] ? " " : "", r->shown[0] ? "" : "false");
  }
}

/* gcov -g (GCC 14) wording: "condition outcomes covered N/M" and the missing outcomes. */
void pp_mcdc_gcov(FILE *o, const PPCoverage *c, const PPMcdc *m) {
  const char *last = NULL;
  for (size_t i = 0; i < m->decs.n; i++) {
    const PPMcdcDecision *d = &m->decs.v[i];
    const PPCovFunc *f = &c->funcs.v[d->func];
    const char *file = f->t->files.v[d->d->file];
    if (!last || strcmp(last, file)) fprintf(o, "        -:    0:Source:%s\n", file);
    last = file;
    fprintf(o, "%9" PRIu64 ":%5u:%s\n", d->evaluations, d->d->line, src_line(c, d));
    pp_mcdc_gcov_decision(o, d);
  }
}

/* A JSON string of s; bytes that are not UTF-8 (a Latin-1 comment in a condition) become '?'. */
static json_t *jstr(const char *s) {
  json_t *j = json_string(s);
  if (j) return j;
  char *t = pp_xstrdup(s);
  for (char *p = t; *p; p++)
    if ((unsigned char)*p >= 0x80) *p = '?';
  j = json_string(t);
  free(t);
  return j ? j : json_string("");
}


json_t *pp_mcdc_jdecision(const PPCoverage *c, const PPMcdcDecision *d) {
  const PPCovFunc *f = &c->funcs.v[d->func];
  json_t *conds = json_array(), *vecs = json_array();
  for (int k = 0; k < d->d->n; k++) {
    const PPMcdcCond *r = &d->res[k];
    json_array_append_new(conds, json_pack("{s:o, s:i, s:i, s:b, s:b, s:b, s:[i, i], s:i}", "text", jstr(d->conds[k].text),
                                           "line", (int)d->conds[k].line, "column", (int)d->conds[k].col, "covered",
                                           r->shown[0] && r->shown[1], "true", r->shown[1], "false", r->shown[0], "pair",
                                           r->pair[1], r->pair[0], "block", d->conds[k].block));
  }
  char *vals = pp_xmalloc((size_t)d->d->n + 1);
  for (size_t v = 0; v < d->vecs.n; v++) {
    for (int k = 0; k < d->d->n; k++) vals[k] = tf(d->vecs.v[v].vals[k]);
    vals[d->d->n] = 0;
    json_array_append_new(vecs, json_pack("{s:s, s:b, s:o}", "values", vals, "outcome", d->vecs.v[v].outcome, "count",
                                          pp_json_count(d->vecs.v[v].count)));
  }
  free(vals);
  return json_pack("{s:o, s:o, s:i, s:i, s:o, s:o, s:i, s:o, s:o}", "file", jstr(f->t->files.v[d->d->file]), "function",
                   jstr(f->f->name), "line", (int)d->d->line, "column", (int)d->d->col, "evaluations", pp_json_count(d->evaluations),
                   "partial", pp_json_count(d->partial), "covered", d->covered, "conditions", conds, "vectors", vecs);
}

static void json_str(FILE *o, const char *s) {
  json_t *j = jstr(s);
  json_dumpf(j, o, JSON_ENCODE_ANY);
  json_decref(j);
}

void pp_mcdc_json(FILE *o, const PPCoverage *c, const PPMcdc *m, const char *profile) {
  fputs("{\"format\":\"pathprof-mcdc\",\"version\":1,\"profile\":", o);
  json_str(o, profile);
  fprintf(o, ",\"definition\":\"%s\",\"decisions\":[", pp_mcdc_def_name(m->def));
  for (size_t i = 0; i < m->decs.n; i++) {
    if (i) fputc(',', o);
    fputs("\n", o);
    json_t *j = pp_mcdc_jdecision(c, &m->decs.v[i]);
    json_dumpf(j, o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
  }
  fputs("],\n\"without_decisions\":[", o);
  for (size_t i = 0; i < m->no_decisions.n + m->edge_mode.n; i++) {
    bool stm = i < m->no_decisions.n;
    const PPCovFunc *f = &c->funcs.v[stm ? m->no_decisions.v[i] : m->edge_mode.v[i - m->no_decisions.n]];
    fprintf(o, "%s{\"function\":", i ? "," : "");
    json_str(o, f->f->name);
    fprintf(o, ",\"reason\":\"%s\"}", stm ? "built with --decisions=statements" : "edge mode");
  }
  fputs("]}\n", o);
}

/* lcov 2.x: MCDC:<line>,<group size>,<sense>,<taken>,<index>,<expression> per condition and
   sense; taken counts the vectors that showed it (0: not shown). Adds to found and hit. */
static void lcov_decision(FILE *o, const PPMcdcDecision *d, unsigned *found, unsigned *hit) {
  for (int k = 0; k < d->d->n; k++)
    for (int v = 1; v >= 0; v--) {
      char expr[64];
      snprintf(expr, sizeof expr, "%s", d->conds[k].text);
      for (char *p = expr; *p; p++) if (*p == ',') *p = ';';  /* fields are comma separated */
      fprintf(o, "MCDC:%u,%d,%c,%d,%d,%s\n", d->d->line, d->d->n, v ? 't' : 'f', d->res[k].shown[v] ? 1 : 0, k, expr);
      ++*found;
      *hit += d->res[k].shown[v];
    }
}

/* Whether line picks a condition of d: no picker, or one of its conditions on a picked line. */
static bool lcov_picked(const PPMcdcDecision *d, bool (*line)(const void *, unsigned), const void *arg) {
  bool any = !line;
  for (int k = 0; k < d->d->n && !any; k++) any = line(arg, d->conds[k].line);
  return any;
}

void pp_mcdc_lcov_file(FILE *o, const PPMcdc *m, int file, bool (*line)(const void *, unsigned), const void *arg) {
  unsigned found = 0, hit = 0;
  for (size_t i = m->file_start[file]; i < m->file_start[file + 1]; i++)
    if (lcov_picked(&m->decs.v[m->by_file[i]], line, arg)) lcov_decision(o, &m->decs.v[m->by_file[i]], &found, &hit);
  if (found) fprintf(o, "MCF:%u\nMCH:%u\n", found, hit);
}

/* A record per source file with decisions, then one per decision whose file was not found. */
void pp_mcdc_lcov(FILE *o, const PPCoverage *c, const PPMcdc *m) {
  for (size_t f = 0; f < c->files.n; f++) {
    if (m->file_start[f] == m->file_start[f + 1]) continue;
    fprintf(o, "SF:%s\n", pp_coverage_file_name(&c->files.v[f]));
    pp_mcdc_lcov_file(o, m, (int)f, NULL, NULL);
    fputs("end_of_record\n", o);
  }
  for (size_t i = 0; i < m->decs.n; i++) {
    const PPMcdcDecision *d = &m->decs.v[i];
    if (d->file >= 0) continue;
    unsigned found = 0, hit = 0;
    fprintf(o, "SF:%s\n", c->funcs.v[d->func].t->files.v[d->d->file]);
    lcov_decision(o, d, &found, &hit);
    fprintf(o, "MCF:%u\nMCH:%u\nend_of_record\n", found, hit);
  }
}
