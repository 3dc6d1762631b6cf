/* Prime paths of a function's CFG (live blocks but the exit; normal, back and cut edges), as
   GCC 15's -fpath-coverage defines them: the simple paths, cycles included, that are no proper
   subpath of another simple path; and the back or cut edges each takes (prime.c). */
#ifndef PP_MODEL_PRIME_H
#define PP_MODEL_PRIME_H
#include "graph.h"

enum { PP_PRIME_NOT_RUN, PP_PRIME_RAN, PP_PRIME_UNDECIDED };

typedef struct {
  int *blocks, n;       /* its blocks; a cycle ends with its first block again */
  int crossings;        /* back or cut edges it takes */
  int state;            /* PP_PRIME_* (pathprof/prime.c) */
  uint64_t count;       /* times it ran (state PP_PRIME_RAN or NOT_RUN) */
} PPPrime;

typedef struct {
  int func;             /* the caller's index of the function (pathprof: in PPCoverage.funcs) */
  VEC(PPPrime) paths;   /* by length, longest first, then by blocks */
  bool limited;         /* more simple paths than the limit: none enumerated */
  bool edge;            /* built in edge mode: no paths, every prime path undecided */
  unsigned k;           /* iterations the profile holds: 1 in path mode, the forest's k in kpath mode */
  int need_k;           /* the k that decides all of them: the most crossings + 1 */
  unsigned ran, undecided;
} PPPrimeFunc;

/* The prime paths of graph g into out, or -1 when enumerating them meets more than limit simple
   paths. */
int pp_prime_enumerate(const PPGraph *g, size_t limit, PPPrimeFunc *out);
/* The k whose k-iteration paths hold every prime path of g (the most back or cut edges one takes,
   plus 1), or -1 past limit simple paths. */
int pp_prime_need_k(const PPGraph *g, size_t limit);
/* Whether u->v is a back or cut edge of g (and no normal edge): a Ball-Larus path ends there. */
bool pp_prime_boundary(const PPGraph *g, int u, int v);
#endif
