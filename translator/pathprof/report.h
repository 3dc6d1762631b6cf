/* pathprof's report, dump and hot-subpaths commands (report.c, hotsub.c). */
#ifndef PP_REPORT_H
#define PP_REPORT_H
#include "model/load.h"

int pp_cmd_report(int argc, char **argv);
int pp_cmd_dump(int argc, char **argv);
int pp_cmd_hot_subpaths(int argc, char **argv);
#endif
