/* derive.c: which functions of a unit need no counter because their count follows from their
   callers' paths (tables.h PPTabFunc.derived), as gcov pays nothing for what its inliner folds. */
#include "derive.h"
#include <stdlib.h>
#include <string.h>

/* A candidate: a function of one path that makes no call, by name; refs counts the unit's
   references to it, calls those that are calls from instrumented functions that run whenever
   their block does. */
typedef struct { const char *name; size_t fn; unsigned long refs, calls; bool internal; } Cand;
typedef struct { Cand *v; size_t n; } Cands;

static int by_name(const void *a, const void *b) { return strcmp(((const Cand *)a)->name, ((const Cand *)b)->name); }

static Cand *find(const Cands *c, const char *name) {
  Cand key = { name, 0, 0, 0, false };
  return c->n ? bsearch(&key, c->v, c->n, sizeof *c->v, by_name) : NULL;
}

/* Counts references to the candidates anywhere in the unit (bodies, initializers of tables of
   function pointers, unevaluated operands) and notes which have internal linkage: a function
   whose every reference is a counted call has no caller the tables cannot see. */
static enum CXChildVisitResult refs(CXCursor c, CXCursor parent, CXClientData d) {
  Cands *cs = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  (void)parent;
  if (k == CXCursor_DeclRefExpr || (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c))) {
    CXCursor r = k == CXCursor_DeclRefExpr ? clang_getCursorReferenced(c) : c;
    if (clang_getCursorKind(r) == CXCursor_FunctionDecl) {
      CXString s = clang_getCursorSpelling(r);
      Cand *x = find(cs, clang_getCString(s));
      clang_disposeString(s);
      if (x && k == CXCursor_DeclRefExpr) x->refs++;
      else if (x) x->internal = clang_getCursorLinkage(c) == CXLinkage_Internal;
    }
  }
  return CXChildVisit_Recurse;
}

/* Functions of one path that call nothing (compiler builtins aside): they end as they start. */
static Cands candidates(const PPFunc *funcs, const PPTabFunc *tabs, size_t n) {
  Cands c = { pp_xcalloc(n + 1, sizeof(Cand)), 0 };
  for (size_t i = 0; i < n; i++)
    if (funcs[i].g.npaths == 1 && !funcs[i].calls.n && !funcs[i].calls_setjmp && !tabs[i].hash && !tabs[i].kpath) {
      Cand x = { funcs[i].name, i, 0, 0, false };
      c.v[c.n++] = x;
    }
  pp_sort(c.v, c.n, sizeof *c.v, by_name);
  return c;
}

/* The call k of function fn as the derived function's tables see it: its block, and the stop
   sites of that block whose calls end after it (a stop there comes after it ran). */
static PPDerivedCall derived_call(const PPFunc *f, size_t fn, size_t k) {
  const PPCall *c = &f->calls.v[k];
  PPDerivedCall d = { (int)fn, c->block, {0} };
  for (size_t j = 0; j < f->calls.n && j + 1 < PP_SITE_LAST; j++)
    if (j != k && f->calls.v[j].block == c->block && f->calls.v[j].end >= c->end) VEC_PUSH(d.after, (int)j + 1);
  return d;
}

/* Array offsets again, in function order, for the functions that still count. */
static void lay_out(const PPFunc *funcs, PPTabFunc *tabs, size_t n, uint64_t *ncounters) {
  *ncounters = 0;
  for (size_t i = 0; i < n; i++)
    if (!tabs[i].derived && !tabs[i].hash && !tabs[i].kpath) {
      tabs[i].offset = *ncounters;
      *ncounters += funcs[i].g.npaths + 1;
    }
}

size_t pp_derive(CXTranslationUnit tu, const PPFunc *funcs, PPTabFunc *tabs, size_t n, uint64_t *ncounters) {
  Cands c = candidates(funcs, tabs, n);
  size_t derived = 0;
  if (c.n) clang_visitChildren(clang_getTranslationUnitCursor(tu), refs, &c);
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < funcs[i].calls.n; k++) {
      Cand *x = funcs[i].calls.v[k].callee ? find(&c, funcs[i].calls.v[k].callee) : NULL;
      if (x && !funcs[i].calls.v[k].cond) x->calls++;  /* one its block may skip is not counted */
    }
  for (size_t j = 0; j < c.n; j++) {
    if (!c.v[j].internal || c.v[j].refs != c.v[j].calls) continue;
    PPTabFunc *t = &tabs[c.v[j].fn];
    t->derived = true;
    derived++;
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < funcs[i].calls.n; k++)
        if (funcs[i].calls.v[k].callee && !strcmp(funcs[i].calls.v[k].callee, c.v[j].name))
          VEC_PUSH(t->from, derived_call(&funcs[i], i, k));
  }
  free(c.v);
  if (derived) lay_out(funcs, tabs, n, ncounters);
  return derived;
}
