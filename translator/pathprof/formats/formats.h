/* formats.h: pathprof coverage's writers, one file per format; each writes the whole coverage c. */
#ifndef PP_FORMATS_H
#define PP_FORMATS_H
#include "pathprof/coverage.h"
#include <stdio.h>

/* A summary per file and function (text.c). */
void pp_format_text(FILE *o, const PPCoverage *c, const char *profile);
/* The sources annotated as gcov writes them (gcov.c). */
void pp_format_gcov(FILE *o, const PPCoverage *c, const char *profile);
/* doc/coverage-json.md (json.c). */
void pp_format_json(FILE *o, const PPCoverage *c, const char *profile);
/* An lcov tracefile (lcov.c). */
void pp_format_lcov(FILE *o, const PPCoverage *c);
/* Cobertura XML (cobertura.c). */
void pp_format_cobertura(FILE *o, const PPCoverage *c);
/* Writes index.html, s<N>.html per source file and f<N>.html per function into dir (created if
   missing). Function pages are a list of sections (html.c fn_sections). Returns 0, or -1 after
   one error line on stderr (html.c). */
int pp_html_write(const PPCoverage *c, const char *profile, const char *dir);
#endif
