/* Prime-path coverage from the path profile: a function's prime paths (maximal simple paths of its
   CFG, as GCC 15's -fpath-coverage defines them), which ran and how often. A prime path that takes
   no back or cut edge lies inside one Ball-Larus path, so a path-mode profile decides it; one that
   takes j of them spans j + 1 consecutive Ball-Larus paths of one activation, which a kpath build
   with k >= j + 1 counts. The others are undecided, with the k they need, unless the function
   never ran a path at all. */
#ifndef PP_PRIME_H
#define PP_PRIME_H
#include "coverage.h"
#include "model/prime.h"

typedef struct PPPrimes {
  VEC(PPPrimeFunc) funcs;  /* every function, in PPCoverage order */
  size_t limit;
  size_t most;             /* the most prime paths of one function */
} PPPrimes;

/* Every function's prime paths and their counts (an edge-mode function's all undecided). */
void pp_primes_build(const PPCoverage *c, size_t limit, PPPrimes *p);
void pp_primes_free(PPPrimes *p);
#endif
