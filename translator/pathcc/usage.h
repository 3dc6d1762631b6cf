/* usage.h: pathcc's own --help and --version (usage.c). */
#ifndef PP_USAGE_H
#define PP_USAGE_H
#include <stdio.h>

/* Prints pathcc's help; returns the exit status. */
int pp_pathcc_help(FILE *o);
/* Prints pathcc's version line, naming the compiler whose --version follows it. */
void pp_pathcc_version(FILE *o, const char *compiler);
#endif
