/* Placement weights from an earlier profile (pathcc --placement-profile): each function's
   measured edge counts, as Ball and Larus placed probes with an edge profile. */
#ifndef PP_PROFWEIGHTS_H
#define PP_PROFWEIGHTS_H
#include "model/tables.h"

typedef struct PPProfWeights PPProfWeights;

/* The edge counts of the functions of source file `source` in profile (path or edge mode), read
   through the tables the profile names; units whose tables are gone are left out. NULL with
   *err set when the profile cannot be read. */
PPProfWeights *pp_profweights_load(const char *profile, const char *source, char **err);
/* Sets g's edge weights to the counts of the function with this name and first line, when its
   live edges are the ones the profile's tables list (the code did not change); the static
   weights already in g break ties. *calls gets its calls. Returns false when nothing matched. */
bool pp_profweights_apply(const PPProfWeights *w, const char *name, unsigned line, PPGraph *g, double *calls);
void pp_profweights_free(PPProfWeights *w);
#endif
