/* Prime-path coverage from the path profile: a function's prime paths (maximal simple paths of its
   CFG, as GCC 15's -fpath-coverage defines them), which ran and how often. A prime path that takes
   no back or cut edge lies inside one Ball-Larus path, so a path-mode profile decides it; one that
   takes j of them spans j + 1 consecutive Ball-Larus paths of one activation, which a kpath build
   with k >= j + 1 counts. The others are undecided, with the k they need, unless the function
   never ran a path at all. */
#ifndef PP_PRIME_H
#define PP_PRIME_H
#include "coverage.h"

enum { PP_PRIME_NOT_RUN, PP_PRIME_RAN, PP_PRIME_UNDECIDED };

typedef struct {
  int *blocks, n;       /* its blocks; a cycle ends with its first block again */
  int crossings;        /* back or cut edges it takes */
  int state;            /* PP_PRIME_* */
  uint64_t count;       /* times it ran (state PP_PRIME_RAN or NOT_RUN) */
} PPPrime;

typedef struct {
  int func;             /* index into PPCoverage.funcs */
  VEC(PPPrime) paths;   /* by length, longest first, then by blocks */
  bool limited;         /* more simple paths than the limit: none enumerated */
  bool edge;            /* built in edge mode: no paths, every prime path undecided */
  unsigned k;           /* iterations the profile holds: 1 in path mode, the forest's k in kpath mode */
  int need_k;           /* the k that decides all of them: the most crossings + 1 */
  unsigned ran, undecided;
} PPPrimeFunc;

typedef struct PPPrimes {
  VEC(PPPrimeFunc) funcs;  /* every function, in PPCoverage order */
  size_t limit;
  size_t most;             /* the most prime paths of one function */
} PPPrimes;

/* The prime paths of graph g's CFG (live blocks but the exit; normal, back and cut edges) into
   out, or -1 when enumerating them meets more than limit simple paths. */
int pp_prime_enumerate(const PPGraph *g, size_t limit, PPPrimeFunc *out);
/* Every function's prime paths and their counts (an edge-mode function's all undecided). */
void pp_primes_build(const PPCoverage *c, size_t limit, PPPrimes *p);
void pp_primes_free(PPPrimes *p);
#endif
