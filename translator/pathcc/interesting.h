/* --interesting=SPEC: the Ball-Larus paths a ppp build numbers compactly, per function. */
#ifndef PP_INTERESTING_H
#define PP_INTERESTING_H
#include "model/graph.h"

typedef struct { int src, dst, kind; } PPShapeEdge;

/* One function's interesting paths; from a profile also the shape of the DAG they number. */
typedef struct {
  char *file, *name;      /* file as its tables name it (JSON: may be absent, NULL) */
  VEC(uint64_t) ids;      /* Ball-Larus ids */
  bool shaped;            /* nblocks and edges are known: ids hold only for that graph */
  size_t nblocks;
  VEC(PPShapeEdge) edges; /* the live edges in order */
} PPIntFunc;

typedef struct {
  char *spec;
  VEC(PPIntFunc) funcs;
} PPInteresting;

/* Reads SPEC: PROFILE (its executed paths), hot:P%:PROFILE (per function the hottest paths
   that cover P% of its path executions) or a JSON file (doc/formats.md, interesting paths).
   Returns 0, or -1 with *err naming the file and the problem. */
int pp_interesting_load(const char *spec, PPInteresting *out, char **err);
/* The entry for function name of file whose DAG is g, or NULL when there is none. *changed
   is set when an entry of that name and file exists but numbers another graph. */
const PPIntFunc *pp_interesting_find(const PPInteresting *s, const char *file, const char *name, const PPGraph *g,
                                     bool *changed);
void pp_interesting_free(PPInteresting *s);
#endif
