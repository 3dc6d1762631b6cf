/* Edge mode: every edge's count from the chord counters, by flow conservation. */
#ifndef PP_FLOW_H
#define PP_FLOW_H
#include "tables.h"

/* Fills edges[0..m] for function f of edge-mode tables from the unit's counters: every live CFG
   edge (normal, exit, back, cut) gets its count, a dummy-entry edge the count of the back and cut
   edges into its header, a dummy-exit edge those out of its latch, and edges[m] (m = edge count)
   the virtual exit->entry edge, i.e. the calls. Returns false when the counts do not balance
   (an activation that never returned: exit() from a callee, longjmp, or lost updates); the
   edges that could not be solved are then 0 or clamped at 0. stops (NULL: none), per block, are
   the activations that stopped in it and never left (partial paths; negative: activations that
   came back into it, a longjmp to its setjmp): flow that leaves the block for the exit unseen. */
bool pp_flow_edges(const PPTabFunc *f, const unsigned long long *counters, const int64_t *stops, uint64_t *edges);
#endif
