/* Paths as exact keys that every build of the same source shares (pathkey.c). */
#ifndef PP_PATHKEY_H
#define PP_PATHKEY_H
#include "tables.h"

/* A path's exact key: where it starts ("entry", or "loop@12:7", the loop head it starts at after
   a back edge) and each decision it takes as the decision's source position and outcome
   ("14:9=T", "20:3=case 4"), then "back" or "exit". Two paths of a function never share a key;
   two builds of the same source give a path the same key (tables without positions: one build). */
char *pp_path_key(const PPTables *t, const PPTabFunc *f, uint64_t id);
/* A hash of what the function's source gave its graph (positions, lines, labels, edges): builds of
   the same source agree, builds of changed source differ. */
uint64_t pp_func_shape(const PPTables *t, const PPTabFunc *f);
/* The decisions ("14:9=T") of key a that not every key in others[0..n) takes: what tells path a
   from the paths that run through the same lines. */
char *pp_key_difference(const char *a, const char *const *others, size_t n);
#endif
