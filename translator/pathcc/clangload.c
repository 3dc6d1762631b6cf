/* clangload: libclang's functions for pathcc, loaded with dlopen the first time one is needed. */
#include "clangload.h"
#include "model/util.h"
#include <clang-c/Index.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef PP_LIBCLANG
#define PP_LIBCLANG "libclang.so.1"
#endif

/* Every libclang function the translator calls: return type, name, parameters, arguments (V
   for those returning nothing, whose forwarding returns no value).
   Linked against libclang, each pathcc run paid its loading (libLLVM's half a million
   relocations, 17 ms) even for a link or -E; loaded here, only a parse pays it. */
#define PP_CLANG_FUNCTIONS(X, V) \
  X(CXEvalResult, clang_Cursor_Evaluate, (CXCursor a), (a)) \
  X(enum CX_StorageClass, clang_Cursor_getStorageClass, (CXCursor a), (a)) \
  X(CXCursor, clang_Cursor_getVarDeclInitializer, (CXCursor a), (a)) \
  X(int, clang_Cursor_isNull, (CXCursor a), (a)) \
  X(CXString, clang_Cursor_getMangling, (CXCursor a), (a)) \
  V(void, clang_EvalResult_dispose, (CXEvalResult a), (a)) \
  X(long long, clang_EvalResult_getAsLongLong, (CXEvalResult a), (a)) \
  X(CXEvalResultKind, clang_EvalResult_getKind, (CXEvalResult a), (a)) \
  X(int, clang_File_isEqual, (CXFile a, CXFile b), (a, b)) \
  X(int, clang_Location_isInSystemHeader, (CXSourceLocation a), (a)) \
  X(CXIndex, clang_createIndex, (int a, int b), (a, b)) \
  V(void, clang_disposeDiagnostic, (CXDiagnostic a), (a)) \
  V(void, clang_disposeIndex, (CXIndex a), (a)) \
  V(void, clang_disposeString, (CXString a), (a)) \
  V(void, clang_disposeTranslationUnit, (CXTranslationUnit a), (a)) \
  X(const char *, clang_getCString, (CXString a), (a)) \
  X(CXCursor, clang_getCanonicalCursor, (CXCursor a), (a)) \
  X(CXCursor, clang_getCursorDefinition, (CXCursor a), (a)) \
  X(CXType, clang_getCanonicalType, (CXType a), (a)) \
  X(CXSourceRange, clang_getCursorExtent, (CXCursor a), (a)) \
  X(enum CXCursorKind, clang_getCursorKind, (CXCursor a), (a)) \
  X(CXSourceLocation, clang_getCursorLocation, (CXCursor a), (a)) \
  X(CXCursor, clang_getCursorReferenced, (CXCursor a), (a)) \
  X(enum CXLinkageKind, clang_getCursorLinkage, (CXCursor a), (a)) \
  X(CXString, clang_getCursorSpelling, (CXCursor a), (a)) \
  X(CXType, clang_getCursorType, (CXCursor a), (a)) \
  X(CXDiagnostic, clang_getDiagnostic, (CXTranslationUnit a, unsigned b), (a, b)) \
  X(CXString, clang_getDiagnosticCategoryText, (CXDiagnostic a), (a)) \
  X(CXSourceLocation, clang_getDiagnosticLocation, (CXDiagnostic a), (a)) \
  X(enum CXDiagnosticSeverity, clang_getDiagnosticSeverity, (CXDiagnostic a), (a)) \
  X(CXString, clang_getDiagnosticSpelling, (CXDiagnostic a), (a)) \
  X(CXFile, clang_getFile, (CXTranslationUnit a, const char *b), (a, b)) \
  V(void, clang_getFileLocation, (CXSourceLocation a, CXFile *b, unsigned *c, unsigned *d, unsigned *e), (a, b, c, d, e)) \
  X(CXCursor, clang_getNullCursor, (void), ()) \
  X(unsigned, clang_getNumDiagnostics, (CXTranslationUnit a), (a)) \
  V(void, clang_getPresumedLocation, (CXSourceLocation a, CXString *b, unsigned *c, unsigned *d), (a, b, c, d)) \
  X(CXSourceLocation, clang_getRangeEnd, (CXSourceRange a), (a)) \
  X(CXSourceLocation, clang_getRangeStart, (CXSourceRange a), (a)) \
  X(CXCursor, clang_getTranslationUnitCursor, (CXTranslationUnit a), (a)) \
  X(unsigned, clang_hashCursor, (CXCursor a), (a)) \
  X(unsigned, clang_isAttribute, (enum CXCursorKind a), (a)) \
  X(unsigned, clang_isCursorDefinition, (CXCursor a), (a)) \
  X(unsigned, clang_isDeclaration, (enum CXCursorKind a), (a)) \
  X(unsigned, clang_isExpression, (enum CXCursorKind a), (a)) \
  X(unsigned, clang_isStatement, (enum CXCursorKind a), (a)) \
  X(enum CXErrorCode, clang_parseTranslationUnit2, (CXIndex a, const char *b, const char *const *c, int d, \
    struct CXUnsavedFile *e, unsigned f, unsigned g, CXTranslationUnit *h), (a, b, c, d, e, f, g, h)) \
  X(unsigned, clang_visitChildren, (CXCursor a, CXCursorVisitor b, CXClientData c), (a, b, c))

#define POINTER(ret, name, params, args) static ret (*p_##name) params;
PP_CLANG_FUNCTIONS(POINTER, POINTER)

static bool loaded;

/* The library: the one pathcc was built against, else by soname (a moved LLVM); the first
   attempt's reason is the one worth reporting, as it names the expected file. */
static void *open_libclang(int mode, const char **name, char **err) {
  static const char *const names[] = { PP_LIBCLANG, "libclang-14.so.1", "libclang.so.1" };
  char *first = NULL;
  void *h = NULL;
  for (size_t i = 0; i < sizeof names / sizeof *names && !h; i++) {
    h = dlopen(names[i], mode | RTLD_LOCAL);
    *name = names[i];
    if (!h && !first) first = pp_xstrdup(dlerror());
  }
  if (!h) *err = pp_xasprintf("cannot load libclang: %s", first);  /* the loader names the file */
  free(first);
  return h;
}

/* All functions are resolved at once, so a library missing one fails here, cleanly, and not
   in the middle of a parse. */
#define RESOLVE(ret, name, params, args) \
  if (!(p_##name = (ret (*) params)dlsym(h, #name))) { \
    *err = pp_xasprintf("cannot load libclang: %s has no function %s", name, #name); \
    return -1; \
  }

/* Lazy binding: a unit calls a small part of libclang's imports. A compile server loads it so
   too: its workers live across requests, so binding everything up front (RTLD_NOW, 13 ms) and
   a warm-up parse in the server bought less than they cost a build's server start. */
int pp_clang_load(char **err) {
  if (loaded) return 0;
  const char *name;
  void *h = open_libclang(RTLD_LAZY, &name, err);
  if (!h) return -1;
  PP_CLANG_FUNCTIONS(RESOLVE, RESOLVE)
  loaded = true;
  return 0;
}

/* Reached only when a caller skipped pp_clang_load (which pp_instrument calls first): a
   failure then has no unit to fall back to, so it ends the run with the reason. */
static void need_libclang(void) {
  char *err = NULL;
  if (loaded || pp_clang_load(&err) == 0) return;
  fprintf(stderr, "pathcc: error: %s\n", err);
  exit(1);
}

#define FORWARD(ret, name, params, args) \
  ret name params { need_libclang(); return p_##name args; }
#define FORWARD_VOID(ret, name, params, args) \
  ret name params { need_libclang(); p_##name args; }
PP_CLANG_FUNCTIONS(FORWARD, FORWARD_VOID)
