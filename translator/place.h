/* Probe placement: edge weights, a maximum spanning tree, and event-counting increments on chords. */
#ifndef PP_PLACE_H
#define PP_PLACE_H
#include "graph.h"

/* Static estimate (Ball-Larus 1994 style): a loop header runs 10x its entries, branches split evenly. */
void pp_place_estimate(PPGraph *g);
/* Spanning tree over the DAG plus exit->entry by weight; sets inc and chord on every DAG edge
   so that the incs along each path sum to its Ball-Larus value. Returns the number of chords. */
int pp_place_probes(PPGraph *g);
/* zero[v] = the path register is certainly 0 on arrival at v (allocated, one per block). */
bool *pp_place_zero(const PPGraph *g);
#endif
