/* clangerr: libclang's errors in a unit, and which of them cost a function its instrumentation. */
#include "clangerr.h"
#include "model/util.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef VEC(CXCursor) Kids;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  VEC_PUSH(*(Kids *)d, c);
  return CXChildVisit_Continue;
}

/* The children of c, in source order. */
static Kids kids(CXCursor c) {
  Kids k = {0};
  clang_visitChildren(c, collect, &k);
  return k;
}

static unsigned offset_of(CXSourceLocation l) {
  unsigned o;
  clang_getFileLocation(l, NULL, NULL, NULL, &o);
  return o;
}

static unsigned start_of(CXCursor c) { return offset_of(clang_getRangeStart(clang_getCursorExtent(c))); }
static unsigned end_of(CXCursor c) { return offset_of(clang_getRangeEnd(clang_getCursorExtent(c))); }
static bool holds(CXCursor c, unsigned off) { return start_of(c) <= off && off < end_of(c); }

void pp_clang_errors(CXTranslationUnit tu, CXFile main, PPClangErrors *out) {
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXFile f;
      unsigned off;
      clang_getFileLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
      CXString s = clang_getDiagnosticSpelling(d), cat = clang_getDiagnosticCategoryText(d);
      PPClangError e = { f && clang_File_isEqual(f, main) ? off : 0, !strcmp(clang_getCString(cat), "Semantic Issue"),
                         pp_xstrdup(clang_getCString(s)) };
      VEC_PUSH(*out, e);
      clang_disposeString(s);
      clang_disposeString(cat);
    }
    clang_disposeDiagnostic(d);
  }
}

void pp_clang_errors_free(PPClangErrors *e) {
  for (size_t i = 0; i < e->n; i++) free(e->v[i].text);
  VEC_FREE(*e);
}

/* Errors of GNU C that clang refuses but whose statements, all the CFG needs, still parse: a
   GCC builtin clang lacks is a call it cannot type, a struct with a variable-length member
   (GNU VLAIS) a declaration it cannot lay out. */
static bool benign(const char *e) {
  return !strncmp(e, "use of unknown builtin", 22) || strstr(e, "'variable length array in structure'");
}

/* A node clang built in place of an expression it could not type (RecoveryExpr, or a
   conversion of one): libclang shows it as an unexposed expression of dependent type, which
   C has nowhere else. */
static bool recovered(CXCursor c) {
  return clang_getCursorKind(c) == CXCursor_UnexposedExpr && clang_getCursorType(c).kind == CXType_Dependent;
}

/* Builtins GCC expands in place that neither end the activation nor jump: a call to one lost
   in a recovery node is no call pathcc needed to see. */
static bool inline_builtin(const char *n) {
  static const char *const ending[] = { "jmp", "abort", "exit", "Exit", "trap", "unreachable", "apply", "return",
                                        "unwind", 0 };
  if (!strncmp(n, "__atomic_", 9) || !strncmp(n, "__sync_", 7) || !strncmp(n, "__c11_atomic_", 13)) return true;
  if (strncmp(n, "__builtin_", 10)) return false;
  for (int i = 0; ending[i]; i++)
    if (strstr(n, ending[i])) return false;
  return true;
}

/* Words that take parentheses without being calls. */
static bool operator_word(const char *w, size_t n) {
  static const char *const words[] = { "sizeof", "_Alignof", "__alignof__", "__alignof", "__typeof__", "__typeof",
                                       "typeof", "__extension__", "__real__", "__imag__", "_Generic", 0 };
  for (int i = 0; words[i]; i++)
    if (strlen(words[i]) == n && !memcmp(words[i], w, n)) return true;
  return false;
}

/* The offset of the first character at or after o, up to end, that is no space and not in a
   line marker (GCC's -E puts those inside expressions that use system-header macros) or a
   comment (kept by -C: an apostrophe or && in one is no code). */
static unsigned next_char(const PPSource *s, unsigned o, unsigned end) {
  while (o < end) {
    const char *t = s->text + o;
    if (*t == '#' && (o == 0 || t[-1] == '\n')) {
      while (o < end && s->text[o] != '\n') o++;
    } else if (o + 1 < end && t[0] == '/' && t[1] == '*') {
      const char *e = strstr(t + 2, "*/");
      o = e ? (unsigned)(e - s->text) + 2 : end;
    } else if (o + 1 < end && t[0] == '/' && t[1] == '/') {
      while (o < end && s->text[o] != '\n') o++;
    } else if (isspace((unsigned char)s->text[o])) {
      o++;
    } else {
      break;
    }
  }
  return o;
}

/* Past the string or character literal that starts at o. */
static unsigned past_literal(const PPSource *s, unsigned o, unsigned end) {
  char q = s->text[o++];
  while (o < end && s->text[o] != q) o += s->text[o] == '\\' ? 2 : 1;
  return o + 1;
}

/* Does the text [a, b), in a recovery node but under none of its children, hide something the
   CFG must see: a statement or brace, a decision, or a call that is not to an inline builtin? */
static bool gap_hides(const PPSource *s, unsigned a, unsigned b) {
  for (unsigned o = next_char(s, a, b); o < b; o = next_char(s, o, b)) {
    const char *t = s->text + o;
    if (*t == '"' || *t == '\'') { o = past_literal(s, o, b); continue; }
    if (strchr("{};?", *t) || (o + 1 < b && ((t[0] == '&' && t[1] == '&') || (t[0] == '|' && t[1] == '|'))))
      return true;
    if (!isalpha((unsigned char)*t) && *t != '_') { o++; continue; }
    unsigned w = o;
    while (o < b && (isalnum((unsigned char)s->text[o]) || s->text[o] == '_')) o++;
    unsigned p = next_char(s, o, b);
    if (p < b && s->text[p] == '(' && !operator_word(t, o - w)) {
      char *name = pp_xasprintf("%.*s", (int)(o - w), t);
      bool ok = inline_builtin(name);
      free(name);
      if (!ok) return true;
    }
  }
  return false;
}

/* Parentheses and conversions around an expression skipped. */
static CXCursor bare(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) return c;
    Kids kk = kids(c);
    bool one = kk.n == 1;
    if (one) c = kk.v[0];
    VEC_FREE(kk);
    if (!one) return c;
  }
}

/* Is child k of a recovery node the callee of a call clang did not build ("(" after it), and
   one pathcc must see (not an inline builtin)? */
static bool lost_call(const PPSource *s, CXCursor k, unsigned end) {
  unsigned p = next_char(s, end_of(k), end);
  if (p >= end || s->text[p] != '(') return false;
  CXCursor f = bare(k);
  if (clang_getCursorKind(f) != CXCursor_DeclRefExpr) return true;  /* through a pointer */
  CXCursor d = clang_getCursorReferenced(f);
  if (clang_getCursorKind(d) != CXCursor_FunctionDecl) return true;
  CXString n = clang_getCursorSpelling(d);
  bool lost = !inline_builtin(clang_getCString(n));
  clang_disposeString(n);
  return lost;
}

/* Does the subtree c of a recovery region hide something from the CFG? Every recovery node in
   it must keep all its text in children that are whole expressions, but for punctuation and
   inline builtins' names: the CFG builder walks its children as a call's operands (cfgexpr.c),
   so a decision under them is seen, but one clang dropped (a ?: it could not type) is not. */
static bool hides(const PPSource *s, CXCursor c) {
  Kids k = kids(c);
  bool bad = false;
  if (recovered(c)) {
    unsigned at = start_of(c), end = end_of(c);
    for (size_t i = 0; i < k.n && !bad; i++) {
      bad = gap_hides(s, at, start_of(k.v[i])) || lost_call(s, k.v[i], end);
      if (end_of(k.v[i]) > at) at = end_of(k.v[i]);
    }
    bad = bad || gap_hides(s, at, end);
  }
  for (size_t i = 0; i < k.n && !bad; i++) bad = hides(s, k.v[i]);
  VEC_FREE(k);
  return bad;
}

/* Is the text between the statements of compound statement c, k its children, only spaces,
   semicolons (expression statements end before theirs) and line markers? Else libclang left
   a statement out of its view. */
static bool whole(const PPSource *s, CXCursor c, const Kids *k) {
  unsigned at = start_of(c) + 1, end = end_of(c) - 1;
  for (size_t i = 0; i <= k->n; i++) {
    unsigned to = i < k->n ? start_of(k->v[i]) : end;
    for (unsigned o = next_char(s, at, to); o < to; o = next_char(s, o + 1, to))
      if (s->text[o] != ';') return false;
    if (i < k->n && end_of(k->v[i]) > at) at = end_of(k->v[i]);
  }
  return true;
}

/* The outermost recovery node on the way from c down to the node that holds offset off, with
   every compound statement on the way whole. */
static bool recovery_at(const PPSource *s, CXCursor c, unsigned off, CXCursor *found) {
  for (;;) {
    if (recovered(c)) { *found = c; return true; }
    Kids k = kids(c);
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt && !whole(s, c, &k)) { VEC_FREE(k); return false; }
    size_t i = 0;
    while (i < k.n && !holds(k.v[i], off)) i++;
    bool deeper = i < k.n;
    if (deeper) c = k.v[i];
    VEC_FREE(k);
    if (!deeper) return false;
  }
}

/* Is a semantic error at off, in function fn, one the CFG survives? Before the body, in the
   signature, only a parameter's matters (its size expression runs); in the body, the error must
   lie in a recovery node that hides nothing (hides). */
static bool harmless(const PPSource *s, CXCursor fn, unsigned off) {
  Kids k = kids(fn);
  CXCursor body = k.n ? k.v[k.n - 1] : clang_getNullCursor();
  bool ok = false;
  if (k.n && clang_getCursorKind(body) == CXCursor_CompoundStmt) {
    if (off < start_of(body)) {
      ok = true;
      for (size_t i = 0; i + 1 < k.n; i++) ok &= clang_getCursorKind(k.v[i]) != CXCursor_ParmDecl || !holds(k.v[i], off);
    } else {
      CXCursor r;
      if (recovery_at(s, body, off, &r)) {
        ok = !hides(s, r);
      }
    }
  }
  VEC_FREE(k);
  return ok;
}

const char *pp_clang_error_in(const PPClangErrors *e, const PPSource *src, CXCursor fn, unsigned from, unsigned to) {
  /* clang declares an unknown builtin to return int, so using its value (a vector, say) adds
     errors about that int */
  bool builtin = false;
  for (size_t i = 0; i < e->n; i++)
    builtin |= e->v[i].off >= from && e->v[i].off < to && !strncmp(e->v[i].text, "use of unknown builtin", 22);
  for (size_t i = 0; i < e->n; i++) {
    const PPClangError *x = &e->v[i];
    if (x->off < from || x->off >= to || benign(x->text)) continue;
    if (builtin && strstr(x->text, "incompatible type 'int'")) continue;
    if (!x->semantic || !harmless(src, fn, x->off)) return x->text;
  }
  return NULL;
}
