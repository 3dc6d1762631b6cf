/* formats.h: pathprof coverage's writers, one file per format; each writes the whole coverage c. */
#ifndef PP_FORMATS_H
#define PP_FORMATS_H
#include "pathprof/coverage.h"
#include <jansson.h>
#include <stdio.h>

/* A summary per file and function (text.c). */
void pp_format_text(FILE *o, const PPCoverage *c, const char *profile);
/* The sources annotated as gcov writes them (gcov.c). */
void pp_format_gcov(FILE *o, const PPCoverage *c, const char *profile);
/* doc/coverage-json.md (json.c). */
void pp_format_json(FILE *o, const PPCoverage *c, const char *profile);
/* A count as a JSON integer, held at INT64_MAX: Jansson's integers are signed, and a saturated
   count must not turn negative (json.c; every JSON writer of counts uses it). */
json_t *pp_json_count(uint64_t v);
/* {"total": t, "covered": h}: the shape of every hit/total pair in the JSON reports (json.c). */
json_t *pp_json_ratio(uint64_t hit, uint64_t total);
/* A text report's "hit/total pct%" cell, blank with "-" when there is nothing to cover (text.c;
   the coverage, MC/DC and --diff tables line up because they share it). */
void pp_text_ratio(FILE *o, uint64_t hit, uint64_t total);
/* An lcov tracefile (lcov.c). */
void pp_format_lcov(FILE *o, const PPCoverage *c);
/* Which functions and lines (with their branches) one lcov record shows: --diff keeps those of
   the change, the full report all; arg is the picker's own. */
typedef struct {
  bool (*func)(const void *arg, int func);      /* func: index in PPCoverage.funcs */
  bool (*line)(const void *arg, unsigned line);
  const void *arg;
} PPLcovPick;
/* File fi's lcov record (SF .. end_of_record), the excluded lines and branches left out;
   pick NULL: every function and line; MC/DC (where the build has it) of the decisions with a
   condition on a picked line. */
void pp_lcov_file(FILE *o, const PPCoverage *c, int fi, const PPLcovPick *pick);
/* Cobertura XML (cobertura.c). */
void pp_format_cobertura(FILE *o, const PPCoverage *c);
/* Writes index.html, s<N>.html per source file and f<N>.html per function into dir (created if
   missing). Function pages are a list of sections (html.c fn_sections). With a change d (--diff),
   only its files and their functions, changed lines marked. Returns 0, or -1 after one error
   line on stderr (html.c). */
struct PPDiff;
int pp_html_write(const PPCoverage *c, const char *profile, const char *dir, const struct PPDiff *d);
/* The index page: a directory tree of the files, sortable and searchable, and the functions
   (htmlindex.c). */
void pp_html_index(FILE *o, const PPCoverage *c, const char *profile, const struct PPDiff *d);

/* SonarQube's generic coverage XML, sonar-generic-coverage.xsd (sonarqube.c). */
void pp_format_sonarqube(FILE *o, const PPCoverage *c, const char *profile);
/* A Coveralls job for POST /api/v1/jobs (coveralls.c); CI details from the environment. */
void pp_format_coveralls(FILE *o, const PPCoverage *c, const char *profile);
/* A Markdown summary for a pull-request comment (markdown.c). */
void pp_format_markdown(FILE *o, const PPCoverage *c, const char *profile);

/* markdown.c: a table cell "75.0% (30/40) |" ("-" for nothing to cover), and text with what
   Markdown would take as syntax escaped. */
void pp_md_cell(FILE *o, uint64_t hit, uint64_t total);
void pp_md_text(FILE *o, const char *s);

/* ci.c: file names relative to the project root, which defaults to the current directory;
   files outside it keep their absolute path. pp_report_root_set returns -1 when dir is not
   found. */
int pp_report_root_set(const char *dir);
const char *pp_report_root(void);
const char *pp_report_path(const PPCovFile *f);
/* Per line of f (index 1..nlines): decision outcomes on it, those taken, whether one ran
   (outcomes excluded by markers left out). With c->mcdc an outcome of a condition counts as taken
   only when MC/DC shows that value of it. */
typedef struct { unsigned total, taken; bool reached; } PPLineBranches;
PPLineBranches *pp_line_branches(const PPCoverage *c, const PPCovFile *f);
#endif
