/* Loops whose iterations count into a local variable, settled into the counters at the exit. */
#ifndef PP_PROMOTE_H
#define PP_PROMOTE_H
#include "model/graph.h"

/* An innermost loop with one path round it and one way out: an iteration that enters by the
   back edge takes path `path` and counts it in a local; the exit edge adds the local to the
   path's counter. */
typedef struct {
  int back;        /* the back edge (latch -> header) */
  int exit;        /* the only edge leaving the loop */
  uint64_t path;   /* Ball-Larus id of an iteration entered by the back edge */
  uint64_t value, slot;  /* the rewriter's: the register where such a round ends, its counter */
} PPPromoted;

/* The loops of g that qualify: no calls (nothing can dump, fork, exit or jump away while a
   count is held in the local), every block with one successor in the loop, one block with one
   more out of it, no cut edge on the way round. Returns how many; *out gets them (malloc'd). */
size_t pp_promote_loops(const PPGraph *g, PPPromoted **out);
#endif
