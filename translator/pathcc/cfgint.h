/* cfgint.h: what the CFG builder's files share (cfg.c: statements; cfgexpr.c: expressions;
   cfgsrc.c: the .i text and what the builder refuses): the builder's state and the helpers
   between them. Internal to the builder. */
#ifndef PP_CFGINT_H
#define PP_CFGINT_H
#include "cfg.h"
#include <limits.h>
#include <string.h>

#define BAD UINT_MAX


typedef VEC(CXCursor) Kids;
typedef struct { char *name; int block, head; unsigned off; } Label;  /* off: the label's start */
typedef struct { int edge; char *name; unsigned off; } Goto;  /* off: its label's start, or BAD */
/* A statement expression with control flow inside (a loop, if, switch, jump or label): built
   in place where the walk of its enclosing expression meets it (walked), else left whole, which
   only one that never jumps out of itself (escapes: break or continue bound outside, return,
   goto to a label outside) can be. */
typedef struct { unsigned off, end, line, end_line; bool escapes, walked; } Flow;
typedef struct { int head; bool has_default; } Switch;

/* The decision being built (--decisions=conditions): labels stand for "the first condition
   of the subexpression walked next" until that condition exists. */
typedef struct {
  bool on;            /* a decision is being recorded */
  VEC(PPCond) conds;  /* its conditions so far, outcomes still as labels */
  VEC(int) label;     /* label -> condition index within the decision (-1: not yet) */
  VEC(int) pending;   /* labels the next condition binds */
  unsigned line, col;
  int file;
} DecState;

typedef struct {
  PPSource *src;
  PPFunc *f;
  PPGraph *g;
  int cur, depth, seq;
  VEC(int) brk;
  VEC(int) cont;
  VEC(Switch) sw;
  VEC(Label) labels;
  VEC(Goto) gotos;
  const char *why;  /* first reason to give up, or NULL */
  bool conditions;  /* &&, || and ?: are decisions of their own */
  VEC(char *) taken;  /* labels whose address is taken (&&label) */
  int hub;          /* the block every goto *p goes through, or -1 */
  DecState dec;     /* the decision whose conditions are being walked */
  unsigned lead_end;  /* the statement is one of its compound's leading declarations: the
                         offset of the compound's closing brace (else BAD) */
  /* where code that runs when the current block falls into a label can go: right after the
     block's last statement (before fallthrough annotations, comments and closing braces of
     plain compounds that follow it), so the annotation stays before the label and a warning
     about the fall keeps the statement's line; tail_block -1 or another block: none */
  int tail_block, tail_side, tail_lvl;
  unsigned tail_off;
  /* the dispatch edge of a case label whose statement is the label being built (case A: case
     B: ...): the labels of such a group share one block and one dispatch edge, as in GCC's CFG;
     -1: none */
  int group_edge;
  VEC(Flow) flows;  /* the function's statement expressions with control flow, in text order */
  CXCursor se_last; /* the statement whose value a statement expression being built takes: it
                       starts a block of its own (null cursor: none) */
  bool value;       /* the statement being built is that one (its value is used: it has code) */
  bool splits;      /* edge mode's split sites are wanted (PPCall.split) */
  size_t unsplit;   /* calls from here on have not met a statement after their own */
} Builder;

static inline enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  VEC_PUSH(*(Kids *)d, c);
  return CXChildVisit_Continue;
}

static inline Kids kids(CXCursor c) {
  Kids k = {0};
  clang_visitChildren(c, collect, &k);
  return k;
}

static inline unsigned offset_of(CXSourceLocation l) {
  unsigned o;
  clang_getFileLocation(l, NULL, NULL, NULL, &o);
  return o;
}

static inline unsigned start_of(CXCursor c) { return offset_of(clang_getRangeStart(clang_getCursorExtent(c))); }
static inline unsigned end_of(CXCursor c) { return offset_of(clang_getRangeEnd(clang_getCursorExtent(c))); }
static inline enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }

/* Original file and line of a location, through the .i file's line markers. */
static inline unsigned presumed(Builder *b, CXSourceLocation l, int *file) {
  CXString fn;
  unsigned line, col;
  clang_getPresumedLocation(l, &fn, &line, &col);
  if (file) *file = pp_source_file(b->src, clang_getCString(fn));
  clang_disposeString(fn);
  return line;
}

/* Original file, line and column of a location. */
static inline PPPos position(Builder *b, CXSourceLocation l) {
  CXString fn;
  unsigned line, col;
  clang_getPresumedLocation(l, &fn, &line, &col);
  PPPos p = { pp_source_file(b->src, clang_getCString(fn)), line, col };
  clang_disposeString(fn);
  return p;
}

/* cfg.c */
/* An edge whose code goes at site (arm); site -1: it has no place of its own and its code
   rides on the edges into its source, which has no other way out. */
int cfg_add_edge(Builder *b, int dst, PPEdgeKind k, int site, int arm);
/* A new site of kind k for the text [off, end) on side; returns its index. */
int cfg_add_site(Builder *b, PPSiteKind k, unsigned off, unsigned end, int side);
/* A block inside an expression (between decisions): it has no statement position, so its
   entry is observed on the edges into it and its exit edges carry their code on arms. */
int cfg_new_inner(Builder *b);
/* The first item of a block decides where its entry can be observed (the trace). */
void cfg_set_head(Builder *b, int site);
/* A statement expression with control flow: its statements become blocks and edges in place. */
void cfg_stmt_expr(Builder *b, CXCursor se);

/* cfgexpr.c */
/* Block blk's position is where c starts (its decision, or its first statement when force is
   false and it has none yet). */
void cfg_set_pos(Builder *b, int blk, CXCursor c, bool force);
/* Does expression c compile to nothing (no call, store or increment in it)? */
bool cfg_no_code(Builder *b, CXCursor c);
/* Statement c runs in the current block: its lines, its facts and its calls go there. */
void cfg_add_lines(Builder *b, CXCursor c);
/* Statement c holds statement expressions with control flow and has been walked: its own lines
   (outside them) go to the block it ended in, where what follows them runs (GCC puts the line of
   an assignment from one there). */
void cfg_flow_lines(Builder *b, CXCursor c);
/* The facts of statement c go to the current block. */
void cfg_note_facts(Builder *b, CXCursor c);
/* The calls evaluated in c run in the current block (a later, deeper note wins: the leaves of
   a condition split by --decisions=conditions). */
void cfg_note_calls(Builder *b, CXCursor c);
/* Puts the function's calls in text order (their sites are numbered so). */
void cfg_sort_calls(Builder *b);
/* A condition e in evaluation order: its decisions become blocks, ending in edges to t (true)
   and f (false). */
void cfg_cond_flow(Builder *b, CXCursor e, int t, int f);
/* Walks an expression in evaluation order, turning &&, || and ?: into blocks and edges.
   Operands of other operators are unsequenced, so when more than one holds decisions the
   compiler may run them in any order and the node stays whole. */
void cfg_expr_flow(Builder *b, CXCursor e);
/* Does e hold a decision (&&, ||, ?:) that runs where e runs (--decisions=conditions), or a
   statement expression with control flow? */
bool cfg_has_decisions(Builder *b, CXCursor e);
/* The index in b->flows of statement expression se, or -1 (no control flow inside). */
int cfg_flow_of(Builder *b, CXCursor se);
/* Does the text of e hold a statement expression with control flow (one that escapes, when
   escaping is set)? */
bool cfg_has_flow(Builder *b, CXCursor e, bool escaping);

/* cfgsrc.c */
/* Offset just past the ':' that ends a label whose name or expression ends at off. */
unsigned cfg_colon_after(Builder *b, unsigned off);
/* Finds the two ';' and the ')' of a for header, skipping literals and nested brackets. */
int cfg_for_header(Builder *b, unsigned for_off, unsigned *semi1, unsigned *semi2, unsigned *close);
/* Does statement c hold a jump or label (return, goto, break, continue, case...)? */
bool cfg_has_jumps(CXCursor c);
/* Fails the function when a statement expression left whole jumps out of itself (one met where
   the order of evaluation is unspecified, beside another built in place). */
void cfg_check_flows(Builder *b);
/* Skips blanks, comments and directive lines (line markers, pragmas) from off. */
unsigned cfg_skip_ws(const PPSource *s, unsigned off);
/* Is the text at off the first on its line (nothing but blanks before it)? */
bool cfg_at_line_start(const char *t, unsigned off);
/* Could -Wmisleading-indentation warn about the unbraced body of the statement at guard that
   ends at end (the next statement indented as if guarded, or on the body's line)? Errs on yes. */
bool cfg_misleading(Builder *b, unsigned guard, unsigned end, bool is_do);
/* Offset just past the last character of statement c, including its ';'. */
unsigned cfg_stmt_end(Builder *b, CXCursor c);
/* Why the body of a function cannot be instrumented (a construct this version leaves alone),
   or NULL; *calls_setjmp: the body calls setjmp (its path register must be volatile). Fills
   b->flows. */
const char *cfg_refused(Builder *b, CXCursor body, bool *calls_setjmp);
#endif
