/* Response files: the user's @file arguments read as gcc reads them, long commands written back into one. */
#ifndef PP_RESPFILE_H
#define PP_RESPFILE_H
#include "model/util.h"
#include <stddef.h>

typedef VEC(char *) PPArgs;

/* Appends argument a to out, an @file replaced by the words it holds (recursively, 8 deep, as
   gcc; a missing @file stays as it is, as gcc passes it on). The words are out's to keep. */
void pp_args_expand(PPArgs *out, const char *a);
/* When argv's words after the first keep add up to 100,000 bytes or more, moves them into a new
   response file (its name in *rsp, the caller's to remove and free) and leaves "@file" in their
   place. Returns 0, or -1 with errno set when the file cannot be written. */
int pp_args_shorten(PPArgs *argv, size_t keep, char **rsp);
#endif
