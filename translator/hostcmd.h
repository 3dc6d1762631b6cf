/* Host-side commands for profiles from targets: import (text logs, profiles) and size. */
#ifndef PP_HOSTCMD_H
#define PP_HOSTCMD_H
int pp_cmd_import(int argc, char **argv);   /* translator/importlog.c */
int pp_cmd_size(int argc, char **argv);     /* translator/size.c */
#endif
