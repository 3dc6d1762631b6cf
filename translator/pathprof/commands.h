/* commands.h: pathprof's commands, one entry point each (argv after the command's name; the
   exit status), dispatched by pathprof.c. */
#ifndef PP_COMMANDS_H
#define PP_COMMANDS_H
#include <stddef.h>

int pp_cmd_report(int argc, char **argv);        /* report.c */
int pp_cmd_dump(int argc, char **argv);          /* report.c */
int pp_cmd_hot_subpaths(int argc, char **argv);  /* hotsub.c */
/* pathprof kpaths [--k N] [--top M] [--function F] [--tree] [--json] [PROFILE] */
int pp_cmd_kpaths(int argc, char **argv);        /* kpaths.c */
int pp_cmd_coverage(int argc, char **argv);      /* covcmd.c */
int pp_cmd_merge(int argc, char **argv);         /* profcmds.c */
int pp_cmd_diff(int argc, char **argv);          /* profcmds.c */
int pp_cmd_residual(int argc, char **argv);      /* profcmds.c */
int pp_cmd_import(int argc, char **argv);        /* importlog.c */
int pp_cmd_size(int argc, char **argv);          /* size.c */
/* pathprof clean [-n] [DIR]...: removes pathcc's tables under the directories */
int pp_cmd_clean(int argc, char **argv);         /* clean.c */

/* Imports a log or profile in memory into *out; returns its number of damaged lines, frames and
   errors (importlog.c; the fuzz harness's entry). */
struct pp_profile;
int pp_import_buffer(const char *name, const char *buf, size_t len, struct pp_profile *out);
#endif
