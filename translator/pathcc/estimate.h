/* Static edge-frequency estimate after Wu and Larus (1994): branch heuristics combined with
   Dempster-Shafer, block frequencies propagated through loops inner to outer. */
#ifndef PP_ESTIMATE_H
#define PP_ESTIMATE_H
#include "cfg.h"

/* Sets every edge's weight: live CFG edges from branch probabilities (loop branch, pointer,
   opcode, call, return, store and guard heuristics on the blocks' facts) and loop-aware
   frequency propagation, dummies from the back edges they stand for. Falls back to
   pp_place_estimate when a function has too many loops times blocks. */
void pp_estimate_wu_larus(PPGraph *g);
#endif
