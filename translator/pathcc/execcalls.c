/* Exec-family calls in instrumented functions -> edits that route them to the runtime's
   wrappers (__pathprof_execv ...), which write the profile before the process image goes; and
   the other ends the exit handler does not see (_exit, _Exit, quick_exit). */
#include "execcalls.h"
#include <string.h>

/* The exec family a call may name; posix_spawn starts another process and is left alone. */
static const char *const exec_names[] = { "execv", "execve", "execvp", "execvpe", "execl", "execle",
                                          "execlp", "fexecve", 0 };

/* Ends that skip the exit handler (rt/posix/ends.c). */
static const char *const end_names[] = { "_exit", "_Exit", "quick_exit", 0 };

typedef struct {
  const PPSource *src;
  PPEdits *ed;
  int n;
  bool ends;
} Finder;

/* Whether name is one of the list. */
static bool named(const char *const *names, const char *name) {
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
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
    bool wrapped = named(exec_names, name) || (f->ends && named(end_names, name));
    if (clang_getCursorKind(fn) == CXCursor_FunctionDecl && wrapped && off + len < f->src->len &&
        !memcmp(f->src->text + off, name, len) && !ident_char(f->src->text[off + len]) &&
        (off == 0 || !ident_char(f->src->text[off - 1]))) {
      /* after every other edit at this offset, so it stays glued to the name */
      PPEdit e = { off, SIDE_OPEN, 1 << 30, (int)f->ed->n, pp_xstrdup("__pathprof_") };
      VEC_PUSH(*f->ed, e);
      f->n++;
    }
    clang_disposeString(n);
  }
  return CXChildVisit_Recurse;
}

int pp_exec_edits(CXCursor fn, const PPSource *src, PPEdits *ed, bool ends) {
  Finder f = { src, ed, 0, ends };
  clang_visitChildren(fn, visit, &f);
  return f.n;
}
