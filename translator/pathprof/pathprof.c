/* pathprof: the command-line reporter; dispatches to the commands (commands.h) and answers
   --help, help CMD and --version. */
#include "commands.h"
#include <stdio.h>
#include <string.h>

#ifndef PATHPROF_VERSION
#define PATHPROF_VERSION "unknown"
#endif

static const PPCommand *const commands[] = {
  &pp_command_report, &pp_command_coverage, &pp_command_tests, &pp_command_merge, &pp_command_diff, &pp_command_residual,
  &pp_command_dump, &pp_command_kpaths, &pp_command_hot_subpaths, &pp_command_import, &pp_command_size, &pp_command_clean,
  NULL,
};

static const PPCommand *command_named(const char *name) {
  for (int i = 0; commands[i]; i++)
    if (!strcmp(commands[i]->name, name)) return commands[i];
  return NULL;
}

/* pathprof help [CMD]: the overview, or one command's help. */
static int help(int argc, char **argv) {
  if (argc < 1) { pp_cli_overview(stdout, commands); return 0; }
  const PPCommand *c = command_named(argv[0]);
  if (!c) { fprintf(stderr, "pathprof help: no command '%s' (pathprof --help lists them)\n", argv[0]); return 2; }
  pp_cli_help(stdout, c);
  return 0;
}

static int version(void) {
  printf("pathprof %s\n"
         "reads profiles of format 1 and 2 (doc/formats.md), tables of version 1; writes coverage JSON version 1\n",
         PATHPROF_VERSION);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) { pp_cli_overview(stderr, commands); return 2; }
  const char *a = argv[1];
  if (!strcmp(a, "--help") || !strcmp(a, "-h")) return help(0, NULL);
  if (!strcmp(a, "help")) return help(argc - 2, argv + 2);
  if (!strcmp(a, "--version") || !strcmp(a, "-V") || !strcmp(a, "version")) return version();
  const PPCommand *c = command_named(a);
  if (c) return c->run(argc - 2, argv + 2);
  fprintf(stderr, "pathprof: unknown command '%s' (pathprof --help lists them)\n", a);
  return 2;
}
