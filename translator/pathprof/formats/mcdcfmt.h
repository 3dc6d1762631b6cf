/* mcdcfmt.h: MC/DC writers for pathprof coverage --mcdc (mcdc.c), one per format that has MC/DC. */
#ifndef PP_MCDCFMT_H
#define PP_MCDCFMT_H
#include "pathprof/mcdc.h"
#include <stdio.h>

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
