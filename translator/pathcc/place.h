/* Probe placement: edge weights, a maximum spanning tree, and event-counting increments on chords. */
#ifndef PP_PLACE_H
#define PP_PLACE_H
#include "model/ppp.h"
#include "model/tables.h"

/* Static estimate (Ball-Larus 1994 style): a loop header runs 10x its entries, branches split evenly. */
void pp_place_estimate(PPGraph *g);
/* A dummy edge's weight: that of the back and cut edges it stands for (after the CFG edges'). */
void pp_place_dummy_weights(PPGraph *g);
/* Spanning tree over the DAG plus exit->entry by weight; sets inc and chord on every DAG edge
   so that the incs along each path sum to its Ball-Larus value. Returns the number of chords. */
int pp_place_probes(PPGraph *g);
/* Edge mode (optimal edge profiling): a maximum spanning tree over the live CFG edges plus a
   virtual exit->entry edge of weight calls, and the stop and return edges of the splits
   (model/flow.h; every stop edge on the tree, GCC's fake edges); each chord gets a counter slot
   (e->slot, numbered from 0, chord set; a split's return edge: its slot, else -1). When the
   virtual edge is a chord its counter counts the function's entries (*entry_slot), else
   *entry_slot is -1. Returns the number of counters, or -1 (nothing placed) when a stop edge
   cannot join the tree. */
int pp_place_edges(PPGraph *g, double calls, const PPStop *stops, PPSplit *splits, size_t ns, int *entry_slot);
/* zero[v] = the path register is certainly 0 on arrival at v (allocated, one per block). */
bool *pp_place_zero(const PPGraph *g);
/* Places probes for the one register: increments on the chords of the usual spanning tree
   whose sums along each path are its combined value; val keeps the Ball-Larus values. */
void pp_ppp_place(PPGraph *g, const PPPNumbering *p, int k);
#endif
