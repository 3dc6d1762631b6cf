/* pathprof: the command-line reporter; dispatches to the commands (commands.h). */
#include "commands.h"
#include <stdio.h>
#include <string.h>

static int usage(FILE *f) {
  fputs("usage: pathprof report [--top N] [--function NAME] [PROFILE]\n"
        "       pathprof dump [--decode] [PROFILE | TABLES.pp.json]\n"
        "       pathprof kpaths [--k N] [--top M] [--function NAME] [--tree] [--json] [PROFILE]\n"
        "       pathprof coverage [--format text|json|lcov|cobertura|gcov|html] [--no-code=gcov] [-o FILE|DIR] [PROFILE]\n"
        "       pathprof coverage --mcdc[=masking|unique-cause] [--format text|json|lcov|gcov] [-o FILE] [PROFILE]\n"
        "       pathprof merge PROFILE[:WEIGHT]... -o OUT\n"
        "       pathprof diff A B\n"
        "       pathprof residual [--baseline TESTS]... [FIELD]   (no baseline: a ppp build's own set)\n"
        "       pathprof import [-v] [--label NAME] [-o PROFILE] LOG|PROFILE...\n"
        "       pathprof hot-subpaths [--top K] [--confidence P] [--raw] [SNAPSHOT]\n"
        "       pathprof size [--baseline PLAIN] [--tables T.pp.json]... OBJECT\n"
        "       pathprof clean [-n] [DIR]...   (removes pathcc's tables under DIR, default .)\n"
        "PROFILE defaults to $PATHPROF_FILE, else pathprof.out; tables are found through the\n"
        "profile, $PATHPROF_DB (directories, colon-separated) or the current directory tree.\n", f);
  return f == stderr ? 2 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage(stderr);
  if (!strcmp(argv[1], "report")) return pp_cmd_report(argc - 2, argv + 2);
  if (!strcmp(argv[1], "dump")) return pp_cmd_dump(argc - 2, argv + 2);
  if (!strcmp(argv[1], "kpaths")) return pp_cmd_kpaths(argc - 2, argv + 2);
  if (!strcmp(argv[1], "coverage")) return pp_cmd_coverage(argc - 2, argv + 2);
  if (!strcmp(argv[1], "merge")) return pp_cmd_merge(argc - 2, argv + 2);
  if (!strcmp(argv[1], "diff")) return pp_cmd_diff(argc - 2, argv + 2);
  if (!strcmp(argv[1], "residual")) return pp_cmd_residual(argc - 2, argv + 2);
  if (!strcmp(argv[1], "import")) return pp_cmd_import(argc - 2, argv + 2);
  if (!strcmp(argv[1], "hot-subpaths")) return pp_cmd_hot_subpaths(argc - 2, argv + 2);
  if (!strcmp(argv[1], "size")) return pp_cmd_size(argc - 2, argv + 2);
  if (!strcmp(argv[1], "clean")) return pp_cmd_clean(argc - 2, argv + 2);
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
  fprintf(stderr, "pathprof: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
