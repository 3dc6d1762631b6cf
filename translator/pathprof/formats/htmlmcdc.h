/* htmlmcdc.h: MC/DC on the HTML report's pages (htmlmcdc.c), in a build with decision tables. */
#ifndef PP_HTMLMCDC_H
#define PP_HTMLMCDC_H
#include "pathprof/coverage.h"
#include <stdio.h>

/* The MC/DC marks of file's source rows, written in line order; NULL when the file has no
   decision with MC/DC (or c->mcdc is NULL). */
typedef struct PPHtmlMcdc PPHtmlMcdc;
PPHtmlMcdc *pp_html_mcdc_open(const PPCoverage *c, int file);
void pp_html_mcdc_close(PPHtmlMcdc *h);
/* Whether line ln has a condition MC/DC has not shown both values of. */
bool pp_html_mcdc_row_missing(const PPHtmlMcdc *h, unsigned ln);
/* Line ln's source text, each such condition a link to its decision titled with what it lacks,
   then a badge per decision starting on the line. Rows go in ascending order. */
void pp_html_mcdc_source(FILE *o, PPHtmlMcdc *h, const PPCovFile *f, unsigned ln);
/* The file page's section: per decision its truth table and each condition's verdict. */
void pp_html_mcdc_section(FILE *o, const PPCoverage *c, int file);
#endif
