/* ccopts: what the compiler's options mean to the driver (gcc's spellings, which clang and tcc share). */
#include "ccopts.h"
#include <string.h>

/* Options whose value is the next argument (gcc's spelling); the value is never an input. */
bool pp_opt_takes_value(const char *a) {
  static const char *opts[] = { "-o", "-x", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
    "-idirafter", "-iprefix", "-iwithprefix", "-isysroot", "-MF", "-MT", "-MQ", "-L", "-l", "-Xlinker",
    "-Xassembler", "-Xpreprocessor", "-T", "-u", "-e", "-z", "-aux-info", "--param", "-target", "-arch",
    "-dumpbase", "-dumpdir", "-B", 0 };
  for (int i = 0; opts[i]; i++)
    if (!strcmp(a, opts[i])) return true;
  return false;
}

/* Options after which nothing is compiled or linked: the compiler answers by itself. */
bool pp_opt_query_only(const char *a) {
  return !strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM") || !strcmp(a, "-fsyntax-only") ||
         !strcmp(a, "--version") || !strcmp(a, "-dumpversion") || !strcmp(a, "-dumpmachine") ||
         !strcmp(a, "-dumpfullversion") || !strncmp(a, "-print-", 7) || !strcmp(a, "--help") ||
         !strcmp(a, "-###");
}

/* Options for the link only; compile steps leave them out. */
bool pp_opt_linker_only(const char *x) {
  return !strncmp(x, "-l", 2) || !strncmp(x, "-L", 2) || !strncmp(x, "-Wl,", 4) || !strcmp(x, "-Xlinker") ||
         !strcmp(x, "-T") || !strcmp(x, "-u") || !strcmp(x, "-shared") || !strcmp(x, "-static") ||
         !strcmp(x, "-rdynamic") || !strcmp(x, "-pie") || !strcmp(x, "-no-pie");
}

/* Options already applied to the .i (or meaningless for it: -x would misname its language;
   clang warns that -I and -D go unused on a .i). */
bool pp_opt_done_by_preprocessor(const char *x) {
  static const char *const cpp[] = { "-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-iprefix",
                                     "-iwithprefix", "-include", "-imacros", "-nostdinc", 0 };
  for (int i = 0; cpp[i]; i++)
    if (!strncmp(x, cpp[i], strlen(cpp[i]))) return true;
  return pp_opt_linker_only(x) || !strncmp(x, "-M", 2) || !strncmp(x, "-Wp,", 4) || !strncmp(x, "-x", 2);
}

/* Options a compile for diagnostics leaves out: what the link takes, and what writes files
   of its own (dependencies, temporaries, dumps), which the real compile has written. */
bool pp_opt_side_output(const char *x) {
  return pp_opt_linker_only(x) || !strncmp(x, "-M", 2) || !strncmp(x, "-save-temps", 11) || !strncmp(x, "-fdump-", 7) ||
         !strcmp(x, "-aux-info");
}
