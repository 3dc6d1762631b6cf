/* The CFG builder's expressions: decisions inside them (--decisions=conditions), the facts the
   static estimator reads off conditions, and the lines and statements a block holds. */
#include "cfgint.h"
#include <ctype.h>
#include <stdlib.h>

/* ---- facts for the static estimator ---- */

/* Skips parentheses and implicit conversions: the expression as written. */
static CXCursor bare(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) return c;
    Kids kk = kids(c);
    if (kk.n != 1) { VEC_FREE(kk); return c; }
    c = kk.v[0];
    VEC_FREE(kk);
  }
}

/* The declaration a variable reference names, as a hash (0: not a plain variable). */
static unsigned var_of(CXCursor c) {
  c = bare(c);
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return 0;
  CXCursor d = clang_getCursorReferenced(c);
  enum CXCursorKind k = clang_getCursorKind(d);
  return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? clang_hashCursor(d) | 1u : 0;
}

/* The text right after a binary operator's left operand: its operator. */
static const char *operator_text(Builder *b, CXCursor left) {
  unsigned o = cfg_skip_ws(b->src, end_of(left));
  return o + 3 <= b->src->len ? b->src->text + o : "";
}

typedef struct { Builder *b; PPFacts *f; } FactScan;

static enum CXChildVisitResult scan_facts(CXCursor c, CXCursor parent, CXClientData d) {
  FactScan *fs = d;
  PPFacts *f = fs->f;
  const char *t = fs->b->src->text;
  (void)parent;
  switch (kind(c)) {
  case CXCursor_CallExpr: f->calls = true; break;
  case CXCursor_UnexposedExpr:  /* clang's recovery node (clangerr.c): an operation it could not type, an atomic one */
    f->calls |= clang_getCursorType(c).kind == CXType_Dependent;
    break;
  case CXCursor_ReturnStmt: f->returns = true; break;
  case CXCursor_CompoundAssignOperator: f->stores = true; break;
  case CXCursor_BinaryOperator: {
    Kids k = kids(c);
    if (k.n == 2) {
      const char *op = operator_text(fs->b, k.v[0]);
      f->stores |= op[0] == '=' && op[1] != '=';
    }
    VEC_FREE(k);
    break;
  }
  case CXCursor_UnaryOperator: {
    unsigned a = start_of(c), e = end_of(c);
    f->stores |= (e >= a + 2 && (!strncmp(t + a, "++", 2) || !strncmp(t + a, "--", 2) ||
                                 !strncmp(t + e - 2, "++", 2) || !strncmp(t + e - 2, "--", 2)));
    break;
  }
  case CXCursor_DeclRefExpr: {
    unsigned v = var_of(c);
    bool have = false;
    for (int i = 0; i < f->nuses; i++) have |= f->uses[i] == v;
    if (v && !have && f->nuses < PP_FACT_VARS) f->uses[f->nuses++] = v;
    break;
  }
  default: break;
  }
  return CXChildVisit_Recurse;
}

/* Records what statement or expression c does in the current block's facts. */
void cfg_note_facts(Builder *b, CXCursor c) {
  FactScan fs = { b, &b->g->blocks.v[b->cur].facts };
  scan_facts(c, clang_getNullCursor(), &fs);
  clang_visitChildren(c, scan_facts, &fs);
}

static PPCmp negate(PPCmp c) {
  static const PPCmp flip[] = { PP_CMP_NONE, PP_CMP_NE, PP_CMP_EQ, PP_CMP_GE, PP_CMP_GT, PP_CMP_LE, PP_CMP_LT };
  return flip[c];
}

/* Is the operand 0 or a null pointer constant, or any integer constant? */
static void constant_operand(Builder *b, CXCursor c, bool *zero, bool *constant) {
  c = bare(c);
  CXEvalResult r = clang_Cursor_Evaluate(c);
  *zero = *constant = false;
  if (r) {
    if (clang_EvalResult_getKind(r) == CXEval_Int) { *constant = true; *zero = clang_EvalResult_getAsLongLong(r) == 0; }
    else if (clang_EvalResult_getKind(r) == CXEval_Float) *constant = true;
    clang_EvalResult_dispose(r);
  }
  if (*constant) return;
  unsigned a = start_of(c), e = end_of(c);  /* ((void *)0) */
  bool only = e > a && e - a < 24, nought = false;
  for (unsigned i = a; only && i < e; i++) {
    char ch = b->src->text[i];
    nought |= ch == '0';
    only = strchr("()*0 voidVOID\t", ch) != NULL;
  }
  *zero = *constant = only && nought;
}

/* The comparison a decision on expression e makes, for the current block's facts. */
static void note_decision(Builder *b, CXCursor e) {
  PPFacts *f = &b->g->blocks.v[b->cur].facts;
  bool neg = false;
  e = bare(e);
  for (;;) {  /* !x */
    Kids k = kids(e);
    bool is_not = kind(e) == CXCursor_UnaryOperator && k.n == 1 && b->src->text[start_of(e)] == '!';
    CXCursor inner = is_not ? bare(k.v[0]) : e;
    VEC_FREE(k);
    if (!is_not) break;
    neg = !neg;
    e = inner;
  }
  Kids k = kids(e);
  CXCursor left = e, right = clang_getNullCursor();
  f->cmp = PP_CMP_NE;  /* a bare value: compared with zero */
  if (kind(e) == CXCursor_BinaryOperator && k.n == 2) {
    const char *op = operator_text(b, k.v[0]);
    PPCmp c = op[0] == '=' && op[1] == '=' ? PP_CMP_EQ : op[0] == '!' && op[1] == '=' ? PP_CMP_NE :
              op[0] == '<' && op[1] == '=' ? PP_CMP_LE : op[0] == '>' && op[1] == '=' ? PP_CMP_GE :
              op[0] == '<' && op[1] != '<' ? PP_CMP_LT : op[0] == '>' && op[1] != '>' ? PP_CMP_GT : PP_CMP_NONE;
    if (c != PP_CMP_NONE) { f->cmp = c; left = k.v[0]; right = k.v[1]; }
    /* a && b, a || b: branches of their own in the machine code the heuristics were made for,
       no value compared with zero (taking "a < 0 || a >= 64" for "x != 0" made an interpreter's
       rare error check its likely way) */
    if ((op[0] == '&' && op[1] == '&') || (op[0] == '|' && op[1] == '|')) f->cmp = PP_CMP_NONE;
  }
  enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(bare(left))).kind;
  f->ptr = tk == CXType_Pointer;
  /* a bare integer (a flag, a mask test) says nothing of its likely value, unlike a comparison
     the opcode heuristic reads (debug hooks and statistics flags are mostly off) */
  if (clang_Cursor_isNull(right) && !f->ptr) f->cmp = PP_CMP_NONE;
  f->fp = tk == CXType_Float || tk == CXType_Double || tk == CXType_LongDouble;
  if (clang_Cursor_isNull(right)) f->vs_zero = f->vs_const = true;
  else constant_operand(b, right, &f->vs_zero, &f->vs_const);
  f->operands[0] = var_of(left);
  f->operands[1] = clang_Cursor_isNull(right) ? 0 : var_of(right);
  if (neg) f->cmp = negate(f->cmp);
  VEC_FREE(k);
}

static bool runs_here(CXCursor e);

/* A declaration that executes nothing: every variable static or extern, or without an
   initializer or a variable length (no expression under it). */
static bool inert(CXCursor c) {
  if (kind(c) != CXCursor_DeclStmt) return false;
  Kids k = kids(c);
  bool yes = true;
  for (size_t i = 0; i < k.n && yes; i++) {
    if (kind(k.v[i]) != CXCursor_VarDecl) continue;  /* typedefs, struct tags: nothing runs */
    if (!runs_here(k.v[i])) continue;
    Kids v = kids(k.v[i]);
    for (size_t j = 0; j < v.n && yes; j++) yes = !clang_isExpression(kind(v.v[j]));
    VEC_FREE(v);
  }
  VEC_FREE(k);
  return yes;
}

/* Does expression c compile to nothing: no call, store or increment anywhere in it (a cast to
   void, a constant, an unused value)? Declarations are inert() instead. */
bool cfg_no_code(Builder *b, CXCursor c) {
  if (!clang_isExpression(kind(c)) || kind(c) == CXCursor_StmtExpr) return false;
  PPFacts f;
  memset(&f, 0, sizeof f);
  FactScan fs = { b, &f };
  scan_facts(c, clang_getNullCursor(), &fs);
  clang_visitChildren(c, scan_facts, &fs);
  return !f.calls && !f.stores && !f.returns;
}

void cfg_set_pos(Builder *b, int blk, CXCursor c, bool force) {
  PPBlock *bl = &b->g->blocks.v[blk];
  if (force || !bl->pos.line) bl->pos = position(b, clang_getRangeStart(clang_getCursorExtent(c)));
}

/* ---- calls ---- */

/* The setjmp family whose value says whether a longjmp brought it (vfork and the like return
   twice too, but their second value means something else). */
static bool setjmp_name(const char *n) {
  static const char *names[] = { "setjmp", "_setjmp", "__setjmp", "sigsetjmp", "__sigsetjmp", "__builtin_setjmp", 0 };
  for (int i = 0; names[i]; i++)
    if (!strcmp(n, names[i])) return true;
  return false;
}

/* Library functions GCC builds in as nothrow: it ends no block after their calls (gcov's
   counts then run on to the next call), unlike functions that may be cancellation points
   (printf, puts, fwrite...) or anything it does not know. But for the exec family, which ends
   the process image, they return: they stop an activation only by a fault. */
static bool exec_name(const char *n) {
  static const char *names[] = { "execl", "execle", "execlp", "execv", "execve", "execvp", 0 };
  for (int i = 0; names[i]; i++)
    if (!strcmp(n, names[i])) return true;
  return false;
}

static bool nothrow_builtin(const char *n) {
  static const char *names[] = { "memcpy", "memmove", "memset", "memcmp", "memchr", "bcmp", "bcopy", "bzero", "strlen",
    "strnlen", "strcpy", "strncpy", "stpcpy", "stpncpy", "strcat", "strncat", "strcmp", "strncmp", "strcasecmp",
    "strncasecmp", "strchr", "strrchr", "strstr", "strspn", "strcspn", "strpbrk", "strdup", "strndup", "index",
    "rindex", "abs", "labs", "llabs", "imaxabs", "fabs", "fabsf", "fabsl", "floor", "ceil", "round", "trunc", "sqrt",
    "pow", "exp", "log", "log2", "log10", "sin", "cos", "tan", "atan", "atan2", "fmod", "fmin", "fmax", "malloc",
    "calloc", "realloc", "free", "alloca", "sprintf", "snprintf", "vsprintf", "vsnprintf", "isalnum", "isalpha",
    "isdigit", "islower", "isupper", "isspace", "isxdigit", "isprint", "ispunct", "iscntrl", "isgraph", "toupper",
    "tolower", "ffs", "ffsl", "ffsll", 0 };
  for (int i = 0; names[i]; i++)
    if (!strcmp(n, names[i])) return true;
  return false;
}

static enum CXChildVisitResult find_const(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (kind(c) == CXCursor_ConstAttr || kind(c) == CXCursor_PureAttr) { *(bool *)data = true; return CXChildVisit_Break; }
  return CXChildVisit_Continue;
}

/* The function a call names (a null cursor for a call through a pointer), and whether it is
   declared const or pure (glibc's __ctype_b_loc under isdigit): GCC ends no block after such
   calls, and they stop nothing. */
static CXCursor callee_of(CXCursor c, bool *constant) {
  CXCursor d = clang_getCursorReferenced(c);
  *constant = false;
  if (clang_Cursor_isNull(d) || kind(d) != CXCursor_FunctionDecl) return clang_getNullCursor();
  clang_visitChildren(d, find_const, constant);
  return d;
}

/* Compiler builtins that end the activation (__builtin_longjmp leaves it for its setjmp's,
   the others end the program): calls to stop in, unlike the other intrinsics. */
static bool ending_builtin(const char *n) {
  static const char *names[] = { "__builtin_longjmp", "__builtin_abort", "__builtin_exit", "__builtin__exit",
                                 "__builtin__Exit", "__builtin_trap", 0 };
  for (int i = 0; names[i]; i++)
    if (!strcmp(n, names[i])) return true;
  return false;
}

/* Records (or moves to the current block) the call c at nesting depth d; cond: it may not run
   when its block does. */
static void note_call(Builder *b, CXCursor c, int d, bool cond) {
  unsigned off = start_of(c), end = end_of(c);
  for (size_t i = 0; i < b->f->calls.n; i++)
    if (b->f->calls.v[i].off == off && b->f->calls.v[i].end == end) {
      b->f->calls.v[i].block = b->cur;
      b->f->calls.v[i].cond = cond;
      return;
    }
  bool constant;
  CXCursor fn = callee_of(c, &constant);
  CXString n = clang_getCursorSpelling(fn);
  const char *name = clang_Cursor_isNull(fn) ? NULL : clang_getCString(n);
  bool sj = name && setjmp_name(name);
  bool builtin = name && !strncmp(name, "__builtin_", 10) && !sj && !ending_builtin(name);
  PPCall call = { off, end, b->cur, 0, 0, d, sj, sj && !strcmp(name, "__builtin_setjmp"),
                  name && (nothrow_builtin(name) || exec_name(name)), name && nothrow_builtin(name),
                  name ? pp_xstrdup(name) : NULL, cond, false, -1 };
  clang_disposeString(n);
  if (builtin || constant) { free(call.callee); return; }  /* compiler intrinsics: nothing to stop in */
  call.line = presumed(b, clang_getRangeEnd(clang_getCursorExtent(c)), &call.file);
  VEC_PUSH(b->f->calls, call);
}

/* Whether c's operand i runs only sometimes when c runs: the right of && and ||, the arms of
   ?:, and (unknown to libclang's C API, so taken as such) every later operand of a node it does
   not expose, as GNU's a ?: b, and anything in a statement expression. */
static bool sometimes(Builder *b, CXCursor c, const Kids *kk, size_t i) {
  switch (kind(c)) {
  case CXCursor_BinaryOperator: {
    if (i == 0 || kk->n != 2) return false;
    unsigned o = cfg_skip_ws(b->src, end_of(kk->v[0]));
    const char *t = b->src->text + o;
    return o + 2 <= b->src->len && (t[0] == '&' || t[0] == '|') && t[1] == t[0];
  }
  case CXCursor_ConditionalOperator: return i > 0;
  case CXCursor_UnexposedExpr: return i > 0;
  case CXCursor_StmtExpr: return true;
  default: return false;
  }
}

/* The children of c that run: a declaration's before its name are in its type (typeof(e),
   _Alignas(e)), a cast's or compound literal's before its operand in its type; none of them
   is evaluated. */
static Kids run_kids(CXCursor c) {
  Kids k = kids(c);
  enum CXCursorKind ck = kind(c);
  if ((ck != CXCursor_VarDecl && ck != CXCursor_CStyleCastExpr && ck != CXCursor_CompoundLiteralExpr) || !k.n) return k;
  unsigned from = ck == CXCursor_VarDecl ? offset_of(clang_getCursorLocation(c)) : start_of(k.v[k.n - 1]);
  size_t n = 0;
  for (size_t i = 0; i < k.n; i++)
    if (from == BAD || start_of(k.v[i]) == BAD || start_of(k.v[i]) >= from) k.v[n++] = k.v[i];
  k.n = n;
  return k;
}

/* The calls evaluated under c, at nesting depth d; sizeof, _Alignof and _Generic evaluate
   nothing, and static locals are initialized before the program runs. */
static void calls_under(Builder *b, CXCursor c, int d, bool cond) {
  enum CXCursorKind k = kind(c);
  if (k == CXCursor_UnaryExpr || k == CXCursor_GenericSelectionExpr || !runs_here(c) ||
      k == CXCursor_FunctionDecl || clang_isAttribute(k) || (clang_isDeclaration(k) && k != CXCursor_VarDecl))
    return;
  if (k == CXCursor_CallExpr) note_call(b, c, d++, cond);
  Kids kk = run_kids(c);
  for (size_t i = 0; i < kk.n; i++) calls_under(b, kk.v[i], d, cond || sometimes(b, c, &kk, i));
  VEC_FREE(kk);
}

void cfg_note_calls(Builder *b, CXCursor c) { calls_under(b, c, 0, false); }

static int by_offset(const void *x, const void *y) {
  const PPCall *a = x, *c = y;
  if (a->off != c->off) return a->off < c->off ? -1 : 1;
  return a->depth - c->depth;
}

void cfg_sort_calls(Builder *b) { pp_sort(b->f->calls.v, b->f->calls.n, sizeof(PPCall), by_offset); }

void cfg_add_lines(Builder *b, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  int file;
  unsigned first = presumed(b, clang_getRangeStart(r), &file);
  unsigned last = presumed(b, clang_getRangeEnd(r), NULL);
  pp_block_add_lines(b->g, b->cur, file, first, last);
  cfg_set_pos(b, b->cur, c, false);
  PPStmt st = { file, first, last < first ? first : last, inert(c), false };
  VEC_PUSH(b->g->blocks.v[b->cur].stmts, st);
  cfg_note_facts(b, c);
  cfg_note_calls(b, c);
}

/* Lines first..last of file, a statement's part, in the current block. */
static void own_lines(Builder *b, int file, unsigned first, unsigned last) {
  if (first > last) return;
  pp_block_add_lines(b->g, b->cur, file, first, last);
  PPStmt st = { file, first, last, false, false };
  VEC_PUSH(b->g->blocks.v[b->cur].stmts, st);
}

void cfg_flow_lines(Builder *b, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  int file;
  unsigned o = start_of(c), z = end_of(c), from = presumed(b, clang_getRangeStart(r), &file);
  unsigned last = presumed(b, clang_getRangeEnd(r), NULL), past = 0;
  for (size_t i = 0; i < b->flows.n; i++) {  /* in text order: the outermost ones inside c */
    const Flow *f = &b->flows.v[i];
    if (f->off < o || f->end > z || f->off < past) continue;
    own_lines(b, file, from, f->line);
    from = f->end_line + 1;  /* its closing "})" line runs nothing */
    past = f->end;
  }
  own_lines(b, file, from, last);
  cfg_set_pos(b, b->cur, c, false);
}

/* ---- decisions inside expressions (--decisions=conditions) ---- */

typedef enum { OP_OTHER, OP_AND, OP_OR, OP_COMMA, OP_NOT, OP_COND, OP_OPAQUE, OP_PAREN, OP_SE, OP_DECLS } Op;

int cfg_flow_of(Builder *b, CXCursor se) {
  unsigned o = start_of(se), z = end_of(se);
  for (size_t i = 0; i < b->flows.n; i++)
    if (b->flows.v[i].off == o && b->flows.v[i].end == z) return (int)i;
  return -1;
}

bool cfg_has_flow(Builder *b, CXCursor e, bool escaping) {
  if (!b->flows.n) return false;
  unsigned o = start_of(e), z = end_of(e);
  for (size_t i = 0; i < b->flows.n; i++)
    if (b->flows.v[i].off >= o && b->flows.v[i].end <= z && (!escaping || b->flows.v[i].escapes)) return true;
  return false;
}

/* Of the children of e, only those evaluated where e is: a variable's initializer (not the
   expressions of a typeof in its type or a cast's), a cast's operand, a compound literal's list. */
static void evaluated_only(CXCursor e, Kids *k) {
  enum CXCursorKind ke = kind(e);
  if (ke == CXCursor_VarDecl) {
    CXCursor init = clang_Cursor_getVarDeclInitializer(e);
    k->n = 0;
    if (!clang_Cursor_isNull(init)) VEC_PUSH(*k, init);
  } else if ((ke == CXCursor_CStyleCastExpr || ke == CXCursor_CompoundLiteralExpr) && k->n > 1) {
    k->v[0] = k->v[k->n - 1];
    k->n = 1;
  }
}

/* Does c lie on more than one source line (as the line markers tell)? A macro's expansion lies
   on its invocation's line. */
static bool spans_lines(Builder *b, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  return presumed(b, clang_getRangeStart(r), NULL) != presumed(b, clang_getRangeEnd(r), NULL);
}

/* Is the &&, || or ?: e a decision of its own? Always with --decisions=conditions; in the default
   mode when it spans lines, so that each line of it counts what ran there (an operand on a line
   of its own runs only when the ones before let it), as gcov's and clang's line counts do; and
   when it holds a statement expression with control flow, which runs only when its operand does. */
static bool splits(Builder *b, CXCursor e) { return b->conditions || spans_lines(b, e) || cfg_has_flow(b, e, false); }

/* What an expression node is, as far as control flow goes; libclang 14 has no operator
   query, so binary operators are told apart by the text after their left operand. */
static Op op_of(Builder *b, CXCursor e, Kids *k) {
  *k = run_kids(e);
  switch (kind(e)) {
  case CXCursor_BinaryOperator: {
    if (k->n != 2) return OP_OPAQUE;
    unsigned o = cfg_skip_ws(b->src, end_of(k->v[0]));
    const char *t = b->src->text + o;
    if (o + 2 <= b->src->len && t[0] == '&' && t[1] == '&') return splits(b, e) ? OP_AND : OP_OPAQUE;
    if (o + 2 <= b->src->len && t[0] == '|' && t[1] == '|') return splits(b, e) ? OP_OR : OP_OPAQUE;
    if (o < b->src->len && t[0] == ',') return OP_COMMA;
    return OP_OTHER;
  }
  case CXCursor_UnaryOperator:
    return k->n == 1 && b->src->text[start_of(e)] == '!' ? OP_NOT : OP_OTHER;
  case CXCursor_ConditionalOperator:
    return k->n == 3 && splits(b, e) ? OP_COND : OP_OPAQUE;
  case CXCursor_ParenExpr:
    return k->n == 1 ? OP_PAREN : OP_OPAQUE;
  case CXCursor_UnexposedExpr:  /* implicit conversions; clang's recovery node for what it could not type
                                   (clangerr.c) runs its operands as a call does; anything else stays whole */
    if (k->n == 1 && start_of(k->v[0]) == start_of(e) && end_of(k->v[0]) == end_of(e)) return OP_PAREN;
    return clang_getCursorType(e).kind == CXType_Dependent ? OP_OTHER : OP_OPAQUE;
  case CXCursor_StmtExpr:  /* with control flow: built in place; else one step */
    return cfg_flow_of(b, e) >= 0 ? OP_SE : OP_OPAQUE;
  case CXCursor_UnaryExpr: case CXCursor_GenericSelectionExpr:
    return OP_OPAQUE;           /* sizeof and friends are not evaluated; the rest stays whole */
  case CXCursor_DeclStmt:       /* its declarators run in order */
    return cfg_has_flow(b, e, false) ? OP_DECLS : OP_OTHER;
  default:
    evaluated_only(e, k);
    return clang_isExpression(kind(e)) || kind(e) == CXCursor_VarDecl || kind(e) == CXCursor_InitListExpr ? OP_OTHER
                                                                                                          : OP_OPAQUE;
  }
}

/* Static and extern locals are initialized before the program runs, not here. */
static bool runs_here(CXCursor e) {
  enum CX_StorageClass sc = kind(e) == CXCursor_VarDecl ? clang_Cursor_getStorageClass(e) : CX_SC_None;
  return sc == CX_SC_None || sc == CX_SC_Auto || sc == CX_SC_Register;
}

/* What value expression e is, as far as control flow goes: a &&, || or ?: that the compiler can
   fold to a constant stays whole, for it may stand where C wants a constant (an array's size,
   which would become variable; a null pointer constant) and no branch of it runs. */
static Op value_op(Builder *b, CXCursor e, Kids *k) {
  if (!runs_here(e)) { *k = (Kids){0}; return OP_OPAQUE; }
  Op op = op_of(b, e, k);
  if (op != OP_AND && op != OP_OR && op != OP_COND) return op;
  CXEvalResult r = clang_Cursor_Evaluate(e);
  if (r) clang_EvalResult_dispose(r);
  return r ? OP_OPAQUE : op;
}

bool cfg_has_decisions(Builder *b, CXCursor e) {
  if (cfg_has_flow(b, e, false) && runs_here(e)) return true;
  if (!b->conditions && !spans_lines(b, e)) return false;  /* the common case, without a walk */
  Kids k;
  Op op = value_op(b, e, &k);
  bool found = op == OP_AND || op == OP_OR || op == OP_COND;
  for (size_t i = 0; !found && op != OP_OPAQUE && i < k.n; i++) found = cfg_has_decisions(b, k.v[i]);
  VEC_FREE(k);
  return found;
}


/* Two outcome edges to one block would be one block sequence twice; a step block on the
   false side keeps every path's blocks distinct (the oracle and the reports see blocks).
   Returns the block the false edge enters. */
static int two_way(Builder *b, int site, int t, int f) {
  cfg_add_edge(b, t, EK_NORMAL, site, ARM_TRUE);
  if (t == f) {
    int step = cfg_new_inner(b);
    cfg_add_edge(b, step, EK_NORMAL, site, ARM_FALSE);
    int cur = b->cur;
    b->cur = step;
    cfg_add_edge(b, f, EK_NORMAL, -1, -1);
    b->cur = cur;
    return step;
  }
  cfg_add_edge(b, f, EK_NORMAL, site, ARM_FALSE);
  return f;
}

/* ---- the decision structure (tables "decisions", for MC/DC) ----
   A condition's outcomes lead to the decision's outcome (PP_DEC_TRUE, PP_DEC_FALSE) or to the
   first condition of a subexpression not walked yet: a label, bound when that condition is made. */

static int new_label(Builder *b) {
  VEC_PUSH(b->dec.label, -1);
  return (int)b->dec.label.n - 1;
}

/* The next condition recorded is the first of the subexpression label l stands for. */
static void bind_next(Builder *b, int l) {
  if (b->dec.on) VEC_PUSH(b->dec.pending, l);
}

/* Starts recording a decision on e; the one being recorded (a decision inside a condition's
   operand, such as f(a && b) && c) is saved in *saved and comes back with end_decision. */
static void begin_decision(Builder *b, CXCursor e, DecState *saved) {
  *saved = b->dec;
  memset(&b->dec, 0, sizeof b->dec);
  b->dec.on = b->conditions;
  e = bare(e);  /* (a && b) starts at a, as clang and GCC place it */
  b->dec.line = presumed(b, clang_getRangeStart(clang_getCursorExtent(e)), &b->dec.file);
  CXString fn;
  clang_getPresumedLocation(clang_getRangeStart(clang_getCursorExtent(e)), &fn, NULL, &b->dec.col);
  clang_disposeString(fn);
}

/* Turns the labels into condition indices and adds the decision to the graph (after any
   decision nested in its operands, which ended first). */
static void end_decision(Builder *b, DecState *saved) {
  DecState *d = &b->dec;
  int base = (int)b->g->conds.n;
  for (size_t i = 0; i < d->conds.n; i++) {
    PPCond c = d->conds.v[i];
    if (c.next_t >= 0) c.next_t = d->label.v[c.next_t];
    if (c.next_f >= 0) c.next_f = d->label.v[c.next_f];
    VEC_PUSH(b->g->conds, c);
  }
  if (d->on && d->conds.n) {
    PPDecision dec = { base, (int)d->conds.n, d->file, d->line, d->col };
    VEC_PUSH(b->g->decisions, dec);
  }
  VEC_FREE(d->conds);
  VEC_FREE(d->label);
  VEC_FREE(d->pending);
  *d = *saved;
}

/* Records a condition e of the current decision: its block and edges, its symbolic outcomes. */
static void record_cond(Builder *b, CXCursor e, int t, int f, int st, int sf) {
  DecState *d = &b->dec;
  if (!d->on) return;
  PPCond c = { b->cur, t, f, st, sf, 0, 0, "" };
  int index = (int)d->conds.n;
  for (size_t i = 0; i < d->pending.n; i++) d->label.v[d->pending.v[i]] = index;
  d->pending.n = 0;
  CXString fn;
  clang_getPresumedLocation(clang_getRangeStart(clang_getCursorExtent(e)), &fn, &c.line, &c.col);
  clang_disposeString(fn);
  unsigned a = start_of(e), z = end_of(e), o = 0;
  for (unsigned i = a; i < z && o + 4 < sizeof c.text; i++)  /* blanks folded: one line of text */
    if (!isspace((unsigned char)b->src->text[i]) || (o && c.text[o - 1] != ' ')) c.text[o++] = isspace((unsigned char)b->src->text[i]) ? ' ' : b->src->text[i];
  if (o + 4 >= sizeof c.text && z > a + o) { memcpy(c.text + o, "...", 3); o += 3; }
  c.text[o] = 0;
  VEC_PUSH(d->conds, c);
}

static void cond_sym(Builder *b, CXCursor e, int t, int f, int st, int sf);

/* Is e, inside any parentheses, a && or || that is a decision (a value of type int)? */
static bool logical(Builder *b, CXCursor e) {
  Kids k;
  Op op = value_op(b, e, &k);
  bool yes = op == OP_AND || op == OP_OR || (op == OP_PAREN && logical(b, k.v[0]));
  VEC_FREE(k);
  return yes;
}

/* Walks an expression in evaluation order, turning &&, || and ?: into blocks and edges.
   Operands of other operators are unsequenced, so when more than one holds decisions the
   compiler may run them in any order and the node stays whole, unless the rewrite puts them in
   order (PPSeq: two operands, the first a && or ||). A && or || here is a value
   (x = a && b): a decision of its own, as GCC and clang count it; so is a ?:'s condition. */
void cfg_expr_flow(Builder *b, CXCursor e) {
  Kids k;
  cfg_note_calls(b, e);  /* the arms of ?: run in blocks of their own */
  Op op = value_op(b, e, &k);
  if (op == OP_AND || op == OP_OR) {
    int mid = cfg_new_inner(b), join = cfg_new_inner(b);
    DecState saved;
    begin_decision(b, e, &saved);
    int l = new_label(b);
    cond_sym(b, k.v[0], op == OP_AND ? mid : join, op == OP_AND ? join : mid,
             op == OP_AND ? l : PP_DEC_TRUE, op == OP_AND ? PP_DEC_FALSE : l);
    bind_next(b, l);
    b->cur = mid;
    cond_sym(b, k.v[1], join, join, PP_DEC_TRUE, PP_DEC_FALSE);
    end_decision(b, &saved);
    b->cur = join;
  } else if (op == OP_COND) {
    int x = cfg_new_inner(b), y = cfg_new_inner(b), join = cfg_new_inner(b);
    cfg_cond_flow(b, k.v[0], x, y);
    b->cur = x;
    cfg_add_lines(b, k.v[1]);  /* each arm's lines count its own runs */
    cfg_expr_flow(b, k.v[1]);
    cfg_add_edge(b, join, EK_NORMAL, -1, -1);
    b->cur = y;
    cfg_add_lines(b, k.v[2]);
    cfg_expr_flow(b, k.v[2]);
    cfg_add_edge(b, join, EK_NORMAL, -1, -1);
    b->cur = join;
  } else if (op == OP_COMMA) {
    cfg_expr_flow(b, k.v[0]);
    cfg_expr_flow(b, k.v[1]);
  } else if (op == OP_SE) {
    cfg_stmt_expr(b, e);
  } else if (op == OP_DECLS) {
    for (size_t i = 0; i < k.n; i++)
      if (cfg_has_decisions(b, k.v[i])) cfg_expr_flow(b, k.v[i]);
  } else if (op != OP_OPAQUE) {
    /* unsequenced operands: one statement expression with control flow is built in place (one
       that jumps out of itself first), the others stay whole; else the one with decisions */
    int with = -1, count = 0, flow = -1;
    for (size_t i = 0; i < k.n; i++) {
      if (cfg_has_decisions(b, k.v[i])) { with = (int)i; count++; }
      if (cfg_has_flow(b, k.v[i], false) && (flow < 0 || (!cfg_has_flow(b, k.v[flow], true) && cfg_has_flow(b, k.v[i], true))))
        flow = (int)i;
    }
    if (flow >= 0) {
      cfg_expr_flow(b, k.v[flow]);
    } else if (count == 1) {
      cfg_expr_flow(b, k.v[with]);
    } else if (count == 2 && k.n == 2 && kind(e) == CXCursor_BinaryOperator && logical(b, k.v[0])) {
      PPSeq s = { start_of(k.v[0]), end_of(k.v[0]), end_of(e) };  /* rewritten (t = (A), t OP B) */
      VEC_PUSH(b->f->seqs, s);
      cfg_expr_flow(b, k.v[0]);
      cfg_expr_flow(b, k.v[1]);
    }
  }
  VEC_FREE(k);
}

/* What runs of condition e after the decisions inside it were split off ((a ||\n b) == x: the
   comparison) runs on the line of a binary operator's right operand, else on e's first line. */
static void rest_lines(Builder *b, CXCursor e) {
  Kids k = kids(e);
  CXCursor at = kind(e) == CXCursor_BinaryOperator && k.n == 2 ? k.v[1] : e;
  int file;
  unsigned line = presumed(b, clang_getRangeStart(clang_getCursorExtent(at)), &file);
  VEC_FREE(k);
  pp_block_add_lines(b->g, b->cur, file, line, line);
  PPStmt st = { file, line, line, false, false };
  VEC_PUSH(b->g->blocks.v[b->cur].stmts, st);
  cfg_note_facts(b, e);
}

/* A decision on expression e: ends the current block with edges to t (true) and f; st, sf:
   where its outcomes lead within the decision being recorded. */
static void cond_leaf(Builder *b, CXCursor e, int t, int f, int st, int sf) {
  int before = b->cur;
  if (cfg_has_decisions(b, e)) cfg_expr_flow(b, e);
  int s = cfg_add_site(b, SK_COND, start_of(e), end_of(e), SIDE_OPEN);
  cfg_set_head(b, s);
  if (b->cur == before) cfg_add_lines(b, e);
  else rest_lines(b, e);
  cfg_set_pos(b, b->cur, e, true);
  CXEvalResult r = clang_Cursor_Evaluate(bare(e));  /* a constant condition: the compiler folds it */
  if (r) {
    PPBlock *bl = &b->g->blocks.v[b->cur];
    bl->stmts.v[bl->stmts.n - 1].nocode = clang_EvalResult_getKind(r) == CXEval_Int;
    clang_EvalResult_dispose(r);
  }
  note_decision(b, e);
  record_cond(b, e, t, two_way(b, s, t, f), st, sf);
}

/* A condition e in evaluation order, with its symbolic outcomes (see record_cond). */
static void cond_sym(Builder *b, CXCursor e, int t, int f, int st, int sf) {
  Kids k;
  Op op = b->conditions || cfg_has_decisions(b, e) ? op_of(b, e, &k) : (k = (Kids){0}, OP_OPAQUE);
  switch (op) {
  case OP_AND: case OP_OR: {
    int mid = cfg_new_inner(b), l = b->dec.on ? new_label(b) : 0;
    cond_sym(b, k.v[0], op == OP_AND ? mid : t, op == OP_AND ? f : mid, op == OP_AND ? l : st, op == OP_AND ? sf : l);
    bind_next(b, l);
    b->cur = mid;
    cond_sym(b, k.v[1], t, f, st, sf);
    break;
  }
  case OP_COND: {
    int x = cfg_new_inner(b), y = cfg_new_inner(b);
    int lx = b->dec.on ? new_label(b) : 0, ly = b->dec.on ? new_label(b) : 0;
    cond_sym(b, k.v[0], x, y, lx, ly);
    bind_next(b, lx);
    b->cur = x;
    cond_sym(b, k.v[1], t, f, st, sf);
    bind_next(b, ly);
    b->cur = y;
    cond_sym(b, k.v[2], t, f, st, sf);
    break;
  }
  case OP_NOT: cond_sym(b, k.v[0], f, t, sf, st); break;
  case OP_PAREN: cond_sym(b, k.v[0], t, f, st, sf); break;
  case OP_COMMA: cfg_expr_flow(b, k.v[0]); cond_sym(b, k.v[1], t, f, st, sf); break;
  default: cond_leaf(b, e, t, f, st, sf); break;
  }
  VEC_FREE(k);
}

/* A condition of a statement (if, loops) or of a ?: is a decision of its own. */
void cfg_cond_flow(Builder *b, CXCursor e, int t, int f) {
  DecState saved;
  begin_decision(b, e, &saved);
  cond_sym(b, e, t, f, PP_DEC_TRUE, PP_DEC_FALSE);
  end_decision(b, &saved);
}
