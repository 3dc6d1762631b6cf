/* mcdcfmt.h: MC/DC writers for pathprof coverage --mcdc (mcdc.c), one per format that has MC/DC,
   and the pieces the regular formats carry MC/DC with. */
#ifndef PP_MCDCFMT_H
#define PP_MCDCFMT_H
#include "pathprof/mcdc.h"
#include <jansson.h>
#include <stdio.h>

/* Totals of decisions (all conditions shown) and conditions (both values shown). */
typedef struct { uint64_t dec, dec_hit, cond, cond_hit; } PPMcdcSum;
void pp_mcdc_sum_add(PPMcdcSum *s, const PPMcdcDecision *d);
/* Adds the decisions of file (an index into PPCoverage.files; -1: every decision) to s. */
void pp_mcdc_sum_file(const PPMcdc *m, int file, PPMcdcSum *s);
const char *pp_mcdc_def_name(PPMcdcDef d);

/* gcov -g's lines under a decision's line: "condition outcomes covered N/M", the missing ones. */
void pp_mcdc_gcov_decision(FILE *o, const PPMcdcDecision *d);
/* A decision as doc/coverage-json.md's "MC/DC" gives it. */
json_t *pp_mcdc_jdecision(const PPCoverage *c, const PPMcdcDecision *d);
/* The MCDC, MCF and MCH records of the decisions of file (nothing when it has none); with line,
   only the decisions with a condition on a line it picks (coverage --diff). */
void pp_mcdc_lcov_file(FILE *o, const PPMcdc *m, int file, bool (*line)(const void *, unsigned), const void *arg);

/* Summary per function, then each decision's executed vectors and each condition's verdict. */
void pp_mcdc_text(FILE *o, const PPCoverage *c, const PPMcdc *m, const char *profile);
/* Per decision its source line and gcov -g's condition lines. */
void pp_mcdc_gcov(FILE *o, const PPCoverage *c, const PPMcdc *m);
/* doc/coverage-json.md, "MC/DC". */
void pp_mcdc_json(FILE *o, const PPCoverage *c, const PPMcdc *m, const char *profile);
/* lcov 2.x MCDC, MCF and MCH records per source file. */
void pp_mcdc_lcov(FILE *o, const PPCoverage *c, const PPMcdc *m);
/* One line on stderr per function without MC/DC and what to rebuild it with. */
void pp_mcdc_explain(const PPCoverage *c, const PPMcdc *m);
#endif
