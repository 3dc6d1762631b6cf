/* diffcov.h: differential coverage, the coverage of the lines a change added or modified
   (pathprof coverage --diff BASE, diffcov.c): which of them ran, their branches, and every path
   through them. */
#ifndef PP_DIFFCOV_H
#define PP_DIFFCOV_H
#include "coverage.h"

#define PP_DIFF_MISSED 10   /* unexecuted paths listed per function */

/* A changed file the profile covers. */
typedef struct {
  int file;             /* index in PPCoverage.files */
  char *changed;        /* changed[ln], ln 1..nchanged_max: the change added or modified line ln */
  unsigned nchanged_max;
  unsigned nchanged;    /* changed lines, with code or not */
  PPCovSum sum;         /* of the changed code: lines, branches, functions, paths (blocks, edges: 0) */
  unsigned mcdc, mcdc_shown;  /* conditions of the decisions on changed lines; both values shown */
} PPDiffFile;

/* A function with code on a changed line. */
typedef struct {
  int func;             /* index in PPCoverage.funcs */
  int dfile;            /* index in PPDiff.files */
  bool counted;         /* its paths were counted (path mode) */
  uint64_t paths, paths_hit;      /* static paths through a changed line; executed ones */
  uint64_t missed[PP_DIFF_MISSED];/* ids of paths through a changed line that never ran */
  int nmissed;
  bool more_missed;     /* there are more than those */
} PPDiffFunc;

typedef struct PPDiff {
  const char *base;
  VEC(PPDiffFile) files;     /* in PPCoverage.files order */
  VEC(PPDiffFunc) funcs;     /* by file, then first line */
  VEC(char *) no_data;       /* changed C files the profile has nothing of (no unit ran) */
  PPCovSum sum;
  bool has_mcdc;             /* some changed function has decision tables (--decisions=conditions) */
  unsigned mcdc, mcdc_shown; /* masking MC/DC of the decisions on changed lines: conditions, shown */
} PPDiff;

/* Reads the change (BASE a unified diff file, - for stdin, or a git revision diffed against the
   working tree) and derives its coverage from c. Returns 0, or -1 after one error line. */
int pp_diff_build(const char *base, const PPCoverage *c, PPDiff *d);
void pp_diff_free(PPDiff *d);
/* Is line ln of coverage file fi changed? */
bool pp_diff_changed(const PPDiff *d, int fi, unsigned ln);
/* The PPDiff.files entry of coverage file fi, or NULL. */
const PPDiffFile *pp_diff_file(const PPDiff *d, int fi);

/* The --fail-under checks on hit/total of lines, branches and paths (covcmd.c); thresholds
   below 0 are not checked, nothing to cover passes. Returns 3 after one line each that fails. */
int pp_coverage_thresholds(const double fail[3], const uint64_t hit[3], const uint64_t total[3], const char *what);

/* Writers of --diff (formats/diffreport.c): text, json, markdown, lcov (the changed lines only). */
void pp_diff_text(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile);
void pp_diff_json(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile);
void pp_diff_markdown(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile);
void pp_diff_lcov(FILE *o, const PPCoverage *c, const PPDiff *d);
#endif
