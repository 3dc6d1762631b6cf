/* Compiler diagnostics as comparable lines: file:line: kind: message, without columns or context. */
#ifndef PP_DIAG_H
#define PP_DIAG_H
#include <stdbool.h>
#include <stddef.h>

/* Do the warnings and errors in the files a[0..na) (read as one text) name the same lines,
   kinds and messages as those in file b? Columns, notes, source excerpts, include chains and
   summary lines ("3 warnings generated.") do not count; a missing file says nothing. */
bool pp_diag_same(const char *const *a, size_t na, const char *b);
/* Do the files a[0..na) hold any diagnostic about a place in the source (file:line)? Lines
   without one (an unknown option, a note about the command line) come from the flags alike for
   every compile of a unit. */
bool pp_diag_any(const char *const *a, size_t na);
/* The key of one diagnostic about a place in the source ("f.c:4: warning: msg [-Wx]"), or
   NULL for any other line (the compiler driver's own, "clang: warning: ..."); the caller frees it. */
char *pp_diag_key(const char *line);
#endif
