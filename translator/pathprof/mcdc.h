/* MC/DC per decision from path counts (--decisions=conditions tables): the executed condition
   vectors, independence pairs, and which condition lacks which outcome, under the unique-cause
   (clang's) or masking (GCC's, DO-178C practice) definition. */
#ifndef PP_MCDC_H
#define PP_MCDC_H
#include "coverage.h"

typedef enum { PP_MCDC_MASKING, PP_MCDC_UNIQUE } PPMcdcDef;

/* An executed test vector: vals[i] 1 true, 0 false, -1 not evaluated (short-circuited). */
typedef struct { signed char *vals; int outcome; uint64_t count; } PPMcdcVec;

/* What one condition showed: shown[v] its value v was shown to affect the outcome (unique-cause:
   the value is part of an independence pair; masking: some vector has it unmasked); pair[v]:
   a vector showing it (-1 none); seen[v]: some vector evaluated it to v. */
typedef struct { bool seen[2], shown[2]; int pair[2]; } PPMcdcCond;

typedef struct {
  int func;                 /* index into PPCoverage.funcs */
  int file;                 /* index into PPCoverage.files of the file it is in, or -1 */
  const PPDecision *d;
  const PPCond *conds;      /* d->n conditions */
  VEC(PPMcdcVec) vecs;      /* distinct executed vectors, in first-seen order */
  PPMcdcCond *res;          /* per condition */
  int covered;              /* conditions with both values shown */
  uint64_t evaluations;     /* decision evaluations seen whole */
  uint64_t partial;         /* evaluations a path cut in two (a cut edge): left out */
} PPMcdcDecision;

/* Where a condition's block is: decision dec (index into decs), condition k. */
typedef struct { int func, block, dec, k; } PPMcdcWhere;

typedef struct PPMcdc {
  PPMcdcDef def;
  VEC(PPMcdcDecision) decs; /* by function (PPCoverage order), then decision */
  VEC(int) no_decisions;    /* functions whose tables have no decision structure (statements mode) */
  VEC(int) edge_mode;       /* functions profiled in edge mode: no paths to derive vectors from */
  int *by_file;             /* decisions with a file, by file, line and column (indices into decs) */
  size_t *file_start;       /* by_file[file_start[f] .. file_start[f+1]): file f's decisions */
  PPMcdcWhere *where;       /* every condition, by function and block */
  size_t nwhere;
} PPMcdc;

/* The outcome of decision conds[0..n) on a path of blocks[0..nb), with the values it evaluated
   in vals; -1: the decision is not on the path; -2: the path ends (or starts) inside it. */
int pp_mcdc_walk(const PPCond *conds, int n, const int *blocks, int nb, signed char *vals);
/* Fills res[0..n) from the vectors and returns the conditions covered. */
int pp_mcdc_analyse(const PPCond *conds, int n, const PPMcdcVec *vecs, int nvec, PPMcdcDef def, PPMcdcCond *res);
/* Adds vector vals (n conditions) with outcome and count to v, merging equal vectors. */
void pp_mcdc_add_vec(PPMcdcDecision *d, const signed char *vals, int outcome, uint64_t count);

void pp_mcdc_build(const PPCoverage *c, PPMcdcDef def, PPMcdc *m);
/* Whether some function of c has decision tables and path counts to derive MC/DC from. */
bool pp_mcdc_possible(const PPCoverage *c);
/* The decision and condition whose block is block of function func, or NULL. */
const PPMcdcWhere *pp_mcdc_where(const PPMcdc *m, int func, int block);
/* Whether outcome edge (an edge index of func's graph) of a condition block is shown by MC/DC:
   1 shown, 0 not, -1 the edge is no condition's outcome. */
int pp_mcdc_edge_shown(const PPMcdc *m, const PPCoverage *c, int func, int edge);
void pp_mcdc_free(PPMcdc *m);
#endif
