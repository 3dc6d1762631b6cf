/* pathprof coverage --format markdown: a summary table for a pull-request comment: the totals,
   then the files, least covered first. */
#include "formats.h"
#include "mcdcfmt.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 50   /* files listed; a comment stays readable */

/* "75.0% (30/40)", or "-" when there is nothing to cover. */
void pp_md_cell(FILE *o, uint64_t hit, uint64_t total) {
  if (!total) fputs(" - |", o);
  else fprintf(o, " %.1f%% (%" PRIu64 "/%" PRIu64 ") |", 100.0 * (double)hit / (double)total, hit, total);
}

/* Writes s with the characters Markdown tables and inline code would take as syntax escaped. */
void pp_md_text(FILE *o, const char *s) {
  for (; *s; s++) {
    if (strchr("|\\`*_[]<>#", *s)) fputc('\\', o);
    fputc(*s, o);
  }
}

typedef struct { size_t file; PPCovSum s; } Row;

static double ratio(uint64_t hit, uint64_t total) { return total ? (double)hit / (double)total : 2.0; }

static int least_covered(const void *a, const void *b) {
  const Row *x = a, *y = b;
  double rx = ratio(x->s.lines_hit, x->s.lines), ry = ratio(y->s.lines_hit, y->s.lines);
  if (rx != ry) return rx < ry ? -1 : 1;
  return x->file < y->file ? -1 : x->file > y->file;
}

/* A table row; name is a file's (escaped) or NULL for the total (file -1). With MC/DC, a last
   column: the conditions it shows. */
static void row(FILE *o, const PPCoverage *c, const char *name, const PPCovSum *s, int file) {
  fputs("| ", o);
  if (name) pp_md_text(o, name);
  else fputs("**total**", o);
  fputs(" |", o);
  pp_md_cell(o, s->lines_hit, s->lines);
  pp_md_cell(o, s->br_hit, s->br);
  pp_md_cell(o, s->funcs_hit, s->funcs);
  pp_md_cell(o, s->paths_hit, s->paths);
  if (c->mcdc) {
    PPMcdcSum m = {0};
    pp_mcdc_sum_file(c->mcdc, file, &m);
    pp_md_cell(o, m.cond_hit, m.cond);
  }
  fputc('\n', o);
}

void pp_format_markdown(FILE *o, const PPCoverage *c, const char *profile) {
  Row *rows = pp_xcalloc(c->files.n + 1, sizeof *rows);
  PPCovSum all = {0};
  for (size_t i = 0; i < c->files.n; i++) {
    rows[i].file = i;
    pp_coverage_sum_file(c, &c->files.v[i], &rows[i].s);
    pp_coverage_sum_add(&all, &rows[i].s);
  }
  fputs("### Coverage\n\n", o);
  fprintf(o, "%zu files, %zu functions (pathprof, profile `%s`).\n\n", c->files.n, c->funcs.n, profile);
  const char *mc = c->mcdc ? (c->mcdc->def == PP_MCDC_UNIQUE ? " MC/DC (unique-cause) |" : " MC/DC |") : "";
  const char *mcr = c->mcdc ? "---:|" : "";
  fprintf(o, "| | lines | branches | functions | paths |%s\n|---|---:|---:|---:|---:|%s\n", mc, mcr);
  row(o, c, NULL, &all, -1);
  if (all.lines_excl || all.br_excl || all.paths_excl)  /* what exclusion markers took out of the totals */
    fprintf(o, "\nExcluded by markers: %" PRIu64 " lines, %" PRIu64 " branches, %" PRIu64 " paths.\n", all.lines_excl,
            all.br_excl, all.paths_excl);
  pp_sort(rows, c->files.n, sizeof *rows, least_covered);
  if (c->files.n) {
    fprintf(o, "\n<details><summary>Files, least covered first</summary>\n\n"
               "| file | lines | branches | functions | paths |%s\n|---|---:|---:|---:|---:|%s\n", mc, mcr);
    for (size_t i = 0; i < c->files.n && i < MAX_FILES; i++)
      row(o, c, pp_report_path(&c->files.v[rows[i].file]), &rows[i].s, (int)rows[i].file);
    if (c->files.n > MAX_FILES) fprintf(o, "\n%zu more files.\n", c->files.n - MAX_FILES);
    fputs("\n</details>\n", o);
  }
  free(rows);
}
