/* The CFG/DAG model every host stage shares: blocks, edges, and the DAG view over them. */
#ifndef PP_GRAPH_H
#define PP_GRAPH_H
#include <stdbool.h>
#include <stdint.h>
#include "util.h"

enum { PP_ENTRY = 0, PP_EXIT = 1 };

/* Frames (rt/core/unit.h): the function's index sits above this many bits of call site. */
#define PP_SITE_BITS 16
#define PP_SITE_MASK 0xffffUL
#define PP_SITE_LAST 0x7fffUL     /* sites from here on share this number */
#define PP_SITE_BEFORE 0x8000UL   /* a partial path that ends before its site's block */

typedef enum {
  EK_NORMAL,      /* a CFG edge kept in the DAG */
  EK_EXIT,        /* return or end of body -> exit block */
  EK_BACK,        /* retreating edge: replaced by the two dummies below */
  EK_CUT,         /* edge cut to bound the path count: replaced like a back edge */
  EK_DUMMY_ENTRY, /* entry -> target of back/cut edges */
  EK_DUMMY_EXIT   /* source of back/cut edges -> exit */
} PPEdgeKind;

/* How an exit edge leaves the function (the tables' "exit" key). */
typedef enum { PP_EXIT_NONE, PP_EXIT_RETURN, PP_EXIT_FALL, PP_EXIT_NORETURN } PPExitKind;

typedef struct {
  int src, dst;
  PPEdgeKind kind;
  PPExitKind exit;  /* exit edges: a return statement, falling off the end, a call that never returns */
  bool dead;      /* leaves an unreachable block: never executes, gets no code */
  bool dispatch;  /* switch dispatch edge: its code sits at the case label */
  bool no_site;   /* no place for code: kept on the spanning tree, path ends ride on in-edges */
  bool quiet;     /* code here costs the user something (a loop pragma): the tree takes it if it can */
  uint64_t val;   /* Ball-Larus value (DAG edges) */
  uint64_t inc;   /* placed increment, two's complement */
  bool chord;     /* not on the spanning tree: carries a probe */
  int slot;       /* edge mode: the function's counter on this edge (-1 none) */
  bool probe;     /* the rewriter put code on it (runs each time the edge is taken) */
  double weight;  /* estimated or profiled frequency */
  int site, arm;  /* rewriter: where this edge's code goes (-1 none) */
} PPEdge;

typedef struct { int file; unsigned first, last; } PPLines;

/* What a decision compares (static estimator, place.c): "a < b" is PP_CMP_LT; a bare value
   "x" is x != 0 (PP_CMP_NE against zero); "!x" is x == 0. */
typedef enum { PP_CMP_NONE, PP_CMP_EQ, PP_CMP_NE, PP_CMP_LT, PP_CMP_LE, PP_CMP_GT, PP_CMP_GE } PPCmp;

#define PP_FACT_VARS 6
/* Facts about a block's code from the AST, for the Wu-Larus heuristics (place.c). */
typedef struct {
  bool calls;            /* calls a function */
  bool stores;           /* assigns: =, op=, ++, -- */
  bool returns;          /* holds a return statement */
  PPCmp cmp;             /* the decision ending the block (PP_CMP_NONE: not a comparison we know) */
  bool ptr;              /* the decision compares pointers */
  bool vs_zero;          /* ... against 0 or a null pointer */
  bool vs_const;         /* ... against a constant */
  bool fp;               /* ... floating-point values */
  unsigned operands[2];  /* the variables compared (declaration hashes, 0 none) */
  unsigned uses[PP_FACT_VARS]; /* variables the block reads (first few) */
  int nuses;
} PPFacts;

/* One statement or expression of a block as written, unmerged: inert, a declaration that executes
   nothing; nocode, it compiles to nothing (no effect: (void)x, an assert under NDEBUG, a constant
   condition the compiler folds, a loop head without a condition). */
typedef struct { int file; unsigned first, last; bool inert, nocode; } PPStmt;

/* A source position (original file, line, column): where a block's decision is, else its first
   statement; 0 lines: none. */
typedef struct { int file; unsigned line, col; } PPPos;

typedef struct {
  VEC(PPLines) lines;   /* source lines of the statements in this block */
  VEC(PPStmt) stmts;    /* the statements themselves, in order, one range each */
  bool live;            /* reachable from the entry */
  bool header;          /* target of a back edge */
  bool headless;        /* inside an expression: no position of its own, observed on its in-edges */
  int head, tail;       /* rewriter sites: where its entry is observed, where its single edge's code goes */
  char *label;          /* "case 3", "default", "L1", or NULL */
  PPPos pos;            /* where its decision is, else its first statement (paths' keys) */
  PPFacts facts;        /* for the static estimator; not in the tables */
} PPBlock;

/* A condition of a decision (--decisions=conditions), in evaluation order: block ends with its
   true edge to block t and its false edge to block f; next_t / next_f: the index (within the
   decision) of the condition evaluated next, always a later one, or PP_DEC_TRUE / PP_DEC_FALSE
   when that outcome decides the decision. */
enum { PP_DEC_TRUE = -1, PP_DEC_FALSE = -2 };
typedef struct {
  int block, t, f, next_t, next_f;
  unsigned line, col;
  char text[48];   /* the condition as written, cut short */
} PPCond;

/* A decision: conditions conds[first .. first+n) of its graph; where it starts in the source. */
typedef struct { int first, n, file; unsigned line, col; } PPDecision;

typedef struct {
  VEC(PPBlock) blocks;
  VEC(PPEdge) edges;
  VEC(PPCond) conds;          /* every decision's conditions, decision after decision */
  VEC(PPDecision) decisions;  /* conditions mode only; empty otherwise */
  /* DAG adjacency (CSR, edges in id order), rebuilt by pp_graph_index */
  int *out_start, *out_edges, *in_start, *in_edges;
  uint64_t *np;         /* paths from each node to exit */
  uint64_t npaths;      /* paths of the function (np[entry]) */
} PPGraph;

void pp_graph_init(PPGraph *g);   /* creates entry (0) and exit (1) */
void pp_graph_free(PPGraph *g);
int pp_graph_add_block(PPGraph *g);
int pp_graph_add_edge(PPGraph *g, int src, int dst, PPEdgeKind kind);
void pp_block_add_lines(PPGraph *g, int b, int file, unsigned first, unsigned last);

bool pp_edge_in_dag(const PPEdge *e);
/* The dummy edge of kind k (EK_DUMMY_ENTRY or EK_DUMMY_EXIT) from src to dst, which a back or
   cut edge between them implies. */
const PPEdge *pp_graph_dummy(const PPGraph *g, int src, int dst, PPEdgeKind k);
/* CSR over every edge (dead, back and cut included) by source: start[n+1], adj[m]; caller frees. */
void pp_graph_all_out(const PPGraph *g, int **start, int **adj);
/* The same by target. */
void pp_graph_all_in(const PPGraph *g, int **start, int **adj);
void pp_graph_index(PPGraph *g);
/* Live nodes in topological order of the DAG; returns their count, or -1 if the DAG has a cycle. */
int pp_graph_topo(const PPGraph *g, int *order);

#define PP_OUT_FOR(g, v, i) for (int i = (g)->out_start[v]; i < (g)->out_start[(v) + 1]; i++)
#define PP_IN_FOR(g, v, i) for (int i = (g)->in_start[v]; i < (g)->in_start[(v) + 1]; i++)

const char *pp_edge_kind_name(PPEdgeKind k);
int pp_edge_kind_parse(const char *s);
#endif
