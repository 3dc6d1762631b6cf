/* Exec-family calls -> the runtime's dump-first wrappers (translator/pathcc/execcalls.c). */
#ifndef PP_EXECCALLS_H
#define PP_EXECCALLS_H
#include "rewrite.h"

/* Adds an edit renaming each call of execv, execve, execvp, execvpe, execl, execle, execlp and
   fexecve in function fn to __pathprof_<name>; with PP_WRAP_ENDS, also of _exit, _Exit and
   quick_exit (the POSIX runtime's wrappers write the profile first); with PP_WRAP_SIGNALS, of
   the system's signal and sigaction (which report the runtime's crash handler as the default
   action it stands for). Returns the number of calls renamed. */
#define PP_WRAP_ENDS 1
#define PP_WRAP_SIGNALS 2
int pp_exec_edits(CXCursor fn, const PPSource *src, PPEdits *ed, unsigned wrap);
#endif
