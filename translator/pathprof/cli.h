/* cli.h: each pathprof command describes its options once (PPOpt); the same table drives
   getopt_long, `pathprof CMD --help`, `pathprof help CMD` and `pathprof --help` (cli.c). */
#ifndef PP_CLI_H
#define PP_CLI_H
#include <stdio.h>

/* One option of a command. */
typedef struct {
  const char *name;   /* long name without "--"; NULL ends a list */
  int short_name;     /* its one-letter form ('o'), or 0 */
  const char *arg;    /* the value's placeholder ("N", "FILE"), NULL for a flag; one in brackets
                         ("[=WHICH]") is optional and must follow an equals sign */
  const char *help;   /* what it does, for --help */
} PPOpt;

/* One command of pathprof. */
typedef struct {
  const char *name;        /* "coverage" */
  const char *synopsis;    /* the arguments after the name: "[--format F] [-o FILE|DIR] [PROFILE]" */
  const char *summary;     /* one line for `pathprof --help` */
  const char *description; /* paragraphs (blank-line separated) for `pathprof help CMD` */
  const PPOpt *opts;
  int (*run)(int argc, char **argv);  /* argv after the command's name */
} PPCommand;

/* The state of one command line's parse: pp_cli_next returns the index of the next option in
   the command's table (its value in *arg, NULL for a flag), PP_CLI_END when the options end
   (operands are argv[*first..argc) in pp_cli_operands), PP_CLI_HELP after printing the help
   (exit 0) or PP_CLI_BAD after one error line naming the option (exit 2). */
enum { PP_CLI_END = -1, PP_CLI_HELP = -2, PP_CLI_BAD = -3 };
typedef struct {
  const PPCommand *cmd;
  int argc;
  char **argv;       /* argv[0] is the command's name, as getopt_long wants */
  void *longopts;    /* struct option[] made from cmd->opts */
  char shortopts[64];
} PPCli;

/* Starts parsing the arguments that follow the command's name. */
void pp_cli_begin(PPCli *c, const PPCommand *cmd, int argc, char **argv);
int pp_cli_next(PPCli *c, const char **arg);
/* The operands (after pp_cli_next returned PP_CLI_END): *n of them. Frees the parse's memory. */
char **pp_cli_operands(PPCli *c, int *n);
/* The exit status for a PP_CLI_HELP or PP_CLI_BAD result (0 or 2), freeing the parse. */
int pp_cli_status(PPCli *c, int r);
/* "pathprof CMD: OPTION wants ..., not 'VALUE'": one error line; returns 2. */
int pp_cli_bad_value(const PPCommand *cmd, const char *option, const char *wants, const char *value);
/* Parses a positive integer option value (at most max); returns 0, or 2 after an error line. */
int pp_cli_count(const PPCommand *cmd, const char *option, const char *value, unsigned long long max,
                 unsigned long long *out);

/* The command's full help: usage, description, options. */
void pp_cli_help(FILE *o, const PPCommand *cmd);
/* The program's: every command with its summary. */
void pp_cli_overview(FILE *o, const PPCommand *const *cmds);
#endif
