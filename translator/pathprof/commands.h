/* commands.h: pathprof's commands, each described by a PPCommand (cli.h: its name, synopsis,
   options and entry point, which takes argv after the command's name and returns the exit
   status); pathprof.c dispatches to them. */
#ifndef PP_COMMANDS_H
#define PP_COMMANDS_H
#include "cli.h"
#include <stddef.h>

extern const PPCommand pp_command_report;        /* report.c */
extern const PPCommand pp_command_dump;          /* report.c */
extern const PPCommand pp_command_hot_subpaths;  /* hotsub.c */
extern const PPCommand pp_command_kpaths;        /* kpaths.c */
extern const PPCommand pp_command_coverage;      /* covcmd.c */
extern const PPCommand pp_command_merge;         /* profcmds.c */
extern const PPCommand pp_command_diff;          /* profcmds.c */
extern const PPCommand pp_command_residual;      /* profcmds.c */
extern const PPCommand pp_command_import;        /* importlog.c */
extern const PPCommand pp_command_size;          /* size.c */
extern const PPCommand pp_command_clean;         /* clean.c */
extern const PPCommand pp_command_tests;         /* testscmd.c */

/* Imports a log or profile in memory into *out; returns its number of damaged lines, frames and
   errors (importlog.c; the fuzz harness's entry). */
struct pp_profile;
int pp_import_buffer(const char *name, const char *buf, size_t len, struct pp_profile *out);
#endif
