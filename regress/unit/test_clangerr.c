/* Which libclang errors cost a function its instrumentation (clangerr.c): semantic errors in recovery nodes that hide nothing are harmless; parse errors, lost calls, decisions and parameters are not. */
#include "pathcc/clangload.h"
#include "pathcc/clangerr.h"
#include "model/util.h"
#include "check.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { const char *name; CXCursor c; bool found; } Find;

static enum CXChildVisitResult find_fn(CXCursor c, CXCursor parent, CXClientData d) {
  Find *f = d;
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c)) return CXChildVisit_Continue;
  CXString n = clang_getCursorSpelling(c);
  if (!strcmp(clang_getCString(n), f->name)) { f->c = c; f->found = true; }
  clang_disposeString(n);
  return f->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Parses text as pathcc parses a .i (the flags that shape recovery) and checks that function
   fn keeps its instrumentation (want_ok) or loses it. */
static void expect(const char *name, const char *text, const char *fn, bool want_ok) {
  static const char *args[] = { "-x", "c", "-undef", "-ferror-limit=0", "-w", "-fspell-checking" };
  char path[] = "/tmp/test_clangerr_XXXXXX.i";
  int fd = mkstemps(path, 2);
  if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) { check(name, 0, "cannot write %s", path); return; }
  close(fd);
  CXIndex idx = clang_createIndex(0, 0);
  CXTranslationUnit tu = NULL;
  clang_parseTranslationUnit2(idx, path, args, sizeof args / sizeof *args, NULL, 0, CXTranslationUnit_KeepGoing, &tu);
  Find f = { fn, clang_getNullCursor(), false };
  if (tu) clang_visitChildren(clang_getTranslationUnitCursor(tu), find_fn, &f);
  if (!f.found) {
    check(name, 0, "no definition of %s parsed", fn);
  } else {
    PPClangErrors errs = {0};
    PPSource src = { text, strlen(text), {0} };
    pp_clang_errors(tu, clang_getFile(tu, path), &errs);
    CXSourceRange r = clang_getCursorExtent(f.c);
    unsigned from, to;
    clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &from);
    clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &to);
    const char *why = pp_clang_error_in(&errs, &src, f.c, from, to);
    check(name, errs.n > 0 && (why == NULL) == want_ok, "%zu errors; %s %s", errs.n,
          want_ok ? "skipped, yet harmless:" : "kept, yet it should be skipped:", why ? why : errs.n ? errs.v[0].text : "-");
    pp_clang_errors_free(&errs);
  }
  if (tu) clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  unlink(path);
}

int main(void) {
  char *err = NULL;
  if (pp_clang_load(&err)) { printf("not ok clangerr: %s\n", err); return 1; }
  expect("clangerr atomic builtins on _Atomic", "_Atomic int a;\nint f(void) { int t; __atomic_load(&a, &t, 5);\n"
         "  if (__atomic_fetch_add(&a, 1, 5) > t) t++;\n  return t; }\n", "f", true);
  expect("clangerr GCC statement-expression atomic", "_Atomic int a;\nint f(int x) {\n  while (x < __extension__ ({ "
         "__auto_type p = (&a); __typeof__ ((void)0, *p) t; __atomic_load (p, &t, (5)); t; }))\n    x++;\n  return x; }\n",
         "f", true);
  expect("clangerr __sync on _Atomic", "_Atomic int a;\nint f(int x) { return x + __sync_fetch_and_add(&a, x); }\n", "f", true);
  expect("clangerr undeclared name in a GCC builtin", "int v;\nint f(void) { int r = 0;\n  r += __builtin_has_attribute(v, "
         "aligned);\n  return r; }\n", "f", true);
  expect("clangerr attribute in the signature", "void free(void *);\n__attribute__((malloc(free, 1))) void *f(int n) {\n"
         "  return n ? (void *)0 : (void *)1; }\n", "f", true);
  expect("clangerr single-line decision in a recovery", "_Atomic int a;\nvoid f(int x, int y) { __atomic_fetch_add(&a, x && y, "
         "5); }\n", "f", true);
  expect("clangerr decision clang dropped", "struct S { int a; } s;\nint f(int x) { return x ? s : 1; }\n", "f", false);
  expect("clangerr decision across lines", "_Atomic int a;\nvoid f(int x, int y) { __atomic_fetch_add(&a, x &&\n  y, 5); }\n",
         "f", true);
  expect("clangerr comments in a recovery", "_Atomic int a;\nvoid f(int x) { __atomic_fetch_add(&a, /* x's && */ x, "
         "5); // y's || z\n  x++; }\n", "f", true);
  expect("clangerr lost call", "void g(int);\nvoid f(int x) { if (x) g(x, 2); }\n", "f", false);
  expect("clangerr lost noreturn call", "_Noreturn void die(int);\nvoid f(int x) { if (x) die(x, 2); x++; }\n", "f", false);
  expect("clangerr lost call through a pointer", "void (*fp)(int);\nvoid f(int x) { fp(x, 2); }\n", "f", false);
  expect("clangerr lost call inside an atomic argument", "_Atomic int a;\nint g(int);\nvoid f(int x) { __atomic_fetch_add(&a, "
         "g(x, 1), 5); }\n", "f", false);
  expect("clangerr parse error", "void f(int x) { if (x) goto out; x++; out: }\n", "f", false);
  expect("clangerr parameter", "_Atomic int a;\nint f(int n, int v[__atomic_load_n(&a, 5)]) { return v[n]; }\n", "f", false);
  expect("clangerr error outside a recovery", "int f(void) { _Static_assert(0 == 1, \"no\"); return 0; }\n", "f", false);
  return failures ? 1 : 0;
}
