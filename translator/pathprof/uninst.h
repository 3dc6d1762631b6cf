/* The functions pathcc left uninstrumented, as reports show them: once each, grouped by reason (uninst.c). */
#ifndef PP_UNINST_H
#define PP_UNINST_H
#include "coverage.h"
#include <stdio.h>

/* One function pathcc could not instrument, however many units hold it (a static inline
   function of a header is in every unit that includes it). */
typedef struct {
  const char *name, *file, *why;  /* file: as the tables name it */
  unsigned line, end_line;
  size_t units;                   /* units that hold it */
} PPUninst;

/* The distinct (name, file, line, reason) of the loaded units' skipped functions, sorted by
   reason, file and line; *n their number. The strings belong to l; the caller frees the array. */
PPUninst *pp_uninst_list(const PPLoaded *l, size_t *n);

/* The report's block: "N functions not instrumented" and, per reason, how many and which;
   with only, just the entries of the function so named (nothing when it has none). Returns
   whether only names one of them. */
bool pp_uninst_print(FILE *o, const PPLoaded *l, const char *only);

/* Marks the lines of every function pathcc left uninstrumented (PPCovLine.uninstrumented:
   lines with code in its range that no instrumented function counts) and lists the functions
   in c->uninst. Called while the coverage is built, before its files are sorted. */
void pp_uninst_mark(PPCoverage *c);
#endif
