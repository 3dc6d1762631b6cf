/* Host-side commands for profiles from targets: import (text logs, profiles) and size. */
#ifndef PP_HOSTCMD_H
#define PP_HOSTCMD_H
#include <stddef.h>
int pp_cmd_import(int argc, char **argv);   /* translator/importlog.c */
int pp_cmd_size(int argc, char **argv);     /* translator/size.c */
/* Imports a log or profile in memory into *out; returns its number of damaged lines, frames and
   errors (translator/importlog.c; the fuzz harness's entry). */
struct pp_profile;
int pp_import_buffer(const char *name, const char *buf, size_t len, struct pp_profile *out);
#endif
