/* AST -> CFG: one graph per function body, every edge tied to a site where its code can go; the
   statements (cfgexpr.c does expressions, cfgsrc.c the source text). */
#include "cfgint.h"
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>

static void stmt(Builder *b, CXCursor c);

/* ---- blocks, sites and edges ---- */

static void fail(Builder *b, const char *why) { if (!b->why) b->why = why; }

static int new_block(Builder *b) { return pp_graph_add_block(b->g); }

int cfg_add_site(Builder *b, PPSiteKind k, unsigned off, unsigned end, int side) {
  PPSite s = { k, off, end, side, b->depth, b->seq++, -1, false };
  if (off == BAD || end == BAD) fail(b, "could not locate a statement boundary in the source");
  VEC_PUSH(b->f->sites, s);
  return (int)b->f->sites.n - 1;
}

static int stmt_site(Builder *b, unsigned off, int side) { return cfg_add_site(b, SK_STMT, off, off, side); }

/* The first item of a block decides where its entry can be observed (the trace). */
void cfg_set_head(Builder *b, int site) {
  PPBlock *bl = &b->g->blocks.v[b->cur];
  if (bl->head < 0 && !bl->headless) bl->head = site;
}

/* A block inside an expression (between decisions): it has no statement position, so its
   entry is observed on the edges into it and its exit edges carry their code on arms. */
int cfg_new_inner(Builder *b) {
  int id = new_block(b);
  b->g->blocks.v[id].headless = true;
  return id;
}

/* An edge whose code goes at site (arm); site -1: it has no place of its own and its code
   rides on the edges into its source, which has no other way out. */
int cfg_add_edge(Builder *b, int dst, PPEdgeKind k, int site, int arm) {
  int e = pp_graph_add_edge(b->g, b->cur, dst, k);
  b->g->edges.v[e].site = site;
  b->g->edges.v[e].arm = arm;
  b->g->edges.v[e].no_site = site < 0;
  return e;
}

/* Ends the current block with its single edge to dst; the edge's code goes at site. */
static int leave_to(Builder *b, int site, int arm, int dst, PPEdgeKind k) {
  cfg_set_head(b, site);
  b->g->blocks.v[b->cur].tail = site;
  return cfg_add_edge(b, dst, k, site, arm);
}

static bool noreturn_call(Builder *b, CXCursor c);
static bool is_label(CXCursor c);
static void value_block(Builder *b, CXCursor c);
static void case_in_group(Builder *b, CXCursor c, Kids k, unsigned colon, int e);

/* Code placed before one of a compound's leading declarations (a block's entry hooks, the
   function's entry) would mix declarations and code (-Wdeclaration-after-statement, an error
   in C90 with -pedantic-errors): braces from the declaration to the end of the compound keep
   the code before a block of its own. They nest inside the code at the declaration's start. */
static void brace_from(Builder *b, unsigned at) {
  if (b->lead_end == BAD) return;
  PPBrace br = { at, b->lead_end, b->depth + 1 };
  VEC_PUSH(b->f->braces, br);
}

/* The statements k[from..] of a compound whose closing brace is at close, each knowing whether
   it is one of the compound's leading declarations. */
static void stmt_list(Builder *b, const Kids *k, size_t from, unsigned close) {
  unsigned outer = b->lead_end;
  bool lead = true;
  for (size_t i = 0; i < from && lead; i++) lead = kind(k->v[i]) == CXCursor_DeclStmt;
  for (size_t i = from; i < k->n; i++) {
    lead = lead && kind(k->v[i]) == CXCursor_DeclStmt;
    b->lead_end = lead ? close : BAD;
    stmt(b, k->v[i]);
  }
  b->lead_end = outer;
}

/* Where a statement starts: a declaration's extent begins after the __extension__ keywords
   that precede it (GNU headers and macros put them there), and code must not go between. */
static unsigned stmt_start(Builder *b, CXCursor c) {
  static const char kw[] = "__extension__";
  const size_t n = sizeof kw - 1;
  unsigned off = start_of(c);
  if (kind(c) != CXCursor_DeclStmt || off == BAD) return off;
  for (;;) {
    unsigned p = off;
    while (p > 0 && isspace((unsigned char)b->src->text[p - 1])) p--;
    if (p < n || memcmp(b->src->text + p - n, kw, n) ||
        (p > n && (isalnum((unsigned char)b->src->text[p - n - 1]) || b->src->text[p - n - 1] == '_')))
      return off;
    off = p - (unsigned)n;
  }
}

/* A statement that stays inside the current block (its decisions aside); a call that never
   returns ends the block with an edge to the exit, counted just before the statement. */
static void item(Builder *b, CXCursor c) {
  int start = b->cur, s = -1;
  bool ends = clang_isExpression(kind(c)) && noreturn_call(b, c);
  const PPBlock *bl = &b->g->blocks.v[b->cur];
  if ((bl->head < 0 && !bl->headless) || ends) {
    unsigned at = stmt_start(b, c);
    cfg_set_head(b, s = stmt_site(b, at, SIDE_OPEN));
    if (kind(c) == CXCursor_DeclStmt) brace_from(b, at);
  }
  bool flow = cfg_has_flow(b, c, false);
  if (flow) {  /* its lines once walked, in the block it ends in */
    cfg_note_facts(b, c);
    cfg_note_calls(b, c);
  } else cfg_add_lines(b, c);
  if (!flow && !b->value && clang_isExpression(kind(c)) && cfg_no_code(b, c)) {  /* (void)x, an assert under NDEBUG */
    PPBlock *bl = &b->g->blocks.v[b->cur];
    bl->stmts.v[bl->stmts.n - 1].nocode = true;
  }
  if (cfg_has_decisions(b, c)) cfg_expr_flow(b, c);
  if (flow) cfg_flow_lines(b, c);
  if (!ends) return;
  int e = b->cur == start ? leave_to(b, s, -1, PP_EXIT, EK_EXIT) : cfg_add_edge(b, PP_EXIT, EK_EXIT, -1, -1);
  b->g->edges.v[e].exit = PP_EXIT_NORETURN;
  b->cur = new_block(b);
}

/* A condition ends the current block with a true and a false edge. */
static void cond_edges(Builder *b, CXCursor cond, int t, int f) {
  cfg_cond_flow(b, cond, t, f);
}

/* break, continue, goto, return: the jump's code goes just before the statement. */
static int jump(Builder *b, CXCursor c, int dst, PPEdgeKind k) {
  int s = stmt_site(b, start_of(c), SIDE_OPEN);
  cfg_set_head(b, s);
  cfg_add_lines(b, c);
  int e = leave_to(b, s, -1, dst, k);
  b->cur = new_block(b);  /* whatever follows is unreachable until a label */
  return e;
}

/* A sub-statement of if/loop/switch (parent) is a statement list of its own, braced when it
   is not a compound; returns the site at its end, where the edge that falls out of it puts its
   code. Braces would hide a misleading indentation from the compiler: such a body is noted. */
static int substmt(Builder *b, CXCursor c, CXCursor parent) {
  int s;
  b->depth++;
  if (kind(c) == CXCursor_CompoundStmt) {
    Kids k = kids(c);
    stmt_list(b, &k, 0, end_of(c) - 1);
    VEC_FREE(k);
    s = stmt_site(b, end_of(c) - 1, SIDE_CLOSE);
  } else {
    unsigned e = cfg_stmt_end(b, c);
    PPBrace br = { start_of(c), e, b->depth };
    if (e == BAD) fail(b, "could not find the end of a statement");
    VEC_PUSH(b->f->braces, br);
    b->f->indent_check |= cfg_misleading(b, start_of(parent), e, kind(parent) == CXCursor_DoStmt);
    stmt(b, c);
    s = stmt_site(b, e, SIDE_CLOSE);
  }
  b->depth--;
  return s;
}

/* ---- statements ---- */

static void if_stmt(Builder *b, CXCursor c, Kids k) {
  int tb = new_block(b), eb = k.n > 2 ? new_block(b) : -1, jb = new_block(b);
  cond_edges(b, k.v[0], tb, eb >= 0 ? eb : jb);
  b->cur = tb;
  leave_to(b, substmt(b, k.v[1], c), -1, jb, EK_NORMAL);
  if (eb >= 0) {
    b->cur = eb;
    leave_to(b, substmt(b, k.v[2], c), -1, jb, EK_NORMAL);
  }
  b->cur = jb;
}

static void loop_body(Builder *b, CXCursor loop, CXCursor body, int brk, int cont, int next) {
  VEC_PUSH(b->brk, brk);
  VEC_PUSH(b->cont, cont);
  leave_to(b, substmt(b, body, loop), -1, next, EK_NORMAL);
  b->brk.n--;
  b->cont.n--;
}

/* A loop's condition. Code in the condition of a loop under a pragma would cost the user the
   annotation (and a warning), so its edges prefer the spanning tree, where they carry none. */
static void loop_cond(Builder *b, CXCursor loop, CXCursor cond, int t, int f) {
  size_t first = b->g->edges.n;
  bool pragma;
  cond_edges(b, cond, t, f);
  pp_pragma_top(b->src->text, start_of(loop), &pragma);
  if (pragma)
    for (size_t i = first; i < b->g->edges.n; i++) b->g->edges.v[i].quiet = true;
}

static void while_stmt(Builder *b, CXCursor c, Kids k) {
  int h = new_block(b), body = new_block(b), x = new_block(b);
  leave_to(b, stmt_site(b, start_of(c), SIDE_OPEN), -1, h, EK_NORMAL);
  b->cur = h;
  loop_cond(b, c, k.v[0], body, x);
  b->cur = body;
  loop_body(b, c, k.v[1], x, h, h);
  b->cur = x;
}

static void do_stmt(Builder *b, CXCursor c, Kids k) {
  int body = new_block(b), cb = new_block(b), x = new_block(b);
  leave_to(b, stmt_site(b, start_of(c), SIDE_OPEN), -1, body, EK_NORMAL);
  b->cur = body;
  loop_body(b, c, k.v[0], x, cb, cb);
  b->cur = cb;
  loop_cond(b, c, k.v[1], body, x);
  b->cur = x;
}

/* Is there code before off on its line, not just labels and braces (what precedes the label a
   macro plants after its goto)? */
static bool code_before(Builder *b, unsigned off) {
  while (off > 0 && (b->src->text[off - 1] == ' ' || b->src->text[off - 1] == '\t')) off--;
  return off > 0 && !strchr("\n:{}", b->src->text[off - 1]);
}

/* for (init; cond; inc) body: init joins the current block; an empty condition or increment
   still gets a site in its empty slot, so every edge has a place for its code. */
static void for_stmt(Builder *b, CXCursor c, Kids k) {
  unsigned s1 = 0, s2 = 0, close = 0;
  if (cfg_for_header(b, start_of(c), &s1, &s2, &close)) { fail(b, "could not parse a for header"); return; }
  CXCursor init = clang_getNullCursor(), cond = init, inc = init, body = init;
  for (size_t i = 0; i < k.n; i++) {
    unsigned o = start_of(k.v[i]);
    if (o < s1) init = k.v[i];
    else if (o < s2) cond = k.v[i];
    else if (o < close) inc = k.v[i];
    else body = k.v[i];
  }
  if (clang_Cursor_isNull(body)) { fail(b, "for statement without a body"); return; }
  int pre = stmt_site(b, start_of(c), SIDE_OPEN), before = b->cur;
  cfg_set_head(b, pre);
  if (!clang_Cursor_isNull(init)) cfg_add_lines(b, init);
  if (!clang_Cursor_isNull(init) && cfg_has_decisions(b, init)) cfg_expr_flow(b, init);
  int h = new_block(b), bb = new_block(b), ib = new_block(b), x = new_block(b);
  if (b->cur == before) leave_to(b, pre, -1, h, EK_NORMAL);
  else cfg_add_edge(b, h, EK_NORMAL, -1, -1);  /* after the init's decisions: rides on their arms */
  b->cur = h;
  if (!clang_Cursor_isNull(cond)) loop_cond(b, c, cond, bb, x);
  else if (clang_Cursor_isNull(init) && clang_Cursor_isNull(inc) && cfg_at_line_start(b->src->text, start_of(c))) {
    /* for (;;) alone: the head's line counts the loop's rounds, as a condition's would */
    int file;
    unsigned line = presumed(b, clang_getRangeStart(clang_getCursorExtent(c)), &file);
    pp_block_add_lines(b->g, h, file, line, line);
    PPStmt st = { file, line, line, false, true };  /* GCC and gcov see no code there */
    VEC_PUSH(b->g->blocks.v[h].stmts, st);
    cfg_set_pos(b, h, c, true);
    leave_to(b, cfg_add_site(b, SK_FORCOND, s2, s2, SIDE_OPEN), ARM_POST, bb, EK_NORMAL);
  } else leave_to(b, cfg_add_site(b, SK_FORCOND, s2, s2, SIDE_OPEN), ARM_POST, bb, EK_NORMAL);
  b->cur = bb;
  loop_body(b, c, body, x, ib, ib);
  b->cur = ib;
  int is = clang_Cursor_isNull(inc) ? cfg_add_site(b, SK_FORINC, close, close, SIDE_OPEN)
                                    : cfg_add_site(b, SK_FORINC, start_of(inc), end_of(inc), SIDE_OPEN);
  cfg_set_head(b, is);
  if (!clang_Cursor_isNull(inc)) cfg_add_lines(b, inc);
  if (!clang_Cursor_isNull(inc) && cfg_has_decisions(b, inc)) cfg_expr_flow(b, inc);
  leave_to(b, is, ARM_POST, h, EK_NORMAL);
  b->cur = x;
}

/* The switch head gets one dispatch edge per case label (added as labels are met) and, when
   there is no default, one to the exit whose code goes into a synthesized default label. */
static void switch_stmt(Builder *b, CXCursor c, Kids k) {
  int es = cfg_add_site(b, SK_EXPR, start_of(k.v[0]), end_of(k.v[0]), SIDE_OPEN);
  cfg_set_head(b, es);
  cfg_add_lines(b, k.v[0]);
  if (cfg_has_decisions(b, k.v[0])) cfg_expr_flow(b, k.v[0]);
  int head = b->cur, x = new_block(b);
  cfg_set_pos(b, head, k.v[0], true);
  Switch sw = { head, false };
  VEC_PUSH(b->sw, sw);
  VEC_PUSH(b->brk, x);
  b->cur = new_block(b);  /* code before the first label is unreachable */
  int s = substmt(b, k.v[k.n - 1], c);
  int last = b->cur;
  leave_to(b, s, -1, x, EK_NORMAL);
  if (!b->sw.v[b->sw.n - 1].has_default) {
    PPSite *end = &b->f->sites.v[s];
    int ds = cfg_add_site(b, SK_DEFAULT, end->off, end->off, end->side);
    b->f->sites.v[ds].lvl = b->f->sites.v[s].lvl;
    b->f->sites.v[ds].block = last;
    b->cur = head;
    int e = cfg_add_edge(b, x, EK_NORMAL, ds, -1);
    b->g->edges.v[e].dispatch = true;
  }
  b->sw.n--;
  b->brk.n--;
  b->cur = x;
  (void)c;
}

/* A label text for reports: "case 3", "default", "retry". A case's expression (macros expanded)
   is cut after 40 characters, never inside an identifier; a user label is its whole name. */
static char *label_text(Builder *b, unsigned from, unsigned to) {
  PPStr s = {0};
  bool space = false;
  for (unsigned i = from; i < to; i++) {
    char ch = b->src->text[i];
    bool word = isalnum((unsigned char)ch) || ch == '_' || ch == '$';
    if (s.n >= 40 && !(word && i > from && (isalnum((unsigned char)b->src->text[i - 1]) || b->src->text[i - 1] == '_' ||
                                             b->src->text[i - 1] == '$'))) break;
    if (ch == ':' && i + 1 == to) break;
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') { space = s.n > 0; continue; }
    if (space) pp_str_add(&s, " ");
    space = false;
    pp_str_addn(&s, &ch, 1);
  }
  return pp_str_take(&s);
}

/* Case, default and ordinary labels start a block; the code for edges that arrive through
   the label itself (switch dispatch) goes right after the colon. */
static void label_stmt(Builder *b, CXCursor c, Kids k) {
  bool is_case = kind(c) != CXCursor_LabelStmt;
  unsigned colon;
  if (kind(c) == CXCursor_CaseStmt) colon = k.n >= 2 ? cfg_colon_after(b, end_of(k.v[k.n - 2])) : BAD;
  else if (kind(c) == CXCursor_DefaultStmt) colon = cfg_colon_after(b, start_of(c) + 7);
  else {
    CXString n = clang_getCursorSpelling(c);
    colon = cfg_colon_after(b, start_of(c) + (unsigned)strlen(clang_getCString(n)));
    clang_disposeString(n);
  }
  if (is_case && !b->sw.n) { fail(b, "case label outside a switch"); return; }
  if (colon == BAD || !k.n) { fail(b, "could not find the colon of a label"); return; }
  int group = b->group_edge;
  b->group_edge = -1;
  if (is_case && group >= 0) { case_in_group(b, c, k, colon, group); return; }
  int nb = new_block(b), fs;
  if (b->tail_block == b->cur && b->tail_off <= start_of(c)) {
    fs = cfg_add_site(b, SK_STMT, b->tail_off, b->tail_off, b->tail_side);
    b->f->sites.v[fs].lvl = b->tail_lvl;
  } else {  /* nothing of the user's runs in the block: an annotation after our code is safe */
    fs = stmt_site(b, start_of(c), SIDE_OPEN);
    b->f->sites.v[fs].fall_mark = is_case;
  }
  leave_to(b, fs, -1, nb, EK_NORMAL);
  b->cur = nb;
  int hs = stmt_site(b, colon, SIDE_OPEN);
  cfg_set_head(b, hs);
  b->g->blocks.v[nb].label = label_text(b, start_of(c), colon);
  int file;
  unsigned line = presumed(b, clang_getRangeStart(clang_getCursorExtent(c)), &file);
  /* A user label after code on its line (the return point a PCRE2-style RMATCH macro plants
     after its goto) gives the line no count of its own: the line counts its statement's runs,
     not the jumps back into its middle too. */
  if (is_case || !code_before(b, start_of(c))) pp_block_add_lines(b->g, nb, file, line, line);
  cfg_set_pos(b, nb, c, true);
  if (is_case) {
    Switch *sw = &b->sw.v[b->sw.n - 1];
    if (kind(c) == CXCursor_DefaultStmt) sw->has_default = true;
    b->cur = sw->head;
    int e = cfg_add_edge(b, nb, EK_NORMAL, hs, -1);
    b->g->edges.v[e].dispatch = true;
    b->cur = nb;
    b->group_edge = is_label(k.v[k.n - 1]) ? e : -1;
  } else {  /* goto and &&label name it by its spelling, of any length */
    CXString n = clang_getCursorSpelling(c);
    Label l = { pp_xstrdup(clang_getCString(n)), nb, hs, start_of(c) };
    clang_disposeString(n);
    VEC_PUSH(b->labels, l);
  }
  stmt(b, k.v[k.n - 1]);
}

/* Is c a case or default label? */
static bool is_label(CXCursor c) {
  return kind(c) == CXCursor_CaseStmt || kind(c) == CXCursor_DefaultStmt;
}

/* A case label right after another (case A: case B: ...) joins its group: same block, same
   dispatch edge, whose code (and the block's entry) moves after this colon, where every label
   of the group passes; its line counts nothing (gcov gives the first label's line the count).
   A counter per label would run once for each label below the one taken (and be taken back on
   each fall between them): GCC's CFG has one block and one edge there. */
static void case_in_group(Builder *b, CXCursor c, Kids k, unsigned colon, int e) {
  int hs = stmt_site(b, colon, SIDE_OPEN);
  assert(b->g->edges.v[e].dst == b->cur && b->g->edges.v[e].dispatch);
  b->g->edges.v[e].site = hs;
  b->g->blocks.v[b->cur].head = hs;
  if (kind(c) == CXCursor_DefaultStmt) b->sw.v[b->sw.n - 1].has_default = true;
  b->group_edge = is_label(k.v[k.n - 1]) ? e : -1;
  stmt(b, k.v[k.n - 1]);
}

/* A return whose value holds decisions ends its path after them: the exit edge gets no site
   of its own and its count rides on the arms that lead to it. */
static void return_stmt(Builder *b, CXCursor c, Kids k) {
  if (!k.n || !cfg_has_decisions(b, k.v[0])) {
    int e = jump(b, c, PP_EXIT, EK_EXIT);  /* adding the edge may move the array */
    b->g->edges.v[e].exit = PP_EXIT_RETURN;
    return;
  }
  int s = stmt_site(b, start_of(c), SIDE_OPEN), start = b->cur;
  cfg_set_head(b, s);
  cfg_add_lines(b, c);
  cfg_expr_flow(b, k.v[0]);
  /* nothing split after all: the statement's own site; else the arms before it carry the code */
  int e = b->cur == start ? leave_to(b, s, -1, PP_EXIT, EK_EXIT) : cfg_add_edge(b, PP_EXIT, EK_EXIT, -1, -1);
  b->g->edges.v[e].exit = PP_EXIT_RETURN;
  b->cur = new_block(b);
}

/* goto *p: the path ends here (a cut edge) and the next one starts at a hub block with an
   edge to every label whose address is taken; the code of those edges sits after the label's
   colon, like a case label's. */
static void indirect_goto(Builder *b, CXCursor c) {
  if (b->hub < 0) b->hub = cfg_new_inner(b);
  jump(b, c, b->hub, EK_CUT);
}

/* Does the declaration's text say noreturn (attribute or _Noreturn)? */
static bool says_noreturn(Builder *b, CXCursor fn) {
  unsigned a = start_of(fn), e = end_of(fn);
  if (e <= a || e > b->src->len) return false;
  for (unsigned i = a; i + 8 <= e; i++)
    if (!memcmp(b->src->text + i, "noreturn", 8) || !memcmp(b->src->text + i, "Noreturn", 8)) return true;
  return false;
}

/* A call to a function that never returns ends the path before it (exit, abort, longjmp...);
   the attribute may sit on an earlier declaration than the one the call refers to. */
static bool noreturn_call(Builder *b, CXCursor c) {
  static const char *names[] = { "exit", "_exit", "_Exit", "abort", "quick_exit", "longjmp", "siglongjmp",
    "_longjmp", "__builtin_longjmp", "__builtin_unreachable", "__builtin_trap", "__builtin_abort",
    "__builtin_exit", "__assert_fail", "pthread_exit", "thrd_exit", 0 };
  while (kind(c) == CXCursor_ParenExpr || kind(c) == CXCursor_UnexposedExpr || kind(c) == CXCursor_CStyleCastExpr) {
    Kids k = kids(c);
    CXCursor inner = k.n ? k.v[k.n - 1] : clang_getNullCursor();
    VEC_FREE(k);
    if (clang_Cursor_isNull(inner)) return false;
    c = inner;
  }
  if (kind(c) != CXCursor_CallExpr) return false;
  CXCursor fn = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(fn) || kind(fn) != CXCursor_FunctionDecl) return false;
  CXString n = clang_getCursorSpelling(fn);
  bool known = false;
  for (int i = 0; names[i] && !known; i++) known = !strcmp(names[i], clang_getCString(n));
  clang_disposeString(n);
  if (known) return true;
  return says_noreturn(b, fn) || says_noreturn(b, clang_getCanonicalCursor(fn));
}

static void goto_stmt(Builder *b, CXCursor c, Kids k) {
  if (!k.n) { fail(b, "goto without a label"); return; }
  CXString n = clang_getCursorSpelling(k.v[0]);
  CXCursor l = clang_getCursorReferenced(k.v[0]);  /* a local label (__label__) of a macro: its own */
  Goto g = { jump(b, c, PP_EXIT, EK_NORMAL), pp_xstrdup(clang_getCString(n)), clang_Cursor_isNull(l) ? BAD : start_of(l) };
  clang_disposeString(n);
  VEC_PUSH(b->gotos, g);
}

/* An attributed null statement: __attribute__((fallthrough)); [[fallthrough]]; and the like,
   also from macros. It runs nothing. */
static bool annotation(CXCursor c, const Kids *k) {
  return kind(c) == CXCursor_UnexposedStmt && k->n == 1 && kind(k->v[0]) == CXCursor_NullStmt;
}

/* Remembers where code for the fall out of the current block goes (Builder.tail_*). */
static void set_tail(Builder *b, unsigned off, int side) {
  b->tail_block = off == BAD ? -1 : b->cur;
  b->tail_off = off;
  b->tail_side = side;
  b->tail_lvl = b->depth;
}

/* After statement c: the fall out of the block goes after it, or before an annotation that
   is the block's first. Labels, compounds and null statements leave the place as it was. */
static void note_tail(Builder *b, CXCursor c, const Kids *k) {
  enum CXCursorKind kc = kind(c);
  if (annotation(c, k)) {
    if (b->tail_block != b->cur) set_tail(b, start_of(c), SIDE_OPEN);
  } else if (kc != CXCursor_CompoundStmt && kc != CXCursor_NullStmt && kc != CXCursor_CaseStmt &&
             kc != CXCursor_DefaultStmt && kc != CXCursor_LabelStmt)
    set_tail(b, cfg_stmt_end(b, c), SIDE_CLOSE);
}

/* Statement c starts in the block of calls made by earlier statements: they return before it,
   so a site at its start can count their returns (edge mode's splits, tables.h PPSplit). The
   calls of other blocks met since are in their blocks' last statements. */
static void split_before(Builder *b, CXCursor c) {
  int site = -1;
  /* statement expressions with control flow: the calls noted with their enclosing expression
     may end after c (or be in c), and those in them are noted before their statements are met */
  size_t from = b->flows.n ? 0 : b->unsplit;
  unsigned start = b->flows.n ? stmt_start(b, c) : 0;
  for (size_t i = from; b->splits && i < b->f->calls.n; i++) {
    PPCall *call = &b->f->calls.v[i];
    if (call->block != b->cur || (b->flows.n && (call->split >= 0 || call->end > start))) continue;
    if (site < 0) {
      unsigned at = stmt_start(b, c);
      site = stmt_site(b, at, SIDE_OPEN);
      if (kind(c) == CXCursor_DeclStmt) brace_from(b, at);
    }
    call->split = site;
  }
  b->unsplit = b->f->calls.n;
}

static void stmt(Builder *b, CXCursor c) {
  if (b->why) return;
  bool value = !clang_Cursor_isNull(b->se_last) && kind(c) == kind(b->se_last) && start_of(c) == start_of(b->se_last) &&
               end_of(c) == end_of(b->se_last);
  if (value) value_block(b, c);
  b->value = value;
  Kids k = kids(c);
  enum CXCursorKind ck = kind(c);
  if (ck != CXCursor_CompoundStmt && ck != CXCursor_NullStmt && ck != CXCursor_CaseStmt && ck != CXCursor_DefaultStmt &&
      ck != CXCursor_LabelStmt)
    split_before(b, c);
  switch (kind(c)) {
  case CXCursor_CompoundStmt:
    b->depth++;
    stmt_list(b, &k, 0, end_of(c) - 1);
    b->depth--;
    break;
  case CXCursor_IfStmt: if (k.n >= 2) if_stmt(b, c, k); else fail(b, "malformed if"); break;
  case CXCursor_WhileStmt: if (k.n == 2) while_stmt(b, c, k); else fail(b, "malformed while"); break;
  case CXCursor_DoStmt: if (k.n == 2) do_stmt(b, c, k); else fail(b, "malformed do"); break;
  case CXCursor_ForStmt: for_stmt(b, c, k); break;
  case CXCursor_SwitchStmt: if (k.n == 2) switch_stmt(b, c, k); else fail(b, "malformed switch"); break;
  case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_LabelStmt: label_stmt(b, c, k); break;
  case CXCursor_GotoStmt: goto_stmt(b, c, k); break;
  case CXCursor_BreakStmt:
    if (b->brk.n) jump(b, c, b->brk.v[b->brk.n - 1], EK_NORMAL); else fail(b, "break outside a loop");
    break;
  case CXCursor_ContinueStmt:
    if (b->cont.n) jump(b, c, b->cont.v[b->cont.n - 1], EK_NORMAL); else fail(b, "continue outside a loop");
    break;
  case CXCursor_ReturnStmt: return_stmt(b, c, k); break;
  case CXCursor_IndirectGotoStmt: indirect_goto(b, c); break;
  case CXCursor_NullStmt: break;  /* ';' runs nothing and has no line (as in gcov): 'for (...) {...};' */
  case CXCursor_UnexposedStmt:
    /* attributed statements: a loop under a pragma is still a loop; an annotation runs nothing;
       anything else with control flow inside is beyond this version, the rest is one step */
    if (annotation(c, &k)) break;
    if (k.n == 1 && clang_isStatement(kind(k.v[0])) && kind(k.v[0]) != CXCursor_NullStmt) stmt(b, k.v[0]);
    else if (cfg_has_jumps(c)) fail(b, "an unsupported statement with control flow inside");
    else item(b, c);
    break;
  default: item(b, c); break;
  }
  b->value = false;
  note_tail(b, c, &k);
  VEC_FREE(k);
}

/* ---- statement expressions ---- */

/* The statement whose value statement c (the last of a statement expression) gives, behind
   labels and braces; a null cursor when it is a branch, loop or jump (the value is void). */
static CXCursor value_stmt(CXCursor c) {
  for (;;) {
    enum CXCursorKind kc = kind(c);
    if (clang_isExpression(kc) || kc == CXCursor_DeclStmt || kc == CXCursor_NullStmt) return c;
    if (kc != CXCursor_LabelStmt && kc != CXCursor_CaseStmt && kc != CXCursor_DefaultStmt && kc != CXCursor_CompoundStmt)
      return clang_getNullCursor();
    Kids k = kids(c);
    CXCursor last = k.n ? k.v[k.n - 1] : clang_getNullCursor();
    VEC_FREE(k);
    if (clang_Cursor_isNull(last)) return last;
    c = last;
  }
}

/* The value's statement c starts a block of its own, headless: no code can follow the value,
   so the edges after it (into a ?: join, to the exit of a return...) ride on the edge into its
   block, whose code goes just before c, and the trace sees the blocks in order. */
static void value_block(Builder *b, CXCursor c) {
  b->se_last = clang_getNullCursor();
  if (b->g->blocks.v[b->cur].headless) return;
  int s = stmt_site(b, stmt_start(b, c), SIDE_OPEN), nb = cfg_new_inner(b);
  leave_to(b, s, -1, nb, EK_NORMAL);
  b->cur = nb;
  cfg_set_pos(b, nb, c, true);
}

/* Calls of the enclosing expression that end after statement expression se (f(({...})), the
   operands after it) run in the block it ends in, not in the one it began in (from). */
static void calls_after(Builder *b, int from, CXCursor se) {
  unsigned z = end_of(se);
  for (size_t i = 0; from != b->cur && i < b->f->calls.n; i++)
    if (b->f->calls.v[i].block == from && b->f->calls.v[i].end > z) b->f->calls.v[i].block = b->cur;
}

/* A statement expression with control flow (GNU C): ordinary statements of the function, built
   in place, whose break and continue may bind to the function's loops and whose gotos may leave
   it. Code for the block it begins in, when that has no place yet, goes before the whole
   expression ((code, ({ ... }))); no code goes after its value (see value_block), nor braces
   around its leading declarations (the value would become void): the block it begins in has
   its place already, so nothing is put before them. The block it ends in, when it has no place
   (after a loop, a branch, a jump), is observed on the edges into it. */
void cfg_stmt_expr(Builder *b, CXCursor se) {
  int i = cfg_flow_of(b, se), from = b->cur;
  Kids k = kids(se);
  if (i >= 0) b->flows.v[i].walked = true;
  if (k.n != 1 || kind(k.v[0]) != CXCursor_CompoundStmt) {
    fail(b, "a statement expression without its braces");
    VEC_FREE(k);
    return;
  }
  const PPBlock *bl = &b->g->blocks.v[b->cur];
  if (bl->head < 0 && !bl->headless) cfg_set_head(b, cfg_add_site(b, SK_EXPR, start_of(se), end_of(se), SIDE_OPEN));
  Kids s = kids(k.v[0]);
  CXCursor outer = b->se_last;
  unsigned lead = b->lead_end;
  b->se_last = s.n ? value_stmt(s.v[s.n - 1]) : clang_getNullCursor();
  b->depth++;
  for (size_t j = 0; j < s.n; j++) {
    b->lead_end = BAD;
    stmt(b, s.v[j]);
  }
  b->depth--;
  b->se_last = outer;
  b->lead_end = lead;
  PPBlock *end = &b->g->blocks.v[b->cur];
  if (end->head < 0) end->headless = true;
  calls_after(b, from, se);
  VEC_FREE(s);
  VEC_FREE(k);
}

/* ---- the function ---- */

/* naked functions may hold nothing but asm, and no_instrument_function is the user saying no. */
static const char *refused_by_attribute(const PPSource *src, Kids k) {
  for (size_t i = 0; i < k.n; i++) {
    if (!clang_isAttribute(kind(k.v[i]))) continue;
    unsigned a = start_of(k.v[i]), e = end_of(k.v[i]);
    if (e <= a || e > src->len) continue;
    char *name = pp_xasprintf("%.*s", (int)(e - a), src->text + a);
    const char *why = strstr(name, "naked") ? "a naked function" :
                      strstr(name, "no_instrument_function") ? "marked no_instrument_function" : NULL;
    free(name);
    if (why) return why;
  }
  return NULL;
}

/* The hub of goto *p leads to every label whose address is taken. */
static void resolve_hub(Builder *b) {
  if (b->hub < 0) return;
  if (!b->taken.n) { fail(b, "goto *p without any &&label"); return; }
  for (size_t i = 0; i < b->taken.n; i++) {
    size_t j = 0;
    while (j < b->labels.n && strcmp(b->labels.v[j].name, b->taken.v[i])) j++;
    if (j == b->labels.n) { fail(b, "&&label of an unknown label"); return; }
    bool dup = false;
    for (size_t k = 0; k < i; k++) dup |= !strcmp(b->taken.v[k], b->taken.v[i]);
    if (dup) continue;
    b->cur = b->hub;
    int e = cfg_add_edge(b, b->labels.v[j].block, EK_NORMAL, b->labels.v[j].head, -1);
    b->g->edges.v[e].dispatch = true;
  }
}

static int resolve_gotos(Builder *b) {
  for (size_t i = 0; i < b->gotos.n; i++) {
    int dst = -1;
    for (size_t j = 0; j < b->labels.n; j++)
      if (b->gotos.v[i].off == BAD ? !strcmp(b->labels.v[j].name, b->gotos.v[i].name) : b->labels.v[j].off == b->gotos.v[i].off)
        dst = b->labels.v[j].block;
    if (dst < 0) { fail(b, "goto to an unknown label"); return -1; }
    b->g->edges.v[b->gotos.v[i].edge].dst = dst;
  }
  return 0;
}

static void builder_free(Builder *b) {
  for (size_t i = 0; i < b->labels.n; i++) free(b->labels.v[i].name);
  for (size_t i = 0; i < b->gotos.n; i++) free(b->gotos.v[i].name);
  for (size_t i = 0; i < b->taken.n; i++) free(b->taken.v[i]);
  VEC_FREE(b->taken);
  VEC_FREE(b->flows);
  VEC_FREE(b->labels); VEC_FREE(b->gotos); VEC_FREE(b->brk); VEC_FREE(b->cont); VEC_FREE(b->sw);
}

/* Visitor for holds_call: stops at a call that runs (sizeof, _Alignof and _Generic run none). */
static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData found) {
  (void)parent;
  enum CXCursorKind k = kind(c);
  if (k == CXCursor_UnaryExpr || k == CXCursor_GenericSelectionExpr) return CXChildVisit_Continue;
  if (k != CXCursor_CallExpr) return CXChildVisit_Recurse;
  *(bool *)found = true;
  return CXChildVisit_Break;
}

/* Does initializer init of variable v take code before it, as a comma expression? Only one that
   holds a call: (count, init) is then no constant, so no null pointer constant (p = 0) turns into
   an int, no static's initializer stops being constant, and no string literal initializing an
   array decays to a pointer. An initializer without calls needs no count of its own: the returns
   counted there count as well at the next place, the next initializer with a call or the first
   statement. */
static bool holds_call(CXCursor v, CXCursor init) {
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(v);
  if (sc != CX_SC_None && sc != CX_SC_Auto && sc != CX_SC_Register) return false;
  bool found = kind(init) == CXCursor_CallExpr;
  if (!found) clang_visitChildren(init, find_call, &found);
  return found;
}

/* The initializers of a leading declaration, for edge mode's splits: code cannot go between
   leading declarations, but an initializer that is an expression (not a braced list) takes
   code before it (an SK_EXPR site): the returns of the calls made by the declarations before it
   count there, or, before the first call that may stop, the entries (PPFunc.entry_init). */
static void lead_inits(Builder *b, CXCursor decl) {
  Kids k = kids(decl);
  for (size_t i = 0; b->splits && i < k.n; i++) {
    CXCursor init = kind(k.v[i]) == CXCursor_VarDecl ? clang_Cursor_getVarDeclInitializer(k.v[i]) : clang_getNullCursor();
    if (clang_Cursor_isNull(init) || kind(init) == CXCursor_InitListExpr || !holds_call(k.v[i], init)) continue;
    unsigned off = start_of(init), end = end_of(init);
    if (off == BAD || end == BAD || off >= end) continue;
    int site = cfg_add_site(b, SK_EXPR, off, end, SIDE_OPEN);
    VEC_PUSH(b->f->inits, site);
    for (; b->unsplit < b->f->calls.n; b->unsplit++)  /* the earlier declarations' calls */
      b->f->calls.v[b->unsplit].split = site;
  }
  VEC_FREE(k);
}

/* Leading declarations belong to the entry block, so the code placed at the entry (unit
   registration) is a statement after them and C89 compilers stay quiet. */
static void body(Builder *b, CXCursor body) {
  Kids k = kids(body);
  size_t i = 0;
  b->cur = PP_ENTRY;
  for (; i < k.n && kind(k.v[i]) == CXCursor_DeclStmt && !cfg_has_decisions(b, k.v[i]); i++) {
    lead_inits(b, k.v[i]);
    cfg_add_lines(b, k.v[i]);
  }
  int es = i < k.n ? stmt_site(b, stmt_start(b, k.v[i]), SIDE_OPEN) : stmt_site(b, end_of(body) - 1, SIDE_CLOSE);
  int first = new_block(b);
  leave_to(b, es, -1, first, EK_NORMAL);
  b->cur = first;
  stmt_list(b, &k, i, end_of(body) - 1);
  int e = leave_to(b, stmt_site(b, end_of(body) - 1, SIDE_CLOSE), -1, PP_EXIT, EK_EXIT);
  b->g->edges.v[e].exit = PP_EXIT_FALL;
  VEC_FREE(k);
}

int pp_cfg_build(PPSource *src, CXCursor fn, bool conditions, bool splits, PPFunc *f, const char **why) {
  memset(f, 0, sizeof *f);
  f->entry_init = -1;
  pp_graph_init(&f->g);
  CXString n = clang_getCursorSpelling(fn);
  f->name = pp_xstrdup(clang_getCString(n));
  clang_disposeString(n);
  Builder b = { .src = src, .f = f, .g = &f->g, .depth = 1, .conditions = conditions, .lead_end = BAD, .tail_block = -1,
                .group_edge = -1, .splits = splits, .se_last = clang_getNullCursor() };
  CXSourceRange r = clang_getCursorExtent(fn);
  f->line = presumed(&b, clang_getRangeStart(r), &f->file);
  f->name_line = presumed(&b, clang_getCursorLocation(fn), NULL);
  f->end_line = presumed(&b, clang_getRangeEnd(r), NULL);
  unsigned from = offset_of(clang_getRangeStart(r)), to = offset_of(clang_getRangeEnd(r));
  if (from < to && to <= src->len) f->src_hash = pp_fnv1a(PP_FNV_BASIS, src->text + from, to - from);
  Kids k = kids(fn);
  CXCursor bd = k.n ? k.v[k.n - 1] : clang_getNullCursor();
  *why = refused_by_attribute(src, k);
  VEC_FREE(k);
  if (*why) return -2;
  if (clang_Cursor_isNull(bd) || kind(bd) != CXCursor_CompoundStmt) { *why = "no function body"; return -1; }
  b.hub = -1;
  if ((*why = cfg_refused(&b, bd, &f->calls_setjmp))) return -1;
  f->body_open = start_of(bd) + 1;
  /* GCC wants local label declarations (__label__) first in their block: our declaration follows */
  Kids lead = kids(bd);
  for (size_t i = 0; i < lead.n && kind(lead.v[i]) == CXCursor_DeclStmt; i++) {
    unsigned a = start_of(lead.v[i]);
    unsigned e = cfg_stmt_end(&b, lead.v[i]);
    if (a + 9 > src->len || memcmp(src->text + a, "__label__", 9) || e == BAD) break;
    f->body_open = e;
  }
  VEC_FREE(lead);
  f->text = src->text;
  f->text_len = src->len;
  body(&b, bd);
  cfg_check_flows(&b);
  cfg_sort_calls(&b);
  resolve_gotos(&b);
  resolve_hub(&b);
  builder_free(&b);
  *why = b.why;
  return b.why ? -1 : 0;
}

void pp_func_free(PPFunc *f) {
  free(f->name);
  pp_graph_free(&f->g);
  VEC_FREE(f->sites);
  VEC_FREE(f->braces);
  VEC_FREE(f->seqs);
  for (size_t i = 0; i < f->calls.n; i++) free(f->calls.v[i].callee);
  VEC_FREE(f->calls);
  VEC_FREE(f->inits);
  memset(f, 0, sizeof *f);
}
