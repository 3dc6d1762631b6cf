/* pathprof coverage --format text: a summary per file and function. */
#include "formats.h"
#include "mcdcfmt.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

/* Fixed widths, so rows of any report that uses it line up (formats.h). */
void pp_text_ratio(FILE *o, uint64_t hit, uint64_t total) {
  if (total) fprintf(o, "%7" PRIu64 "/%-7" PRIu64 " %5.1f%%", hit, total, 100.0 * (double)hit / (double)total);
  else fprintf(o, "%15s %6s", "-", "");
}

/* The first column's width: the longest file name or "  function:line" label, at least 32, so
   long paths do not push the figures out of their columns. */
static int name_width(const PPCoverage *c) {
  size_t w = 32;
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    size_t n = strlen(pp_coverage_file_name(f));
    if (n > w) w = n;
    for (size_t k = 0; k < f->funcs.n; k++) {
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      n = 2 + strlen(fn->f->name) + 11;  /* "  name:" and up to 10 digits */
      if (n > w) w = n;
    }
  }
  return (int)w;
}

/* What exclusion markers took out of the totals, when they took anything. */
static void excluded(FILE *o, int w, const PPCovSum *s) {
  if (s->lines_excl || s->funcs_excl || s->br_excl || s->paths_excl)
    fprintf(o, "%-*s excluded: %" PRIu64 " lines, %" PRIu64 " functions, %" PRIu64 " branches, %" PRIu64 " paths\n", w, "",
            s->lines_excl, s->funcs_excl, s->br_excl, s->paths_excl);
}

/* What pathcc could not instrument: counted apart, in no total. */
static void uninstrumented(FILE *o, int w, const PPCovSum *s) {
  if (s->funcs_uninst)
    fprintf(o, "%-*s not instrumented: %" PRIu64 " function%s, %" PRIu64 " line(s) (no counts; pathprof report says why)\n", w, "",
            s->funcs_uninst, s->funcs_uninst > 1 ? "s" : "", s->lines_uninst);
}

/* The rows of file fi's functions pathcc left uninstrumented, with the reason. */
static void uninstrumented_rows(FILE *o, int w, const PPCoverage *c, size_t fi) {
  for (size_t k = 0; k < c->uninst.n; k++) {
    const PPCovUninst *u = &c->uninst.v[k];
    if (u->file != (int)fi) continue;
    char *name = pp_xasprintf("  %s:%u", u->name, u->line);
    fprintf(o, "%-*s not instrumented (%u line(s)): %s\n", w, name, u->lines, u->why);
    free(name);
  }
}

/* Functions are named at the line of their name, as gcov and the lcov writer do. */
void pp_format_text(FILE *o, const PPCoverage *c, const char *profile) {
  PPCovSum all = {0};
  int w = name_width(c);
  fprintf(o, "pathprof coverage: %s: %zu files, %zu functions\n", profile, c->files.n, c->funcs.n);
  fprintf(o, "%-*s %-22s %-22s %-22s %-22s %s\n", w, "", "lines", "functions", "blocks", "branches", "paths");
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    PPCovSum s = {0};
    pp_coverage_sum_file(c, f, &s);
    pp_coverage_sum_add(&all, &s);
    fprintf(o, "\n%-*s ", w, pp_coverage_file_name(f));
    pp_text_ratio(o, s.lines_hit, s.lines); fputc(' ', o);
    pp_text_ratio(o, s.funcs_hit, s.funcs); fputc(' ', o);
    pp_text_ratio(o, s.blocks_hit, s.blocks); fputc(' ', o);
    pp_text_ratio(o, s.br_hit, s.br); fputc(' ', o);
    pp_text_ratio(o, s.paths_hit, s.paths); fputc('\n', o);
    excluded(o, w, &s);
    uninstrumented(o, w, &s);
    for (size_t k = 0; k < f->funcs.n; k++) {
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      char *name = pp_xasprintf("  %s:%u", fn->f->name, fn->name_line);
      fprintf(o, "%-*s ", w, name);
      free(name);
      pp_text_ratio(o, fn->lines_hit, fn->lines_total); fputc(' ', o);
      fprintf(o, "%14" PRIu64 " calls  ", fn->calls);
      pp_text_ratio(o, fn->blocks_hit, fn->blocks_total); fputc(' ', o);
      pp_text_ratio(o, fn->branches_hit, fn->branches_total); fputc(' ', o);
      if (fn->view->edges) fprintf(o, "%15s %6s", "edge mode", "");
      else pp_text_ratio(o, fn->paths_executed, fn->f->g.npaths);
      if (fn->view->unbalanced) fputs("  (edge counters unbalanced: an activation did not return)", o);
      if (fn->ambiguous) fputs("  (back-edge counts ambiguous)", o);
      if (fn->view->overflow) fprintf(o, "  (%" PRIu64 " out-of-range path ends)", fn->view->overflow);
      if (fn->excluded) fputs("  (excluded)", o);
      if (fn->unfinished > 0)
        fprintf(o, "  (%" PRId64 " activation%s never finished)", fn->unfinished, fn->unfinished > 1 ? "s" : "");
      fputc('\n', o);
    }
    uninstrumented_rows(o, w, c, i);
  }
  fprintf(o, "\n%-*s ", w, "total");
  pp_text_ratio(o, all.lines_hit, all.lines); fputc(' ', o);
  pp_text_ratio(o, all.funcs_hit, all.funcs); fputc(' ', o);
  pp_text_ratio(o, all.blocks_hit, all.blocks); fputc(' ', o);
  pp_text_ratio(o, all.br_hit, all.br); fputc(' ', o);
  pp_text_ratio(o, all.paths_hit, all.paths); fputc('\n', o);
  excluded(o, w, &all);
  uninstrumented(o, w, &all);
  if (c->mcdc && c->mcdc->decs.n) {
    PPMcdcSum ms = {0};
    pp_mcdc_sum_file(c->mcdc, -1, &ms);
    fprintf(o, "\n%-*s ", w, "MC/DC");
    fprintf(o, "%" PRIu64 "/%" PRIu64 " decisions, %" PRIu64 "/%" PRIu64 " conditions shown (%s; pathprof coverage --mcdc: "
            "per decision)\n", ms.dec_hit, ms.dec, ms.cond_hit, ms.cond, pp_mcdc_def_name(c->mcdc->def));
  }
}
