/* Compiler diagnostics as comparable lines: file:line: kind: message, without columns or context. */
#ifndef PP_DIAG_H
#define PP_DIAG_H
#include <stdbool.h>
#include <stddef.h>

/* Do the warnings and errors in the files a[0..na) (read as one text) name the same lines,
   kinds and messages as those in file b? Columns, notes, source excerpts, include chains and
   summary lines ("3 warnings generated.") do not count; a missing file says nothing. */
bool pp_diag_same(const char *const *a, size_t na, const char *b);
/* The key of one diagnostic line ("f.c:4: warning: msg [-Wx]"), or NULL for any other line;
   the caller frees it. */
char *pp_diag_key(const char *line);
#endif
