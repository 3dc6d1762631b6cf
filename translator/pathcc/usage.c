/* usage.c: what `pathcc --help` and `pathcc --version` print when no compiler is named (with one
   named, pathcc passes them to it). */
#include "usage.h"

#ifndef PATHPROF_VERSION
#define PATHPROF_VERSION "unknown"
#endif

static const char help_text[] =
  "usage: pathcc [PATHCC-OPTION]... [COMPILER] COMPILER-ARGUMENT...\n"
  "\n"
  "Stands in for the C compiler: same arguments, outputs, exit status and diagnostics.\n"
  "Each .c input is preprocessed with your flags, every acyclic path of every function\n"
  "is numbered (Ball-Larus) and the compiler gets plain C that counts which paths ran;\n"
  "links get the runtime, and the program writes pathprof.out when it exits (see\n"
  "pathprof(1)). COMPILER is the first argument when it is not an option or an input\n"
  "(pathcc gcc -c x.c, pathcc arm-none-eabi-gcc ...), else $PATHCC_CC, else cc.\n"
  "\n"
  "Modes:\n"
  "  --mode=path             Ball-Larus path profiling (the default)\n"
  "  --mode=edge             optimal edge profiling: counters on the chords of a\n"
  "                          maximum spanning tree; coverage, lines and branches, no paths\n"
  "  --mode=kpath --k=K      k-iteration paths: every sequence of up to K consecutive\n"
  "                          paths of one activation (K 2..64, default 4; see pathprof kpaths);\n"
  "                          --k=auto: per function the K that holds its prime paths\n"
  "  --mode=ppp --interesting=SPEC\n"
  "                          preferential path profiling: the paths SPEC names (a profile,\n"
  "                          hot:P%:PROFILE or a JSON file) get compact counters, any other\n"
  "                          is recorded as residual (see pathprof residual)\n"
  "  --mode=osp              online subpath profiling: a sampled hot list of subpaths\n"
  "                          across functions, in bounded memory (see pathprof hot-subpaths)\n"
  "\n"
  "Options:\n"
  "  --decisions=conditions  &&, || and ?: are decisions of their own (default\n"
  "                          --decisions=statements)\n"
  "  --estimate=wu-larus|loop\n"
  "                          how probe placement estimates edge frequencies (default\n"
  "                          wu-larus)\n"
  "  --placement-profile=FILE\n"
  "                          weight probe placement with an earlier profile's counts\n"
  "  --array-limit=N         functions with more than N paths count in a hash table\n"
  "                          (default: on hosted targets, path mode, any function while\n"
  "                          the unit's array stays within 2^24 counters; else 4096)\n"
  "  --ppp-keep-array=N      ppp: functions with at most N paths keep path mode's array\n"
  "  --hash-cap=N            entries of each unit's hash table (default 4096; ppp 1024);\n"
  "                          given, the table keeps that size and drops what it has no\n"
  "                          room for; else on hosted targets it grows when full\n"
  "  --counter-bits=32|64    32-bit saturating array counters (default 64)\n"
  "  --update=auto|single|atomic|prefer-atomic\n"
  "                          how counters are bumped, as gcc's -fprofile-update (default\n"
  "                          auto: each thread counts plainly through its own base, exact\n"
  "                          under threads; single in edge mode; prefer-atomic, the same\n"
  "                          with an atomic hash table, with -pthread)\n"
  "  --continuous            count through the unit descriptor, so that continuous mode\n"
  "                          (%c in PATHPROF_FILE) keeps every count even on SIGKILL\n"
  "  --diagnostics=checked|exact\n"
  "                          exact: always compile the source itself for its diagnostics\n"
  "                          (the default under -Werror); checked: only when the\n"
  "                          instrumented compile's differ\n"
  "  --system-headers        also instrument functions defined in system headers\n"
  "  --frames=calls|all|none which activations keep a frame, so one that never finishes\n"
  "                          (exit, abort, a crash, longjmp) leaves its partial path:\n"
  "                          calls (default) those that may stop in a call, all, none\n"
  "  --try-compiles          also instrument configure's and CMake's test programs\n"
  "  --strict                turn every fallback warning into an error\n"
  "  --trace                 also log every block entry to $PATHPROF_TRACE (slow)\n"
  "  --verbose               print each command pathcc runs, and whether the compile\n"
  "                          server ran the invocation\n"
  "  --server                alone: run a compile server in the foreground (compiles\n"
  "                          start one by themselves; PATHCC_SERVER=0 turns it off)\n"
  "  --help, --version       this help; pathcc's version, then the compiler's\n"
  "\n"
  "pathcc never breaks a build: a function or unit it cannot instrument is compiled as\n"
  "written, with one warning naming the file and the reason.\n"
  "\n"
  "Environment: PATHCC_CC (the compiler, e.g. \"ccache gcc\"), PATHCC_FLAGS (pathcc\n"
  "options), PATHCC_INCLUDE_FILES, PATHCC_EXCLUDE_FILES, PATHCC_INCLUDE_FUNCTIONS,\n"
  "PATHCC_EXCLUDE_FUNCTIONS (colon-separated globs), PATHCC_RUNTIME (the runtime for\n"
  "cross links), PATHCC_KEEP, PATHCC_SERVER (0: no compile server), PATHCC_SERVER_IDLE,\n"
  "TMPDIR, PATHPROF_DB (where tables go). A .pathcc file, the nearest one upward, holds\n"
  "exclude-file, include-file, exclude-function, include-function and option lines.\n"
  "\n"
  "The compiler's own help: pathcc cc --help. See pathcc(1).\n";

int pp_pathcc_help(FILE *o) {
  fputs(help_text, o);
  return fflush(o) ? 1 : 0;
}

void pp_pathcc_version(FILE *o, const char *compiler) {
  fprintf(o, "pathcc (pathprof) %s, tables version 1; the compiler, %s, says:\n", PATHPROF_VERSION, compiler);
  fflush(o);
}
