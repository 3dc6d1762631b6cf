/* pathprof coverage --format html: a self-contained HTML report directory. */
#ifndef PP_HTML_H
#define PP_HTML_H
#include "coverage.h"

/* Writes index.html, s<N>.html per source file and f<N>.html per function into dir (created if
   missing). Function pages are a list of sections (html.c fn_sections). Returns 0, or -1 after
   one error line on stderr. */
int pp_html_write(const PPCoverage *c, const char *profile, const char *dir);
#endif
