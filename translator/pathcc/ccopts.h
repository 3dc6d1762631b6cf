/* What the compiler's options mean to the driver: which take a value, which only the linker or
   the preprocessor reads, which ask the compiler a question instead of compiling. */
#ifndef PP_CCOPTS_H
#define PP_CCOPTS_H
#include <stdbool.h>

/* Options whose value is the next argument (gcc's spelling); the value is never an input. */
bool pp_opt_takes_value(const char *a);
/* Options after which nothing is compiled or linked: the compiler answers by itself. */
bool pp_opt_query_only(const char *a);
/* Options for the link only; compile steps leave them out. */
bool pp_opt_linker_only(const char *x);
/* Options already applied to the .i (or meaningless for it). */
bool pp_opt_done_by_preprocessor(const char *x);
/* Options a compile for diagnostics leaves out: the link's and those that write files. */
bool pp_opt_side_output(const char *x);
#endif
