/* Loops whose iterations count into a local variable, settled into the counters at the exit. */
#ifndef PP_PROMOTE_H
#define PP_PROMOTE_H
#include "model/graph.h"

/* An innermost loop with one path round it and one way out: every round counts in a local; an
   iteration that enters by the back edge takes path `path`, the first one the path that began
   before the loop; the exit edge counts both (rewrite.c). */
typedef struct {
  int back;        /* the back edge (latch -> header) */
  int exit;        /* the only edge leaving the loop */
  uint64_t path;   /* Ball-Larus id of an iteration entered by the back edge */
  uint64_t rinc;   /* the sum of the placed increments round the loop (header to latch) */
  uint64_t xinc;   /* ... of those before the exit edge leaves the round */
  uint64_t value, slot;  /* the rewriter's: the register where such a round ends, its counter */
  int *round;      /* the edges round the loop from the header, the back edge last (malloc'd) */
  int nround;
  int nbefore;     /* of them, those the last round takes before it leaves by the exit edge */
} PPPromoted;

/* The loops of g that qualify: no calls (nothing can dump, fork, exit or jump away while a
   count is held in the local), every block with one successor in the loop, one block with one
   more out of it, no cut edge on the way round. Returns how many; *out gets them (malloc'd). */
size_t pp_promote_loops(const PPGraph *g, PPPromoted **out);

/* Frees the n loops pp_promote_loops gave (their round edges too). */
void pp_promote_free(PPPromoted *p, size_t n);
#endif
