/* libclang's errors in a unit, and which of them cost a function its instrumentation (clangerr.c). */
#ifndef PP_CLANGERR_H
#define PP_CLANGERR_H
#include "cfg.h"
#include <clang-c/Index.h>
#include <stdbool.h>

typedef struct {
  unsigned off;   /* where in the .i (0: another file) */
  bool semantic;  /* clang's category "Semantic Issue": the parser kept the statements */
  char *text;
} PPClangError;

typedef VEC(PPClangError) PPClangErrors;

/* The error diagnostics of tu, whose main file (the .i) is main. */
void pp_clang_errors(CXTranslationUnit tu, CXFile main, PPClangErrors *out);
void pp_clang_errors_free(PPClangErrors *e);

/* The first error inside the function definition fn (its extent [from, to) in src) after which
   its CFG cannot be trusted, or NULL. A semantic error is harmless where clang kept the
   statements and put the expression it could not type in a recovery node whose text hides no
   call, jump or decision outside its operands: GCC's <stdatomic.h> on _Atomic objects,
   GCC-only builtins and attribute forms. */
const char *pp_clang_error_in(const PPClangErrors *e, const PPSource *src, CXCursor fn, unsigned from, unsigned to);
#endif
