/* Exec-family calls in instrumented functions -> edits that route them to the runtime's
   wrappers (__pathprof_execv ...), which write the profile before the process image goes; the
   other ends the exit handler does not see (_exit, _Exit, quick_exit); and signal and
   sigaction, whose answers the runtime's crash handler must not change. */
#include "execcalls.h"
#include <string.h>

/* The exec family a call may name; posix_spawn starts another process and is left alone. */
static const char *const exec_names[] = { "execv", "execve", "execvp", "execvpe", "execl", "execle",
                                          "execlp", "fexecve", 0 };

/* Ends that skip the exit handler (rt/posix/ends.c). */
static const char *const end_names[] = { "_exit", "_Exit", "quick_exit", 0 };

/* The C library's ways to set and read a signal's action (rt/posix/crash.c): the runtime's
   handler stands for the default action in what they report. */
static const char *const signal_names[] = { "signal", "sigaction", 0 };

typedef struct {
  const PPSource *src;
  PPEdits *ed;
  int n;
  unsigned wrap;
} Finder;

/* Whether name is one of the list. */
static bool named(const char *const *names, const char *name) {
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

/* The prefix that routes a call of fn to the runtime's wrapper, or 0: the exec family always,
   the others as wrap says; signal and sigaction only when the unit does not define them (a
   function of the program's own of that name); signal bound to glibc's System V flavour
   (strict ISO or POSIX modes, by an asm label) to the wrapper of that flavour. */
static const char *prefix(const Finder *f, CXCursor fn, const char *name) {
  if (named(exec_names, name) || ((f->wrap & PP_WRAP_ENDS) && named(end_names, name))) return "__pathprof_";
  if (!(f->wrap & PP_WRAP_SIGNALS) || !named(signal_names, name) || !clang_Cursor_isNull(clang_getCursorDefinition(fn)))
    return 0;
  CXString m = clang_Cursor_getMangling(fn);
  bool sysv = !strcmp(clang_getCString(m), "__sysv_signal");
  clang_disposeString(m);
  return sysv ? "__pathprof_sysv_" : "__pathprof_";
}

/* An identifier character (the callee's name must end where the text says it does). */
static bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* For a call of an exec function whose text starts with its name, prefixes "__pathprof_". */
static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  Finder *f = data;
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CallExpr) {
    CXCursor fn = clang_getCursorReferenced(c);
    CXString n = clang_getCursorSpelling(fn);
    const char *name = clang_getCString(n);
    unsigned off;
    clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
    size_t len = strlen(name);
    const char *pre = clang_getCursorKind(fn) == CXCursor_FunctionDecl ? prefix(f, fn, name) : 0;
    if (pre && off + len < f->src->len &&
        !memcmp(f->src->text + off, name, len) && !ident_char(f->src->text[off + len]) &&
        (off == 0 || !ident_char(f->src->text[off - 1]))) {
      /* after every other edit at this offset, so it stays glued to the name */
      PPEdit e = { off, SIDE_OPEN, 1 << 30, (int)f->ed->n, pp_xstrdup(pre) };
      VEC_PUSH(*f->ed, e);
      f->n++;
    }
    clang_disposeString(n);
  }
  return CXChildVisit_Recurse;
}

int pp_exec_edits(CXCursor fn, const PPSource *src, PPEdits *ed, unsigned wrap) {
  Finder f = { src, ed, 0, wrap };
  clang_visitChildren(fn, visit, &f);
  return f.n;
}
