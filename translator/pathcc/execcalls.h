/* Exec-family calls -> the runtime's dump-first wrappers (translator/pathcc/execcalls.c). */
#ifndef PP_EXECCALLS_H
#define PP_EXECCALLS_H
#include "rewrite.h"

/* Adds an edit renaming each call of execv, execve, execvp, execvpe, execl, execle, execlp and
   fexecve in function fn to __pathprof_<name>; with ends, also of _exit, _Exit and quick_exit
   (the POSIX runtime's wrappers write the profile first). Returns the number of calls renamed. */
int pp_exec_edits(CXCursor fn, const PPSource *src, PPEdits *ed, bool ends);
#endif
