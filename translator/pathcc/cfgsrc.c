/* The CFG builder's view of the .i text (statement ends, for headers, file names) and the
   constructs it leaves uninstrumented (jumps it cannot follow, setjmp). */
#include "cfgint.h"
#include <ctype.h>
#include <stdlib.h>

int pp_source_file(PPSource *src, const char *name) {
  for (size_t i = 0; i < src->files.n; i++)
    if (!strcmp(src->files.v[i], name)) return (int)i;
  VEC_PUSH(src->files, pp_xstrdup(name));
  return (int)src->files.n - 1;
}

/* ---- the raw text of the .i file ---- */

bool cfg_at_line_start(const char *t, unsigned off) {
  while (off > 0 && (t[off - 1] == ' ' || t[off - 1] == '\t')) off--;
  return off == 0 || t[off - 1] == '\n';
}

/* Skips blanks, comments and directive lines (line markers, pragmas) from off. */
unsigned cfg_skip_ws(const PPSource *s, unsigned off) {
  const char *t = s->text;
  while (off < s->len) {
    char c = t[off];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') off++;
    else if (c == '#' && cfg_at_line_start(t, off)) {
      while (off < s->len && t[off] != '\n') off++;
    } else if (c == '/' && off + 1 < s->len && t[off + 1] == '*') {
      char *e = strstr(t + off + 2, "*/");
      off = e ? (unsigned)(e - t) + 2 : (unsigned)s->len;
    } else if (c == '/' && off + 1 < s->len && t[off + 1] == '/') {
      while (off < s->len && t[off] != '\n') off++;
    } else break;
  }
  return off;
}

/* The visual column of off (tabs every 8, as the compilers count) and where its line starts. */
static unsigned column(const char *t, unsigned off, unsigned *line) {
  unsigned s = off, col = 0;
  while (s > 0 && t[s - 1] != '\n') s--;
  *line = s;
  for (unsigned i = s; i < off; i++) col = t[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
  return col;
}

static bool word_at(const char *t, size_t len, unsigned off, const char *w) {
  size_t n = strlen(w);
  return off + n <= len && !strncmp(t + off, w, n) && (off + n == len || !(isalnum((unsigned char)t[off + n]) || t[off + n] == '_'));
}

bool cfg_misleading(Builder *b, unsigned guard, unsigned end, bool is_do) {
  const char *t = b->src->text;
  size_t len = b->src->len;
  unsigned n = cfg_skip_ws(b->src, end);
  while (n < len && t[n] == ';') n = cfg_skip_ws(b->src, n + 1);  /* null statements guard nothing */
  if (end == BAD || n >= len || t[n] == '}' || word_at(t, len, n, "else") || (is_do && word_at(t, len, n, "while")))
    return false;
  unsigned gline, nline, first = guard;
  unsigned gcol = column(t, guard, &gline), ncol = column(t, n, &nline);
  if (nline == gline) {  /* all on one line: gcc warns when the guard begins its line */
    while (first > gline && (t[first - 1] == ' ' || t[first - 1] == '\t')) first--;
    return first == gline;
  }
  return memchr(t + end, '\n', n - end) == NULL || ncol > gcol;
}

/* Offset just past the ':' that ends a label whose name or expression ends at off. */
unsigned cfg_colon_after(Builder *b, unsigned off) {
  off = cfg_skip_ws(b->src, off);
  return off < b->src->len && b->src->text[off] == ':' ? off + 1 : BAD;
}

/* Offset just past the last character of statement c, including its ';'. */
unsigned cfg_stmt_end(Builder *b, CXCursor c) {
  switch (kind(c)) {
  case CXCursor_CompoundStmt:
    return end_of(c);
  case CXCursor_IfStmt: case CXCursor_WhileStmt: case CXCursor_ForStmt: case CXCursor_SwitchStmt:
  case CXCursor_LabelStmt: case CXCursor_CaseStmt: case CXCursor_DefaultStmt: {
    Kids k = kids(c);
    unsigned e = k.n ? cfg_stmt_end(b, k.v[k.n - 1]) : BAD;
    VEC_FREE(k);
    return e;
  }
  default: {
    unsigned e = end_of(c);
    if (e > 0 && b->src->text[e - 1] == ';') return e;
    e = cfg_skip_ws(b->src, e);
    return e < b->src->len && b->src->text[e] == ';' ? e + 1 : BAD;
  }
  }
}

/* Finds the two ';' and the ')' of a for header, skipping literals and nested brackets. */
int cfg_for_header(Builder *b, unsigned for_off, unsigned *semi1, unsigned *semi2, unsigned *close) {
  const char *t = b->src->text;
  unsigned o = cfg_skip_ws(b->src, for_off + 3), n = (unsigned)b->src->len;
  int depth = 0, nsemi = 0;
  if (o >= n || t[o] != '(') return -1;
  for (; o < n; o++) {
    char ch = t[o];
    if (ch == '"' || ch == '\'') {
      for (o++; o < n && t[o] != ch; o++)
        if (t[o] == '\\') o++;
    } else if ((ch == '#' && cfg_at_line_start(t, o)) || (ch == '/' && o + 1 < n && (t[o + 1] == '*' || t[o + 1] == '/'))) {
      o = cfg_skip_ws(b->src, o) - 1;
    } else if (ch == '(' || ch == '[' || ch == '{') depth++;
    else if (ch == ')' || ch == ']' || ch == '}') {
      if (--depth == 0) { *close = o; return nsemi == 2 ? 0 : -1; }
    } else if (ch == ';' && depth == 1) {
      if (nsemi == 0) *semi1 = o; else *semi2 = o;
      nsemi++;
    }
  }
  return -1;
}

/* ---- constructs this version leaves alone ---- */

typedef struct { const char *why; bool setjmp; Builder *b; } Scan;

static enum CXChildVisitResult scan_jumps(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  switch (kind(c)) {
  case CXCursor_ReturnStmt: case CXCursor_GotoStmt: case CXCursor_LabelStmt: case CXCursor_BreakStmt:
  case CXCursor_ContinueStmt: case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_IndirectGotoStmt:
    *(bool *)d = true;
    return CXChildVisit_Break;
  default:
    return CXChildVisit_Recurse;
  }
}

bool cfg_has_jumps(CXCursor c) {
  bool found = false;
  clang_visitChildren(c, scan_jumps, &found);
  return found;
}

static enum CXChildVisitResult scan_control(CXCursor c, CXCursor parent, CXClientData d) {
  switch (kind(c)) {
  case CXCursor_IfStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt: case CXCursor_ForStmt: case CXCursor_SwitchStmt:
    *(bool *)d = true;
    return CXChildVisit_Break;
  default:
    return scan_jumps(c, parent, d);
  }
}

/* Does c hold a statement of control flow (a branch, loop, jump or label)? */
static bool has_control(CXCursor c) {
  bool found = false;
  clang_visitChildren(c, scan_control, &found);
  return found;
}

/* Does c, inside the statement expression [lo, hi), leave it: a return, a goto *p or to a label
   outside, a break or continue without a loop (or switch) of its own inside around it? */
static bool jumps_out(CXCursor c, unsigned lo, unsigned hi, int loops, int switches) {
  switch (kind(c)) {
  case CXCursor_ReturnStmt: case CXCursor_IndirectGotoStmt: return true;
  case CXCursor_BreakStmt: return loops + switches == 0;
  case CXCursor_ContinueStmt: return loops == 0;
  case CXCursor_CaseStmt: case CXCursor_DefaultStmt: if (!switches) return true; break;
  case CXCursor_GotoStmt: {
    Kids k = kids(c);
    CXCursor l = k.n ? clang_getCursorReferenced(k.v[0]) : clang_getNullCursor();
    unsigned o = clang_Cursor_isNull(l) ? BAD : start_of(l);
    VEC_FREE(k);
    return o == BAD || o < lo || o >= hi;
  }
  case CXCursor_WhileStmt: case CXCursor_DoStmt: case CXCursor_ForStmt: loops++; break;
  case CXCursor_SwitchStmt: switches++; break;
  default: break;
  }
  Kids k = kids(c);
  bool out = false;
  for (size_t i = 0; i < k.n && !out; i++) out = jumps_out(k.v[i], lo, hi, loops, switches);
  VEC_FREE(k);
  return out;
}

/* Statement expression c: noted in b->flows when it holds control flow. */
static void note_flow(Builder *b, CXCursor c) {
  if (!has_control(c)) return;
  CXSourceRange r = clang_getCursorExtent(c);
  Flow f = { start_of(c), end_of(c), presumed(b, clang_getRangeStart(r), NULL), presumed(b, clang_getRangeEnd(r), NULL),
             false, false };
  f.escapes = jumps_out(c, f.off, f.end, 0, 0);
  VEC_PUSH(b->flows, f);
}

void cfg_check_flows(Builder *b) {
  for (size_t i = 0; i < b->flows.n; i++) {
    const Flow *f = &b->flows.v[i];
    bool whole = false;  /* inside another left whole: that one's jumps are what count */
    for (size_t j = 0; j < b->flows.n && !whole; j++)
      whole = j != i && !b->flows.v[j].walked && b->flows.v[j].off <= f->off && f->end <= b->flows.v[j].end;
    if (!f->walked && f->escapes && !whole) {
      if (!b->why) b->why = "a statement expression that jumps out of itself, beside another in an unsequenced expression";
      return;
    }
  }
}

static bool is_setjmp(const char *n) {
  static const char *names[] = { "setjmp", "_setjmp", "__setjmp", "sigsetjmp", "__sigsetjmp", "__builtin_setjmp",
                                 "savectx", "vfork", 0 };
  for (int i = 0; names[i]; i++)
    if (!strcmp(n, names[i])) return true;
  return false;
}

static enum CXChildVisitResult scan(CXCursor c, CXCursor parent, CXClientData d) {
  Scan *s = d;
  (void)parent;
  switch (kind(c)) {
  case CXCursor_AddrLabelExpr: {
    Kids k = kids(c);
    if (k.n) {
      CXString n = clang_getCursorSpelling(k.v[0]);
      VEC_PUSH(s->b->taken, pp_xstrdup(clang_getCString(n)));
      clang_disposeString(n);
    }
    VEC_FREE(k);
    return CXChildVisit_Continue;
  }
  case CXCursor_AsmStmt: {
    const char *t = s->b->src->text + start_of(c), *paren = strchr(t, '(');
    for (const char *g = t; paren && g + 4 <= paren; g++)
      if (!memcmp(g, "goto", 4)) { s->why = "asm goto is not instrumented yet"; return CXChildVisit_Break; }
    return CXChildVisit_Continue;
  }
  case CXCursor_StmtExpr:  /* one with control flow is built in place (cfg_stmt_expr) */
    note_flow(s->b, c);
    return CXChildVisit_Recurse;
  case CXCursor_FunctionDecl:
    if (clang_isCursorDefinition(c)) { s->why = "contains a nested function"; return CXChildVisit_Break; }
    return CXChildVisit_Continue;
  case CXCursor_CallExpr: {
    CXString n = clang_getCursorSpelling(c);
    if (is_setjmp(clang_getCString(n))) s->setjmp = true;
    clang_disposeString(n);
    return CXChildVisit_Recurse;
  }
  default:
    return CXChildVisit_Recurse;
  }
}

const char *cfg_refused(Builder *b, CXCursor body, bool *calls_setjmp) {
  Scan sc = { NULL, false, b };
  clang_visitChildren(body, scan, &sc);
  *calls_setjmp = sc.setjmp;
  return sc.why;
}
