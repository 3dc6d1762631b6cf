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
  const PPDecision *d;
  const PPCond *conds;      /* d->n conditions */
  VEC(PPMcdcVec) vecs;      /* distinct executed vectors, in first-seen order */
  PPMcdcCond *res;          /* per condition */
  int covered;              /* conditions with both values shown */
  uint64_t evaluations;     /* decision evaluations seen whole */
  uint64_t partial;         /* evaluations a path cut in two (a cut edge): left out */
} PPMcdcDecision;

typedef struct {
  PPMcdcDef def;
  VEC(PPMcdcDecision) decs; /* by function (PPCoverage order), then decision */
  VEC(int) no_decisions;    /* functions whose tables have no decision structure (statements mode) */
  VEC(int) edge_mode;       /* functions profiled in edge mode: no paths to derive vectors from */
} PPMcdc;

/* The outcome of decision conds[0..n) on a path of blocks[0..nb), with the values it evaluated
   in vals; -1: the decision is not on the path; -2: the path ends (or starts) inside it. */
int pp_mcdc_walk(const PPCond *conds, int n, const int *blocks, int nb, signed char *vals);
/* Fills res[0..n) from the vectors and returns the conditions covered. */
int pp_mcdc_analyse(const PPCond *conds, int n, const PPMcdcVec *vecs, int nvec, PPMcdcDef def, PPMcdcCond *res);
/* Adds vector vals (n conditions) with outcome and count to v, merging equal vectors. */
void pp_mcdc_add_vec(PPMcdcDecision *d, const signed char *vals, int outcome, uint64_t count);

void pp_mcdc_build(const PPCoverage *c, PPMcdcDef def, PPMcdc *m);
void pp_mcdc_free(PPMcdc *m);
#endif
