/* AST -> CFG: one graph per function body, every edge tied to a site where its code can go. */
#ifndef PP_CFG_H
#define PP_CFG_H
#include <clang-c/Index.h>
#include "model/graph.h"

/* Where inserted code goes. STMT sites are statement positions in a statement list; the
   others are expression positions the rewriter wraps (see rewrite.c). */
typedef enum {
  SK_STMT,     /* code as statements at off */
  SK_COND,     /* the condition [off, end): pre-code and the two outcome arms */
  SK_EXPR,     /* a switch expression [off, end): pre-code only */
  SK_FORINC,   /* a for increment [off, end) (off == end: empty): pre- and post-code */
  SK_FORCOND,  /* an empty for condition slot at off: pre- and post-code, value 1 */
  SK_DEFAULT   /* a synthesized "default:" at the end of a switch body without one */
} PPSiteKind;

enum { ARM_TRUE = 0, ARM_FALSE = 1, ARM_POST = 2, ARM_PRE = 3 };
enum { SIDE_CLOSE = 0, SIDE_OPEN = 1 };

typedef struct {
  PPSiteKind kind;
  unsigned off, end;
  int side, lvl, seq;
  int block;   /* SK_DEFAULT: the block that falls off the switch body's end */
  bool fall_mark;  /* SK_STMT before a case label in a block without statements: its code is
                      followed by a fallthrough annotation (the source cannot have warned there) */
} PPSite;

typedef struct { unsigned open, close; int lvl; } PPBrace;

/* Two operands of one operator that both hold decisions ((a && b) > (c && d)), whose order C
   leaves open: the rewrite takes the first, a && or || (an int), into a temporary first,
   `(t = (A), t OP B)`, so the graph may walk A's decision before B's. [a, a_end): A; end: the
   end of the whole expression. */
typedef struct { unsigned a, a_end, end; } PPSeq;

/* A call the activation may stop in (exit in a callee, longjmp, a fault...): before it runs,
   the frame records its site (its index in PPFunc.calls plus 1) and the path register, when
   the call is marked (pathcc decides that once the unit's functions are known). */
typedef struct {
  unsigned off, end;   /* the call's text [off, end) in the .i */
  int block;           /* the block it runs in */
  int file;            /* where it ends: a stop here counts its block's lines up to that line */
  unsigned line;
  int depth;           /* calls inside another's callee expression are deeper (same start) */
  bool setjmp;         /* a setjmp: its value passes through __pathprof_sjret */
  bool builtin_setjmp; /* __builtin_setjmp (gcov counts its receiver) */
  bool nosplit;        /* a library function GCC knows never throws (memcpy, strlen, execv...):
                          GCC's block goes on after it, so a stop in it runs up to the next call */
  bool quiet;          /* one of those that returns (not the exec family): it stops the
                          activation only by a fault */
  char *callee;        /* the function named (NULL for a call through a pointer) */
  bool cond;           /* its block may run without it: an operand that &&, || or ?: evaluate
                          only sometimes, where the graph keeps the operator whole */
  bool mark;           /* the frame records this call's site before it runs */
  int split;           /* edge mode's split site: a statement of the same block that starts after
                          the call's statement, where its group's returns can be counted (-1:
                          none, the call is in its block's last statement) */
} PPCall;

typedef struct {
  char *name;
  int file;                /* index into the unit's file list */
  unsigned line, end_line;
  unsigned name_line;      /* the line of the function's name */
  uint64_t src_hash;       /* FNV-1a of the function's preprocessed text: which source it was built from */
  PPGraph g;
  VEC(PPSite) sites;
  VEC(PPBrace) braces;     /* braces added around non-compound sub-statements */
  VEC(PPSeq) seqs;         /* operands the rewrite puts in order, outermost first */
  unsigned body_open;      /* offset just after the body's '{' */
  bool calls_setjmp;       /* the path register must be volatile */
  bool framed;             /* edge mode: its splits could not be placed, it keeps frames */
  VEC(int) inits;          /* edge mode: sites before the leading declarations' initializers */
  int entry_init;          /* edge mode: the one of them where the entries count (the leading
                              declarations make calls that may stop), or -1 */
  bool indent_check;       /* a body pathcc braces is followed by code the compiler may find
                              misleadingly indented; with the braces it cannot say so */
  VEC(PPCall) calls;       /* by offset once the body is built: site k + 1 is calls.v[k] */
  const char *text;        /* the unit's .i text (not owned) */
  size_t text_len;
} PPFunc;

/* The unit-level view the builder needs: the .i text and a file-name table. */
typedef struct {
  const char *text;
  size_t len;
  VEC(char *) files;
} PPSource;

int pp_source_file(PPSource *src, const char *name);
/* Builds f from a function definition cursor; with conditions, &&, || and ?: are decisions;
   with splits, calls get their split sites (PPCall.split). Returns 0, or -1 with *why (static
   text) when the function must stay uninstrumented, -2 when its own attributes say so (no
   warning). */
int pp_cfg_build(PPSource *src, CXCursor fn, bool conditions, bool splits, PPFunc *f, const char **why);
void pp_func_free(PPFunc *f);
#endif
