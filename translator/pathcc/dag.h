/* CFG -> DAG: reachability, back edges found by DFS, dummy edges, cuts that bound the path count. */
#ifndef PP_DAG_H
#define PP_DAG_H
#include "model/graph.h"

/* Turns g into a Ball-Larus DAG. Cuts edges until the path count is at most max_paths
   (<= 2^62). Returns 0, or -1 with *why set when the function cannot be numbered. */
int pp_dag_build(PPGraph *g, uint64_t max_paths, const char **why);
#endif
