/* libclang's view of a unit: the .i with what GCC accepts and clang 14 refuses rewritten, same length. */
#ifndef PP_CLANGVIEW_H
#define PP_CLANGVIEW_H
#include "clangerr.h"
#include <stddef.h>

/* A copy of the n bytes of text (the .i) for libclang to parse instead, byte for byte at the
   same offsets, where errors (from parsing text as it is) show C that GCC compiles and clang
   14 does not: a label before a declaration (C23; GCC 11 and later) gets a null statement, in
   the blank after its colon; a static assertion clang cannot evaluate (GCC folds more) becomes
   blanks. NULL when no error is of those kinds (the caller's to free). The real compiler keeps
   reading the text as it is: only libclang's view of the unit changes. */
char *pp_clang_view(const char *text, size_t n, const PPClangErrors *errors);
#endif
