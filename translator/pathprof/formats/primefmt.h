/* primefmt.h: prime-path coverage writers (prime.c) for pathprof coverage --prime-paths. */
#ifndef PP_PRIMEFMT_H
#define PP_PRIMEFMT_H
#include "pathprof/prime.h"
#include <stdio.h>

/* A summary per function, then each function's prime paths with their counts and lines. */
void pp_prime_text(FILE *o, const PPCoverage *c, const PPPrimes *p, const char *profile);
/* doc/coverage-json.md, "Prime paths". */
void pp_prime_json(FILE *o, const PPCoverage *c, const PPPrimes *p, const char *profile);
/* The section of function func's HTML page (nothing when p has no such function). */
void pp_prime_html(FILE *o, const PPCoverage *c, const PPPrimes *p, int func);
#endif
