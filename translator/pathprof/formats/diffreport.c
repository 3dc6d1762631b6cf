/* pathprof coverage --diff: the coverage of a change's lines as text, JSON, Markdown (a pull
   request comment) and lcov (a tracefile of the changed lines only). */
#include "formats.h"
#include "pathprof/diffcov.h"
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* ---- what every writer lists ---- */

/* "14-15, 20": the changed lines of f with code that never ran; misses with only lines
   without code (or excluded ones, which the totals leave out) between them make one range. */
static char *line_ranges(const PPCovFile *f, const PPDiffFile *df) {
  PPStr s = {0};
  unsigned start = 0, last = 0;
  for (unsigned ln = 1; ln <= f->nlines + 1; ln++) {
    if (ln <= f->nlines && !pp_line_counted(f, ln)) continue;
    bool miss = ln <= f->nlines && ln <= df->nchanged_max && df->changed[ln] && !f->lines[ln].count;
    if (miss) {
      if (!start) start = ln;
      last = ln;
    } else if (start) {
      if (last == start) pp_str_addf(&s, "%s%u", s.n ? ", " : "", start);
      else pp_str_addf(&s, "%s%u-%u", s.n ? ", " : "", start, last);
      start = 0;
    }
  }
  if (!s.s) pp_str_add(&s, "");
  return pp_str_take(&s);
}

/* ---- text ---- */

/* A cell of the table, the regular text report's (pp_text_ratio) after a space. */
static void text_cell(FILE *o, uint64_t hit, uint64_t total) {
  fputc(' ', o);
  pp_text_ratio(o, hit, total);
}

static void text_sum(FILE *o, const char *name, const PPCovSum *s) {
  fprintf(o, "%-32s", name);
  text_cell(o, s->lines_hit, s->lines);
  text_cell(o, s->br_hit, s->br);
  text_cell(o, s->funcs_hit, s->funcs);
  text_cell(o, s->paths_hit, s->paths);
  fputc('\n', o);
}

/* A function's paths through the change: how many ran, and the first that never did. */
static void text_function(FILE *o, const PPCoverage *c, const PPDiffFunc *x) {
  const PPCovFunc *fn = &c->funcs.v[x->func];
  fprintf(o, "  %s (%s:%u): ", fn->f->name, pp_base_name(pp_coverage_file_name(&c->files.v[fn->file])), fn->f->line);
  if (!x->counted) { fputs("edge mode, no paths counted\n", o); return; }
  fprintf(o, "%" PRIu64 " of %" PRIu64 " paths through changed lines ran%s\n", x->paths_hit, x->paths,
          x->nmissed ? "; never ran:" : "");
  for (int i = 0; i < x->nmissed; i++) {
    char *lines = pp_path_lines(&fn->view->u->tab, fn->f, x->missed[i]);
    fprintf(o, "      #%-8" PRIu64 " %s\n", x->missed[i], lines);
    free(lines);
  }
  if (x->more_missed) fprintf(o, "      ... and more\n");
}

void pp_diff_text(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile) {
  fprintf(o, "pathprof coverage --diff %s: %s: %zu changed files in the profile, %" PRIu64 " changed lines with code\n",
          d->base, profile, d->files.n, d->sum.lines);
  fprintf(o, "%-32s %-22s %-22s %-22s %s\n", "changed code", "lines", "branches", "functions", "paths");
  for (size_t k = 0; k < d->files.n; k++) {
    const PPDiffFile *df = &d->files.v[k];
    const PPCovFile *f = &c->files.v[df->file];
    fputc('\n', o);
    text_sum(o, pp_report_path(f), &df->sum);
    char *miss = line_ranges(f, df);
    if (*miss) fprintf(o, "  lines never run: %s\n", miss);
    free(miss);
    if (df->mcdc)
      fprintf(o, "  MC/DC (masking): %u of %u conditions of the decisions on changed lines shown\n", df->mcdc_shown, df->mcdc);
    for (size_t b = 0; b < f->branches.n;) {  /* decisions on changed lines with an outcome not taken */
      size_t e = b;
      unsigned taken = 0, n = 0;
      for (; e < f->branches.n && f->branches.v[e].func == f->branches.v[b].func && f->branches.v[e].block == f->branches.v[b].block; e++) {
        n++;
        taken += f->branches.v[e].count > 0;
      }
      if (!f->branches.v[b].excluded && pp_diff_changed(d, df->file, f->branches.v[b].line) && taken < n)
        fprintf(o, "  decision on line %u: %u of %u outcomes taken%s\n", f->branches.v[b].line, taken, n,
                f->branches.v[b].reached ? "" : " (never reached)");
      b = e;
    }
    for (size_t i = 0; i < d->funcs.n; i++)
      if (d->funcs.v[i].dfile == (int)k) text_function(o, c, &d->funcs.v[i]);
  }
  fputc('\n', o);
  text_sum(o, "total", &d->sum);
  if (d->has_mcdc) fprintf(o, "MC/DC (masking) of the decisions on changed lines: %u of %u conditions shown\n", d->mcdc_shown, d->mcdc);
  if (d->no_data.n) {
    fputs("\nchanged C files with no coverage data (not built with pathcc, or none of their functions ran):", o);
    for (size_t i = 0; i < d->no_data.n; i++) fprintf(o, " %s", d->no_data.v[i]);
    fputc('\n', o);
  }
}

/* ---- JSON ---- */

static json_t *jsum(const PPCovSum *s) {
  return json_pack("{s:o, s:o, s:o, s:o}", "lines", pp_json_ratio(s->lines_hit, s->lines), "branches", pp_json_ratio(s->br_hit, s->br),
                   "functions", pp_json_ratio(s->funcs_hit, s->funcs), "paths", pp_json_ratio(s->paths_hit, s->paths));
}

static json_t *jfile(const PPCoverage *c, const PPDiff *d, size_t k) {
  const PPDiffFile *df = &d->files.v[k];
  const PPCovFile *f = &c->files.v[df->file];
  json_t *changed = json_array(), *lines = json_array(), *brs = json_array(), *funcs = json_array();
  for (unsigned ln = 1; ln <= df->nchanged_max; ln++) {
    if (!df->changed[ln]) continue;
    json_array_append_new(changed, json_integer(ln));
    if (ln <= f->nlines && pp_line_counted(f, ln))
      json_array_append_new(lines, json_pack("{s:i, s:o}", "line", (int)ln, "count", pp_json_count(f->lines[ln].count)));
  }
  for (size_t b = 0; b < f->branches.n;) {
    size_t e = b;
    json_t *outs = json_array();
    for (; e < f->branches.n && f->branches.v[e].func == f->branches.v[b].func && f->branches.v[e].block == f->branches.v[b].block; e++)
      json_array_append_new(outs, pp_json_count(f->branches.v[e].count));
    if (!f->branches.v[b].excluded && pp_diff_changed(d, df->file, f->branches.v[b].line))
      json_array_append_new(brs, json_pack("{s:i, s:b, s:o}", "line", (int)f->branches.v[b].line, "reached", f->branches.v[b].reached, "outcomes", outs));
    else json_decref(outs);
    b = e;
  }
  for (size_t i = 0; i < d->funcs.n; i++) {
    const PPDiffFunc *x = &d->funcs.v[i];
    if (x->dfile != (int)k) continue;
    const PPCovFunc *fn = &c->funcs.v[x->func];
    json_t *missed = json_array();
    for (int m = 0; m < x->nmissed; m++) {
      char *text = pp_path_lines(&fn->view->u->tab, fn->f, x->missed[m]);
      json_array_append_new(missed, json_pack("{s:o, s:s}", "id", pp_json_count(x->missed[m]), "lines", text));
      free(text);
    }
    json_array_append_new(funcs, json_pack("{s:s, s:i, s:o, s:o, s:o, s:b}", "name", fn->f->name, "line", (int)fn->f->line,
                                           "calls", pp_json_count(fn->calls),
                                           "paths", x->counted ? pp_json_ratio(x->paths_hit, x->paths) : json_null(),
                                           "missed_paths", missed, "more_missed", x->more_missed));
  }
  json_t *sum = jsum(&df->sum);
  if (d->has_mcdc) json_object_set_new(sum, "mcdc", pp_json_ratio(df->mcdc_shown, df->mcdc));
  return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o}", "file", f->name, "path", pp_report_path(f), "summary", sum,
                   "changed_lines", changed, "lines", lines, "branches", brs, "functions", funcs);
}

void pp_diff_json(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile) {
  json_t *files = json_array(), *nodata = json_array();
  for (size_t k = 0; k < d->files.n; k++) json_array_append_new(files, jfile(c, d, k));
  for (size_t i = 0; i < d->no_data.n; i++) json_array_append_new(nodata, json_string(d->no_data.v[i]));
  json_t *sum = jsum(&d->sum);
  if (d->has_mcdc) json_object_set_new(sum, "mcdc", pp_json_ratio(d->mcdc_shown, d->mcdc));
  json_t *root = json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:o}", "format", "pathprof-diff-coverage", "version", 1, "profile",
                           profile, "base", d->base, "summary", sum, "files", files, "no_coverage_data", nodata);
  json_dumpf(root, o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  fputc('\n', o);
  json_decref(root);
}

/* ---- Markdown ---- */

static void md_row(FILE *o, const char *name, const PPCovSum *s) {
  fputs("| ", o);
  if (name) pp_md_text(o, name); else fputs("**changed code**", o);
  fputs(" |", o);
  pp_md_cell(o, s->lines_hit, s->lines);
  pp_md_cell(o, s->br_hit, s->br);
  pp_md_cell(o, s->paths_hit, s->paths);
  fputc('\n', o);
}

void pp_diff_markdown(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile) {
  fprintf(o, "### Coverage of this change\n\n");
  if (!d->sum.lines && !d->no_data.n) fprintf(o, "No changed line holds code the profile covers.\n");
  fprintf(o, "| | lines | branches | paths through changed lines |\n|---|---:|---:|---:|\n");
  md_row(o, NULL, &d->sum);
  for (size_t k = 0; k < d->files.n; k++)
    if (d->files.v[k].sum.lines || d->files.v[k].sum.br) md_row(o, pp_report_path(&c->files.v[d->files.v[k].file]), &d->files.v[k].sum);
  if (d->has_mcdc)
    fprintf(o, "\nMC/DC (masking) of the decisions on changed lines: %u of %u conditions shown.\n", d->mcdc_shown, d->mcdc);
  bool details = false;
  for (size_t k = 0; k < d->files.n; k++) {
    const PPDiffFile *df = &d->files.v[k];
    const PPCovFile *f = &c->files.v[df->file];
    char *miss = line_ranges(f, df);
    bool fns = false;
    for (size_t i = 0; i < d->funcs.n; i++) fns |= d->funcs.v[i].dfile == (int)k && d->funcs.v[i].nmissed;
    if (*miss || fns) {
      if (!details) fprintf(o, "\n<details><summary>Not covered</summary>\n\n");
      details = true;
      fputs("**", o);
      pp_md_text(o, pp_report_path(f));
      fputs("**", o);
      if (*miss) fprintf(o, ": lines %s never ran", miss);
      fputs("\n\n", o);
      for (size_t i = 0; i < d->funcs.n; i++) {
        const PPDiffFunc *x = &d->funcs.v[i];
        if (x->dfile != (int)k || !x->nmissed) continue;
        const PPCovFunc *fn = &c->funcs.v[x->func];
        fprintf(o, "- `%s`: %" PRIu64 " of %" PRIu64 " paths through changed lines ran; never ran:\n", fn->f->name, x->paths_hit, x->paths);
        for (int m = 0; m < x->nmissed; m++) {
          char *lines = pp_path_lines(&fn->view->u->tab, fn->f, x->missed[m]);
          fprintf(o, "  - path #%" PRIu64 ": lines %s\n", x->missed[m], lines);
          free(lines);
        }
        if (x->more_missed) fputs("  - and more\n", o);
      }
      fputc('\n', o);
    }
    free(miss);
  }
  if (details) fputs("</details>\n", o);
  if (d->no_data.n) {
    fputs("\nChanged C files with no coverage data:", o);
    for (size_t i = 0; i < d->no_data.n; i++) { fputs(" `", o); fputs(d->no_data.v[i], o); fputs("`", o); }
    fputc('\n', o);
  }
  fprintf(o, "\n<sub>pathprof coverage --diff %s, profile %s</sub>\n", d->base, profile);
}

/* ---- lcov: the changed files, their changed lines and the decisions on them ---- */

typedef struct { const PPDiff *d; int dfile; } DiffPick;

/* A function of the change: one with code on a changed line (PPDiff.funcs). */
static bool diff_pick_func(const void *arg, int func) {
  const DiffPick *p = arg;
  for (size_t i = 0; i < p->d->funcs.n; i++)
    if (p->d->funcs.v[i].dfile == p->dfile && p->d->funcs.v[i].func == func) return true;
  return false;
}

/* A changed line of the record's file. */
static bool diff_pick_line(const void *arg, unsigned ln) {
  const DiffPick *p = arg;
  return pp_diff_changed(p->d, p->d->files.v[p->dfile].file, ln);
}

/* The regular lcov writer (lcov.c), told to keep the change only: one mechanism, so a --diff
   tracefile reads as the matching lines of the full one. */
void pp_diff_lcov(FILE *o, const PPCoverage *c, const PPDiff *d) {
  for (size_t k = 0; k < d->files.n; k++) {
    DiffPick p = { d, (int)k };
    PPLcovPick pick = { diff_pick_func, diff_pick_line, &p };
    pp_lcov_file(o, c, d->files.v[k].file, &pick);
  }
}
