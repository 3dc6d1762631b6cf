/* The decision structure of conditions-mode tables: which blocks are the conditions of which
   decision, in evaluation order, and where each outcome leads (read and written as JSON). */
#ifndef PP_DECISION_H
#define PP_DECISION_H
#include <jansson.h>
#include "graph.h"

/* The "decisions" array of a function's tables, or NULL when it has none. */
json_t *pp_decisions_json(const PPGraph *g);
/* Reads a "decisions" array into g (whose blocks are read); NULL reads as none. Refuses (-1)
   block ids outside g, file ids outside nfiles, and a next condition that is not a later one,
   so every walk over a decision ends. */
int pp_decisions_read(PPGraph *g, json_t *a, int nfiles);
#endif
