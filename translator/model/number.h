/* Ball-Larus path numbering on the DAG, and its inverse: path id -> edge sequence. */
#ifndef PP_NUMBER_H
#define PP_NUMBER_H
#include "graph.h"

/* Sets np[] and every DAG edge's val; returns the path count (saturated at UINT64_MAX). */
uint64_t pp_number_paths(PPGraph *g);
/* Writes the DAG edges of path id into edges[] (capacity cap); returns their count,
   or -1 if id is not a path of g. Needs pp_number_paths first. */
int pp_number_decode(const PPGraph *g, uint64_t id, int *edges, int cap);
#endif
