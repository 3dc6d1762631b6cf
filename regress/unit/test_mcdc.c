/* MC/DC from condition vectors: the NASA tutorial's decisions (A && B, A || B, (A || B) && C,
   coupled conditions) under both definitions, the walk of a path through a decision, and random
   decisions against a brute-force evaluator of the expression tree that shares no code with the
   derivation (it evaluates the tree itself, and masks by the tree rule, not by the diagram). */
#include "check.h"
#include "pathprof/mcdc.h"
#include <string.h>
#include "model/decision.h"
#include <stdlib.h>

#define T PP_DEC_TRUE
#define F PP_DEC_FALSE

/* A decision's conditions from their next-on-true and next-on-false (blocks unused). */
static void diagram(PPCond *c, int n, const int *next) {
  for (int i = 0; i < n; i++) {
    memset(&c[i], 0, sizeof c[i]);
    c[i].block = 10 + 3 * i; c[i].t = 11 + 3 * i; c[i].f = 12 + 3 * i;
    c[i].next_t = next[2 * i]; c[i].next_f = next[2 * i + 1];
  }
}

/* Vectors from strings such as "TF-:T" (values, then the outcome). */
static int vectors(PPMcdcVec *v, signed char (*store)[16], const char *const *s, int nv) {
  for (int k = 0; k < nv; k++) {
    int i = 0;
    for (; s[k][i] != ':'; i++) store[k][i] = s[k][i] == 'T' ? 1 : s[k][i] == 'F' ? 0 : -1;
    v[k] = (PPMcdcVec){ store[k], s[k][i + 1] == 'T', 1 };
  }
  return nv;
}

/* covered: one letter per condition, 'y' covered or 'n', under def. */
static void expect(const char *name, const int *next, int n, const char *const *tests, int nt, PPMcdcDef def, const char *covered) {
  PPCond c[16];
  PPMcdcVec v[16];
  signed char store[16][16];
  PPMcdcCond r[16];
  diagram(c, n, next);
  vectors(v, store, tests, nt);
  pp_mcdc_analyse(c, n, v, nt, def, r);
  char got[17];
  for (int i = 0; i < n; i++) got[i] = r[i].shown[0] && r[i].shown[1] ? 'y' : 'n';
  got[n] = 0;
  check(name, !strcmp(got, covered), "covered %s, expected %s", got, covered);
}

static void nasa(void) {
  static const int and2[] = { 1, F, T, F }, or2[] = { T, 1, T, F };
  static const int or_and[] = { 2, 1, 2, F, T, F };             /* (A || B) && C */
  static const int coupled[] = { 1, 2, T, 2, 3, F, T, F };       /* A && B || A && C */
  const char *full_and[] = { "TT:T", "TF:F", "F-:F" }, *half_and[] = { "TT:T", "TF:F" };
  const char *full_or[] = { "FF:F", "FT:T", "T-:T" };
  const char *few[] = { "T-T:T", "FTF:F" };
  const char *oa_full[] = { "T-T:T", "FTT:T", "FF-:F", "T-F:F" };
  const char *all8[] = { "TT--:T", "TFTT:T", "TFTF:F", "F-F-:F" };
  for (int d = 0; d < 2; d++) {
    PPMcdcDef def = d ? PP_MCDC_UNIQUE : PP_MCDC_MASKING;
    const char *tag = d ? "unique" : "masking";
    char name[64];
    snprintf(name, sizeof name, "mcdc_nasa_and_%s", tag); expect(name, and2, 2, full_and, 3, def, "yy");
    snprintf(name, sizeof name, "mcdc_nasa_and_missing_%s", tag); expect(name, and2, 2, half_and, 2, def, "ny");
    snprintf(name, sizeof name, "mcdc_nasa_or_%s", tag); expect(name, or2, 2, full_or, 3, def, "yy");
    snprintf(name, sizeof name, "mcdc_nasa_or_and_%s", tag); expect(name, or_and, 3, oa_full, 4, def, "yyy");
    /* C flips with A: masking shows C (the false C masks A), unique-cause finds no pair */
    snprintf(name, sizeof name, "mcdc_nasa_or_and_two_tests_%s", tag); expect(name, or_and, 3, few, 2, def, d ? "nnn" : "nny");
    /* the second A is coupled to the first: no unique-cause pair exists, masking shows it */
    snprintf(name, sizeof name, "mcdc_nasa_coupled_%s", tag); expect(name, coupled, 4, all8, 4, def, d ? "yyny" : "yyyy");
  }
}

/* A path through blocks: the walk reads the values from the edges it takes. */
static void walk(void) {
  static const int or_and[] = { 2, 1, 2, F, T, F };
  PPCond c[3];
  signed char v[3];
  diagram(c, 3, or_and);
  int path[] = { 0, 10, 12, 13, 14, 16, 19, 1 };  /* A false, B true, C true: c[2].block 16, t 17? */
  c[2].t = 19;                                      /* C's true edge enters block 19 */
  int out = pp_mcdc_walk(c, 3, path, 8, v);
  check("mcdc_walk_values", out == 1 && v[0] == 0 && v[1] == 1 && v[2] == 1, "outcome %d values %d %d %d", out, v[0], v[1], v[2]);
  int cut[] = { 0, 10, 12, 13 };
  check("mcdc_walk_cut", pp_mcdc_walk(c, 3, cut, 4, v) == -2, "a path ending inside the decision is not a vector");
  int other[] = { 0, 5, 6, 1 };
  check("mcdc_walk_absent", pp_mcdc_walk(c, 3, other, 4, v) == -1, "a path without the decision has no vector");
}

/* ---- the brute-force side: expression trees of &&, || and ! over distinct conditions ---- */

typedef struct Node { char op; int leaf; struct Node *l, *r; } Node;  /* op: 'c' leaf, '&', '|', '!' */

static Node *tree(int *next, int n) {
  Node *x = calloc(1, sizeof *x);
  if (n == 1) { x->op = 'c'; x->leaf = (*next)++; }
  else { int k = 1 + rand() % (n - 1); x->op = rand() % 2 ? '&' : '|'; x->l = tree(next, k); x->r = tree(next, n - k); }
  if (rand() % 4 == 0) { Node *y = calloc(1, sizeof *y); y->op = '!'; y->l = x; x = y; }
  return x;
}

static void drop(Node *x) { if (x) { drop(x->l); drop(x->r); free(x); } }
static int first_leaf(const Node *x) { return x->op == 'c' ? x->leaf : first_leaf(x->l); }

/* The test's own translation of the tree into next-on-true / next-on-false. */
static void to_diagram(const Node *x, int st, int sf, int *next) {
  switch (x->op) {
  case 'c': next[2 * x->leaf] = st; next[2 * x->leaf + 1] = sf; break;
  case '!': to_diagram(x->l, sf, st, next); break;
  case '&': to_diagram(x->l, first_leaf(x->r), sf, next); to_diagram(x->r, st, sf, next); break;
  default: to_diagram(x->l, st, first_leaf(x->r), next); to_diagram(x->r, st, sf, next); break;
  }
}

/* Short-circuit evaluation of the tree on input bits in; seen gets the evaluated values and
   *shown the conditions whose value decided this node (GCC's rule: in X && Y a false Y masks X,
   in X || Y a true Y masks X). */
static int eval(const Node *x, unsigned in, signed char *seen, unsigned *shown) {
  unsigned a = 0, b = 0;
  int v, w;
  switch (x->op) {
  case 'c': v = (in >> x->leaf) & 1; seen[x->leaf] = (signed char)v; *shown = 1u << x->leaf; return v;
  case '!': v = eval(x->l, in, seen, shown); return !v;
  default:
    v = eval(x->l, in, seen, &a);
    if (v == (x->op == '|')) { *shown = a; return v; }  /* short-circuited */
    w = eval(x->r, in, seen, &b);
    *shown = w == (x->op == '&') ? a | b : b;            /* the right side decided alone, or both agreed */
    return w;
  }
}

/* Random decisions of up to 10 conditions and random test sets: both definitions agree with
   the brute force for every condition and value. */
static void property(void) {
  int bad_u = 0, bad_m = 0, runs = 400;
  for (int run = 0; run < runs; run++) {
    int n = 1 + rand() % 10, leaf = 0, next[32];
    Node *x = tree(&leaf, n);
    to_diagram(x, T, F, next);
    PPCond c[16];
    diagram(c, n, next);
    int nt = 1 + rand() % 12;
    PPMcdcVec v[12];
    signed char store[12][16];
    unsigned shown[12];
    for (int k = 0; k < nt; k++) {
      memset(store[k], -1, sizeof store[k]);
      int out = eval(x, (unsigned)rand(), store[k], &shown[k]);
      v[k] = (PPMcdcVec){ store[k], out, 1 };
    }
    PPMcdcCond rm[16], ru[16];
    pp_mcdc_analyse(c, n, v, nt, PP_MCDC_MASKING, rm);
    pp_mcdc_analyse(c, n, v, nt, PP_MCDC_UNIQUE, ru);
    for (int i = 0; i < n; i++) {
      bool m[2] = { false, false }, u = false;
      for (int a = 0; a < nt; a++) {
        if (store[a][i] >= 0 && (shown[a] >> i & 1)) m[store[a][i]] = true;
        for (int b = 0; b < nt; b++) {  /* the only evaluated difference is condition i */
          int diff = 0;
          for (int j = 0; j < n; j++) diff += store[a][j] >= 0 && store[b][j] >= 0 && store[a][j] != store[b][j] ? (j == i ? 1 : 100) : 0;
          u |= diff == 1 && v[a].outcome != v[b].outcome;
        }
      }
      bad_m += m[0] != rm[i].shown[0] || m[1] != rm[i].shown[1];
      bad_u += u != (ru[i].shown[0] && ru[i].shown[1]);
    }
    drop(x);
  }
  check("mcdc_random_masking", !bad_m, "%d condition values differ from the tree rule", bad_m);
  check("mcdc_random_unique_cause", !bad_u, "%d conditions differ from the brute force", bad_u);
}

/* The tables' decisions: written and read back alike; a next condition that goes backwards (a
   walk that would not end), a block outside the graph or equal outcome blocks are refused. */
static void tables(void) {
  PPGraph g, h;
  pp_graph_init(&g);
  pp_graph_init(&h);
  for (int i = 0; i < 20; i++) { pp_graph_add_block(&g); pp_graph_add_block(&h); }
  static const int or_and[] = { 2, 1, 2, F, T, F };
  PPCond c[3];
  diagram(c, 3, or_and);
  snprintf(c[1].text, sizeof c[1].text, "b, \"q\"");
  for (int i = 0; i < 3; i++) VEC_PUSH(g.conds, c[i]);
  PPDecision d = { 0, 3, 0, 7, 9 };
  VEC_PUSH(g.decisions, d);
  json_t *j = pp_decisions_json(&g);
  int rc = pp_decisions_read(&h, j, 1);
  check("mcdc_tables_roundtrip", !rc && h.decisions.n == 1 && h.conds.n == 3 && !memcmp(h.conds.v, g.conds.v, 3 * sizeof(PPCond)) &&
        h.decisions.v[0].line == 7 && h.decisions.v[0].col == 9, "rc %d, %zu decisions", rc, h.decisions.n);
  const char *bad[] = { "[{\"file\":0,\"line\":1,\"col\":1,\"conds\":[[2,3,4,-1,-2,1,1,\"a\"],[5,6,7,0,-2,1,1,\"b\"]]}]",
                        "[{\"file\":0,\"line\":1,\"col\":1,\"conds\":[[99,3,4,-1,-2,1,1,\"a\"]]}]",
                        "[{\"file\":0,\"line\":1,\"col\":1,\"conds\":[[2,3,3,-1,-2,1,1,\"a\"]]}]",
                        "[{\"file\":5,\"line\":1,\"col\":1,\"conds\":[[2,3,4,-1,-2,1,1,\"a\"]]}]" };
  for (int i = 0; i < 4; i++) {
    PPGraph k;
    pp_graph_init(&k);
    for (int b = 0; b < 20; b++) pp_graph_add_block(&k);
    json_t *x = json_loads(bad[i], 0, NULL);
    char name[40];
    snprintf(name, sizeof name, "mcdc_tables_refused_%d", i);
    check(name, x && pp_decisions_read(&k, x, 1) == -1, "damaged decisions were read");
    json_decref(x);
    pp_graph_free(&k);
  }
  json_decref(j);
  pp_graph_free(&g);
  pp_graph_free(&h);
}

int main(void) {
  srand(19);
  tables();
  nasa();
  walk();
  property();
  return failures ? 1 : 0;
}
