/* cli.c: command-line parsing (getopt_long from each command's option table) and the help text
   made from the same tables, so what --help lists is what the parser takes. */
#include "cli.h"
#include "model/util.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 79     /* help lines stay within this */
#define OPTCOL 26    /* where an option's meaning starts */

void pp_cli_begin(PPCli *c, const PPCommand *cmd, int argc, char **argv) {
  memset(c, 0, sizeof *c);
  c->cmd = cmd;
  c->argc = argc + 1;
  c->argv = argv - 1;  /* the command's name, as getopt's program name */
  size_t n = 0;
  while (cmd->opts && cmd->opts[n].name) n++;
  struct option *lo = pp_xcalloc(n + 2, sizeof *lo);
  char *s = c->shortopts;
  *s++ = ':';  /* a missing value is ':' rather than '?' */
  for (size_t i = 0; i < n; i++) {
    lo[i].name = cmd->opts[i].name;
    lo[i].has_arg = !cmd->opts[i].arg ? no_argument : cmd->opts[i].arg[0] == '[' ? optional_argument : required_argument;
    lo[i].val = 256 + (int)i;
    if (cmd->opts[i].short_name && s + 3 < c->shortopts + sizeof c->shortopts) {
      *s++ = (char)cmd->opts[i].short_name;
      if (cmd->opts[i].arg) *s++ = ':';
    }
  }
  lo[n].name = "help";
  lo[n].val = 'h';
  *s++ = 'h';
  *s = 0;
  c->longopts = lo;
  opterr = 0;
#ifdef __GLIBC__
  optind = 0;  /* glibc: start a fresh scan */
#else
  optind = 1;
#endif
}

/* The option the last getopt_long call stopped at, as the user wrote it: getopt sets optopt to
   the offending short letter or long option's value, and to 0 for an unknown long option. */
static const char *offending(const PPCli *c, char *buf, size_t n) {
  if (optopt >= 256) snprintf(buf, n, "--%s", c->cmd->opts[optopt - 256].name);
  else if (optopt > 0) snprintf(buf, n, "-%c", optopt);
  else snprintf(buf, n, "%s", optind > 0 && optind <= c->argc ? c->argv[optind - 1] : "?");
  return buf;
}

int pp_cli_next(PPCli *c, const char **arg) {
  const struct option *lo = c->longopts;
  int idx = -1;
  optopt = 0;
  int r = getopt_long(c->argc, c->argv, c->shortopts, lo, &idx);
  *arg = optarg;
  if (r == -1) return PP_CLI_END;
  if (r == 'h') { pp_cli_help(stdout, c->cmd); return PP_CLI_HELP; }
  if (r == ':' || r == '?') {
    char buf[256];
    const char *a = offending(c, buf, sizeof buf);
    char *eq = strchr(a, '=');
    if (r == ':') fprintf(stderr, "pathprof %s: %s needs a value\n", c->cmd->name, a);
    else fprintf(stderr, "pathprof %s: unknown option %.*s (pathprof %s --help lists them)\n", c->cmd->name,
                 eq ? (int)(eq - a) : (int)strlen(a), a, c->cmd->name);
    return PP_CLI_BAD;
  }
  if (r >= 256) return r - 256;
  for (int i = 0; c->cmd->opts[i].name; i++)  /* a short option */
    if (c->cmd->opts[i].short_name == r) return i;
  return PP_CLI_BAD;
}

char **pp_cli_operands(PPCli *c, int *n) {
  *n = c->argc - optind;
  free(c->longopts);
  c->longopts = NULL;
  return c->argv + optind;
}

int pp_cli_status(PPCli *c, int r) {
  free(c->longopts);
  c->longopts = NULL;
  return r == PP_CLI_HELP ? 0 : 2;
}

int pp_cli_bad_value(const PPCommand *cmd, const char *option, const char *wants, const char *value) {
  fprintf(stderr, "pathprof %s: %s wants %s, not '%s'\n", cmd->name, option, wants, value);
  return 2;
}

int pp_cli_count(const PPCommand *cmd, const char *option, const char *value, unsigned long long max,
                 unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(value, &end, 10);
  if (!*value || *end || errno || v == 0 || v > max || value[0] == '-') {
    char want[64];
    if (max >= 1ULL << 32) snprintf(want, sizeof want, "a positive whole number");
    else snprintf(want, sizeof want, "a number from 1 to %llu", max);
    return pp_cli_bad_value(cmd, option, want, value);
  }
  *out = v;
  return 0;
}

/* ---- help text ---- */

/* Writes text from column col, wrapped at WIDTH, continuation lines indented to col; at is the
   column the cursor is at. Paragraphs (blank lines) are kept. */
static void wrap(FILE *o, const char *text, int col, int at) {
  const char *p = text;
  while (*p) {
    if (*p == '\n') {  /* a line break in the source: a new line at col */
      fputc('\n', o);
      at = 0;
      p++;
      continue;
    }
    size_t w = strcspn(p, " \n");
    if (at < col) { fprintf(o, "%*s", col - at, ""); at = col; }
    else if (at > col && at + 1 + (int)w > WIDTH) { fprintf(o, "\n%*s", col, ""); at = col; }
    else if (at > col) { fputc(' ', o); at++; }
    fwrite(p, 1, w, o);
    at += (int)w;
    p += w;
    while (*p == ' ') p++;
  }
  fputc('\n', o);
}

void pp_cli_help(FILE *o, const PPCommand *cmd) {
  int at = fprintf(o, "usage: pathprof %s", cmd->name);
  wrap(o, cmd->synopsis, at + 1, at);
  fputc('\n', o);
  wrap(o, cmd->description, 0, 0);
  fputs("\nOptions:\n", o);
  for (int i = 0; cmd->opts && cmd->opts[i].name; i++) {
    const PPOpt *x = &cmd->opts[i];
    char head[128];
    int n = 0;
    if (x->short_name) n = snprintf(head, sizeof head, "  -%c, --%s", x->short_name, x->name);
    else n = snprintf(head, sizeof head, "      --%s", x->name);
    if (x->arg) n += snprintf(head + n, sizeof head - (size_t)n, x->arg[0] == '[' ? "%s" : " %s", x->arg);
    fputs(head, o);
    if (n + 2 > OPTCOL) { fputc('\n', o); n = 0; }
    wrap(o, x->help, OPTCOL, n);
  }
  fputs("  -h, --help", o);
  wrap(o, "this help", OPTCOL, 12);
}

void pp_cli_overview(FILE *o, const PPCommand *const *cmds) {
  fputs("usage: pathprof COMMAND [OPTION]... [ARGUMENT]...\n"
        "       pathprof help COMMAND    (or pathprof COMMAND --help): a command's options\n"
        "       pathprof --version\n\n"
        "Reports from the profiles of programs built with pathcc: hot paths, coverage, and\n"
        "what runs or tests did that others did not.\n\nCommands:\n", o);
  for (int i = 0; cmds[i]; i++) {
    fprintf(o, "  %-14s", cmds[i]->name);
    wrap(o, cmds[i]->summary, 16, 16);
  }
  fputs("\nPROFILE defaults to $PATHPROF_FILE, else pathprof.out; tables are found through the\n"
        "profile, $PATHPROF_DB (directories, colon-separated) or the current directory tree.\n"
        "Exit status: 0 success, 1 a report with missing tables, an unmet --fail-under or a\n"
        "file that cannot be read or written, 2 a usage error. See pathprof(1).\n", o);
}
