/* Edge mode: every edge's count from the chord counters, by flow conservation. */
#ifndef PP_FLOW_H
#define PP_FLOW_H
#include "tables.h"

/* The graph edge mode's counters are placed on and solved over: edge i < m is CFG edge i (its
   source moved to the last sub-vertex of a block with splits), edge m the virtual exit->entry
   edge, and per split k (its block: stops[site].block) the edge PP_FLOW_STOP(m, k) from the
   sub-vertex before the split's group to the exit (the group's stops) and PP_FLOW_RET(m, k) on
   to the next sub-vertex (the group's returns; src -1 for a PP_SPLIT_LAST group). Vertices:
   the blocks, then the sub-vertices. */
typedef struct { int nv, ne, *src, *dst; } PPFlowGraph;
#define PP_FLOW_STOP(m, k) ((m) + 1 + 2 * (k))
#define PP_FLOW_RET(m, k) ((m) + 2 + 2 * (k))
void pp_flow_graph(const PPGraph *g, const PPStop *stops, const PPSplit *splits, size_t n, PPFlowGraph *fg);
void pp_flow_graph_free(PPFlowGraph *fg);

/* Fills edges[0..m] for function f of edge-mode tables from the unit's counters: every live CFG
   edge (normal, exit, back, cut) gets its count, a dummy-entry edge the count of the back and cut
   edges into its header, a dummy-exit edge those out of its latch, and edges[m] (m = edge count)
   the virtual exit->entry edge, i.e. the calls. Returns false when the counts do not balance
   (an activation that never returned: exit() from a callee, longjmp, or lost updates); the
   edges that could not be solved are then 0 or clamped at 0. stops (NULL: none), per block, are
   the activations that stopped in it and never left (partial paths; negative: activations that
   came back into it, a longjmp to its setjmp): flow that leaves the block for the exit unseen.
   split_stops (NULL: not wanted), one per f->splits, receives the activations that stopped in
   each split's group (negative in a dump taken while they ran: their returns came after it). */
bool pp_flow_edges(const PPTabFunc *f, const unsigned long long *counters, const int64_t *stops, uint64_t *edges,
                   int64_t *split_stops);
#endif
