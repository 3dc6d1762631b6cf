/* Probe plan -> text edits on the preprocessed unit, and applying them. */
#include "rewrite.h"
#include "promote.h"
#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define R "__pathprof_r"
#define KA "__pathprof_ka"
#define LOCAL "__pathprof_l"
#define Q "__pathprof_q"
#define E "__pathprof_e"
#define B "__pathprof_b"

/* A piece of code bound for one slot of one site; pieces of a slot run in prio order. */
enum { P_REGISTER, P_TRACE, P_EDGE, P_POP };
typedef struct { int site, slot, prio, seq; char *text; bool is_stmt; } Piece;
typedef VEC(Piece) Pieces;
typedef VEC(char *) Strs;

typedef struct {
  const PPFunc *f;
  const PPLayout *lay;
  const bool *zero;
  Pieces pieces;
  bool uses_r;
  bool uses_ka;        /* kpath mode: some path end hands its id to the k-slab forest */
  bool uses_q;         /* some path end reads the inline cache through the local Q */
  bool uses_b;         /* some count goes through the thread's counter base, the local B */
  const char *suffix;  /* integer-constant suffix of the register type */
  const char *u;       /* the unit descriptor as an lvalue of struct __pathprof_unit */
  PPPromoted *promo;   /* loops counting their rounds in locals LOCAL0, LOCAL1, ... */
  size_t npromo;
} Gen;

bool pp_rewrite_needs_wide(const PPGraph *g) {
  if (g->npaths >= (1ULL << 31)) return true;
  for (size_t i = 0; i < g->edges.n; i++) {
    int64_t v = (int64_t)g->edges.v[i].inc;
    if (v >= (1LL << 31) || v <= -(1LL << 31)) return true;
  }
  return false;
}

static void frame_edits(PPEdits *ed, const PPFunc *f, const PPLayout *lay, const Gen *g);
static void ranked(PPEdits *ed, unsigned off, int side, int rank, char *text);

static void piece(Gen *g, int site, int slot, int prio, char *text, bool is_stmt) {
  Piece p = { site, slot, prio, (int)g->pieces.n, text, is_stmt };
  VEC_PUSH(g->pieces, p);
}

/* "R += 5" or "R -= 3" for a two's-complement increment; NULL when it is 0. */
static char *add_r(Gen *g, uint64_t inc) {
  if (inc == 0) return NULL;
  g->uses_r = true;
  int64_t v = (int64_t)inc;
  if (v > 0) return pp_xasprintf(R " += %" PRIu64 "%s", inc, g->suffix);
  return pp_xasprintf(R " -= %" PRIu64 "%s", (uint64_t)0 - inc, g->suffix);
}

/* "R = 5" or "R = 0UL - 3UL". */
static char *set_r(Gen *g, uint64_t val) {
  g->uses_r = true;
  int64_t v = (int64_t)val;
  if (v >= 0) return pp_xasprintf(R " = %" PRIu64 "%s", val, g->suffix);
  return pp_xasprintf(R " = 0%s - %" PRIu64 "%s", g->suffix, (uint64_t)0 - val, g->suffix);
}

/* Of a count's plain and atomic forms, the one the counting mode gives (a new string): plain,
   atomic, or in thread mode the choice between the two made as it counts. */
static char *by_counting(const PPLayout *l, const char *plain, const char *atomic) {
  if (l->counting == PP_COUNT_THREAD || l->counting == PP_COUNT_BASE_TESTED)
    return pp_xasprintf("(" PP_ONE_THREAD " ? %s : %s)", plain, atomic);
  return pp_xstrdup(l->counting == PP_COUNT_PLAIN ? plain : atomic);
}

/* Adds to array slot idx (an index expression without side effects, so naming it twice is
   safe) as the update policy says: one (or -1 when down; or the value of `amount`, an lvalue,
   when given) to 64-bit counters, plainly, atomically or through the thread's base; 32-bit ones
   saturate at 2^32-1 without a branch (single updates of one only). */
static char *step(Gen *g, const char *idx, bool down, const char *amount) {
  const PPLayout *l = g->lay;
  char *c = l->relocatable ? pp_xasprintf("%s.counters", g->u) : pp_xstrdup("__pathprof_c"), *s;
  char *op = amount ? pp_xasprintf(" += %s", amount) : pp_xstrdup(down ? "--" : "++");
  char *gnu = pp_xasprintf("__atomic_fetch_%s(&%s[%s], %s, 0 /* __ATOMIC_RELAXED */)", down ? "sub" : "add", c, idx,
                           amount ? amount : "1");
  assert(!down || l->counter_bits != 32);  /* edge mode, the only one counting down, keeps 64 bits */
  assert(!amount || l->counter_bits != 32);
  switch (l->counting) {
  case PP_COUNT_GNU_ATOMIC:
    s = pp_xstrdup(gnu);
    break;
  case PP_COUNT_THREAD: {
    char *plain = pp_xasprintf("%s[%s]%s", c, idx, op);
    s = by_counting(l, plain, gnu);
    free(plain);
    break;
  }
  case PP_COUNT_ATOMIC_CARRY:
  case PP_COUNT_ATOMIC_MASKED:
    s = pp_xasprintf("%s(&%s[%s], %s)", l->counting == PP_COUNT_ATOMIC_CARRY ? "__pathprof_aadd" : "__pathprof_add_masked",
                     c, idx, amount ? amount : down ? "~0ULL" : "1");
    break;
  case PP_COUNT_C11_ATOMIC:
    s = amount ? pp_xasprintf("*(_Atomic unsigned long long *)&%s[%s]%s", c, idx, op)
               : pp_xasprintf("%s*(_Atomic unsigned long long *)&%s[%s]", op, c, idx);
    break;
  case PP_COUNT_BASE:
  case PP_COUNT_BASE_TESTED:
    s = pp_xasprintf(B "[%s]%s", idx, op);
    g->uses_b = true;
    break;
  default:
    s = l->counter_bits == 32 ? pp_xasprintf("%s[%s] += %s[%s] != 0xffffffffU", c, idx, c, idx)
                              : pp_xasprintf("%s[%s]%s", c, idx, op);
  }
  free(c);
  free(op);
  free(gnu);
  return s;
}

static char *bump(Gen *g, const char *idx) { return step(g, idx, false, NULL); }

/* kpath mode: where a path ends, its id R + add goes to the activation's k-slab forest
   stream (the runtime keeps ids of any value within its own memory); under an atomic update
   policy through __pathprof_kpath_id_atomic, which keeps interrupt handlers out of a forest
   that one of them shares with the main program (bare metal). */
static char *kpath_id(Gen *g, uint64_t add, bool zero) {
  const char *fn = pp_kpath_atomic(g->lay->counting) ? "__pathprof_kpath_id_atomic" : "__pathprof_kpath_id";
  g->uses_ka = true;
  if (zero) return pp_xasprintf("%s(&" KA ", %" PRIu64 "ULL)", fn, add);
  char *a = add_r(g, add);
  g->uses_r = true;
  char *s = pp_xasprintf("%s(&" KA ", %s)", fn, a ? a : R);
  free(a);
  return s;
}

/* ppp: a path end with register R + add counts in slot q = R >> bits (masked to the expect
   table's power-of-two size, so no bounds check) when the table says q's interesting path ends
   with exactly this value; any other path is residual and goes to the hash table by its
   Ball-Larus id, the low bits (exact whatever the PPP field holds). */
static char *count_ppp(Gen *g, uint64_t add, bool zero) {
  const PPLayout *l = g->lay;
  uint64_t mask = l->bits ? (1ULL << l->bits) - 1 : 0, q = add >> l->bits;
  /* atomic updates keep residual paths atomic too; else the cold entry point */
  char *idx, *b, *s;
  if (zero && q < l->slots && l->expect[q] == add) {
    idx = pp_xasprintf("%" PRIu64, l->offset + q);
    s = bump(g, idx);
    free(idx);
    return s;
  }
  char *res = by_counting(l, "__pathprof_residual", "__pathprof_hash_add_atomic");
  if (zero) {
    s = pp_xasprintf("%s(&%s, %d, %" PRIu64 "%s)", res, g->u, l->fn, add & mask, (add & mask) >> 32 ? "ULL" : "UL");
    free(res);
    return s;
  }
  char *a = add_r(g, add);
  g->uses_r = true;
  *l->uses_expect = true;
  idx = pp_xasprintf("%" PRIu64 " + (" R " >> %d & %" PRIu64 "%s)", l->offset, l->bits, l->table - 1, g->suffix);
  b = bump(g, idx);
  s = pp_xasprintf("(%s%s__pathprof_e%d[" R " >> %d & %" PRIu64 "%s] == " R " ? (void)(%s) : %s(&%s, %d, " R
                   " & %" PRIu64 "%s))", a ? a : "", a ? ", " : "", l->fn, l->bits, l->table - 1, g->suffix, b, res, g->u,
                   l->fn, mask, g->suffix);
  free(a); free(idx); free(b); free(res);
  return s;
}

/* The cache slot of a path id: the top PP_CACHE_BITS bits of a Fibonacci hash, over 32 bits
   when the register is unsigned long (ids below 2^31, so the same on every target; the
   multiplier fits a signed 32-bit immediate), else over 64. The low bits alone would not do:
   paths that differ only far from their end differ only in high bits of their ids. */
unsigned pp_cache_slot(uint64_t id, bool wide) {
  if (wide) return (unsigned)((id * 0x9E3779B97F4A7C15ULL) >> (64 - PP_CACHE_BITS));
  return (unsigned)(((id * 1640531527ULL) & 0xffffffffULL) >> (32 - PP_CACHE_BITS));
}

/* Where cache slot `slot` points at first: __pathprof_z + 0 holds id 1, + 3 id 0; a slot gets
   the one whose id does not choose it, so no path id matches a dummy. */
unsigned pp_cache_dummy(unsigned slot, bool wide) {
  return slot == pp_cache_slot(1, wide) ? 3 : 0;
}

/* The same slot as C text over the register. */
static char *cache_index(const Gen *g) {
  if (g->lay->wide) return pp_xasprintf("(" R " * 11400714819323198485ULL) >> %d", 64 - PP_CACHE_BITS);
  return pp_xasprintf("(" R " * 1640531527UL & 4294967295UL) >> %d", 32 - PP_CACHE_BITS);
}

/* A hash-mode path end through the function's inline cache: the slot for the id points at the
   hash entry of the id it last held, so a hit is a load, a compare and an add; a miss asks the
   runtime, which counts in the table and points the slot at the entry. The atomic forms read
   the slot with acquire (the runtime publishes it with release) and add atomically. */
static char *count_cached(Gen *g, uint64_t add, bool zero) {
  const PPLayout *l = g->lay;
  char *idx = zero ? pp_xasprintf("%u", pp_cache_slot(add, l->wide)) : cache_index(g);
  char *id = zero ? pp_xasprintf("%" PRIu64 "%s", add, l->wide || add >> 32 ? "ULL" : "UL") : pp_xstrdup(R);
  char *a = zero ? NULL : add_r(g, add);
  char *slot = pp_xasprintf("__pathprof_k%d[%s]", l->fn, idx);
  char *acq = pp_xasprintf("__atomic_load_n(&%s, 2 /* __ATOMIC_ACQUIRE */)", slot);
  char *load = by_counting(l, slot, acq);
  char *inc = by_counting(l, "++" Q "[2]", "__atomic_fetch_add(&" Q "[2], 1, 0 /* __ATOMIC_RELAXED */)");
  char *miss = by_counting(l, "__pathprof_hash_miss", "__pathprof_hash_miss_atomic");
  char *s = pp_xasprintf("(%s%s" Q " = %s, " Q "[1] == %s ? (void)%s : %s(&%s, %d, %s, &%s))",
                         a ? a : "", a ? ", " : "", load, id, inc, miss, g->u, l->fn, id, slot);
  free(acq); free(inc); free(miss);
  g->uses_q = true;
  if (!zero) g->uses_r = true;
  free(idx); free(id); free(a); free(slot); free(load);
  return s;
}

/* The counter update where a path ends with id R + add (a constant if R is known 0). Array
   indices are bounds-checked so no value of R writes outside the function's slots. */
static char *count(Gen *g, uint64_t add, bool zero) {
  const PPLayout *l = g->lay;
  uint64_t n = g->f->g.npaths;
  char *idx, *s;
  if (l->kpath) return kpath_id(g, add, zero);
  if (l->ppp) return count_ppp(g, add, zero);
  if (l->hash && l->cache) return count_cached(g, add, zero);
  if (l->hash) {
    char *fn = by_counting(l, "__pathprof_hash_add", "__pathprof_hash_add_atomic");
    char *a = zero ? NULL : add_r(g, add);
    if (zero) s = pp_xasprintf("%s(&%s, %d, %" PRIu64 "%s)", fn, g->u, l->fn, add, add >> 32 ? "ULL" : "UL");
    else if (a) s = pp_xasprintf("%s(&%s, %d, (%s))", fn, g->u, l->fn, a);
    else s = pp_xasprintf("%s(&%s, %d, " R ")", fn, g->u, l->fn);
    if (!zero) g->uses_r = true;
    free(a); free(fn);
    return s;
  }
  if (zero) {
    assert(add < n);
    idx = pp_xasprintf("%" PRIu64, l->offset + add);
    s = bump(g, idx);
    free(idx);
    return s;
  }
  char *a = add_r(g, add);
  g->uses_r = true;
  idx = pp_xasprintf("%" PRIu64 " + (" R " < %" PRIu64 "%s ? " R " : %" PRIu64 "%s)", l->offset, n, g->suffix, n, g->suffix);
  char *b = bump(g, idx);
  s = a ? pp_xasprintf("(%s, %s)", a, b) : pp_xstrdup(b);
  free(a); free(idx); free(b);
  return s;
}


/* The promoted loop whose back edge (exit edge when exit is set) is edge i, or -1. */
static int promoted(const Gen *g, size_t i, bool exit) {
  for (size_t k = 0; k < g->npromo; k++)
    if ((size_t)(exit ? g->promo[k].exit : g->promo[k].back) == i) return (int)k;
  return -1;
}

/* The back edge of promoted loop k: every round counts in the loop's local, and the round's
   increments (comp too, which the header's case label adds again) come back off the register,
   which so holds its value at the loop's entry until the exit sorts the rounds out (settle). */
static char *count_round(Gen *g, int k, uint64_t comp) {
  char *back = add_r(g, (uint64_t)0 - (g->promo[k].rinc + comp));
  char *s = pp_xasprintf(LOCAL "%d++%s%s", k, back ? ", " : "", back ? back : "");
  free(back);
  return s;
}

/* Leaving promoted loop k after n = LOCALk rounds: the first round's path began before the loop,
   so its id is the register's entry value plus the round (the register holds the entry value
   plus the increments before the exit); the other n - 1 are the round path. The register then
   gets the value it would have had after a round: the header's start plus those increments. */
static char *settle(Gen *g, int k, const PPEdge *back) {
  const PPGraph *gr = &g->f->g;
  const PPPromoted *p = &g->promo[k];
  uint64_t add = pp_graph_dummy(gr, back->src, PP_EXIT, EK_DUMMY_EXIT)->inc;
  uint64_t start = pp_graph_dummy(gr, PP_ENTRY, back->dst, EK_DUMMY_ENTRY)->inc;
  char *idx = pp_xasprintf("%" PRIu64, g->lay->offset + p->slot), *rest = pp_xasprintf(LOCAL "%d - 1", k);
  char *first = count(g, p->rinc + add - p->xinc, false), *others = step(g, idx, false, rest);
  char *reg = set_r(g, start + p->xinc);
  char *s = pp_xasprintf(LOCAL "%d ? (%s, %s, %s, " LOCAL "%d = 0) : 0", k, first, others, reg, k);
  free(idx); free(rest); free(first); free(others); free(reg);
  return s;
}

/* The code of edge e; comp is subtracted from the register value it leaves, because the
   case label it enters adds comp again (the dispatch increment sits after the colon). */
static char *edge_code(Gen *g, const PPEdge *e, uint64_t comp) {
  const PPGraph *gr = &g->f->g;
  bool z = g->zero[e->src] && !e->dispatch;
  int k = promoted(g, (size_t)(e - gr->edges.v), false);
  if (e->kind == EK_EXIT) return count(g, e->inc, z);
  if (k >= 0 && !g->zero[e->src]) return count_round(g, k, comp);  /* else a constant path each round */
  if (e->kind == EK_BACK || e->kind == EK_CUT) {
    uint64_t add = pp_graph_dummy(gr, e->src, PP_EXIT, EK_DUMMY_EXIT)->inc;
    char *c = count(g, add, g->zero[e->src]);
    char *s = set_r(g, pp_graph_dummy(gr, PP_ENTRY, e->dst, EK_DUMMY_ENTRY)->inc - comp);
    char *both = pp_xasprintf("%s, %s", c, s);
    free(c); free(s);
    return both;
  }
  if (z && e->inc - comp != 0) return set_r(g, e->inc - comp);
  return add_r(g, e->inc - comp);
}

/* Dispatch increments placed after case labels, per target block. */
static uint64_t *case_heads(Gen *g) {
  const PPGraph *gr = &g->f->g;
  uint64_t *h = pp_xcalloc(gr->blocks.n, sizeof(uint64_t));
  for (size_t i = 0; i < gr->edges.n; i++) {
    const PPEdge *e = &gr->edges.v[i];
    if (e->dispatch && !e->dead && g->f->sites.v[e->site].kind == SK_STMT)
      h[e->dst] = g->lay->edge ? (uint64_t)(e->slot + 1) : e->inc;
  }
  return h;
}

/* Edge mode: the promoted loops with a counter round them, whose back edge has a place for
   code and no round edge enters a label whose dispatch counter the edge takes back. */
static void round_chords(Gen *g) {
  const PPGraph *gr = &g->f->g;
  uint64_t *heads = case_heads(g);
  size_t n = 0;
  for (size_t k = 0; k < g->npromo; k++) {
    PPPromoted p = g->promo[k];
    bool any = false, ok = !gr->edges.v[p.back].no_site;
    for (int i = 0; i < p.nround; i++) {
      any |= gr->edges.v[p.round[i]].slot >= 0;
      ok &= heads[gr->edges.v[p.round[i]].dst] == 0;
    }
    if (any && ok) g->promo[n++] = p;
    else free(p.round);
  }
  g->npromo = n;
  free(heads);
}

/* Edge mode, leaving promoted loop k after LOCALk rounds: each counter round the loop gets the
   rounds, one more for those the last round passed before it left. */
static char *settle_edges(Gen *g, int k) {
  const PPPromoted *p = &g->promo[k];
  PPStr s = {0};
  pp_str_addf(&s, "(");
  for (int i = 0; i < p->nround; i++) {
    const PPEdge *e = &g->f->g.edges.v[p->round[i]];
    if (e->slot < 0) continue;
    char *idx = pp_xasprintf("%" PRIu64, g->lay->offset + (uint64_t)e->slot);
    char *n = i < p->nbefore ? pp_xasprintf("(" LOCAL "%d + 1)", k) : pp_xasprintf(LOCAL "%d", k);
    char *add = step(g, idx, false, n);
    pp_str_addf(&s, "%s, ", add);
    free(idx); free(n); free(add);
  }
  pp_str_addf(&s, LOCAL "%d = 0)", k);
  return pp_str_take(&s);
}

/* Edge mode: the promoted loop edge i goes round, or -1. */
static int round_of(const Gen *g, size_t i) {
  for (size_t k = 0; k < g->npromo; k++)
    for (int j = 0; j < g->promo[k].nround; j++)
      if ((size_t)g->promo[k].round[j] == i) return (int)k;
  return -1;
}

/* Edge mode: a chord's counter increment; comp (slot + 1 of the dispatch chord whose counter
   sits after the colon of the label this edge enters, 0 none) is taken back first, because that
   increment runs for every way into the label. */
static char *edge_counter(Gen *g, const PPEdge *e, uint64_t comp) {
  uint64_t off = g->lay->offset;
  int k = round_of(g, (size_t)(e - g->f->g.edges.v));
  if (k >= 0)  /* a promoted loop's: the back edge counts the round in its local, settled at the exit */
    return (size_t)g->promo[k].back == (size_t)(e - g->f->g.edges.v) ? pp_xasprintf(LOCAL "%d++", k) : NULL;
  char *di = pp_xasprintf("%" PRIu64, off + comp - 1), *ii = pp_xasprintf("%" PRIu64, off + (uint64_t)e->slot);
  char *dec = comp ? step(g, di, true, NULL) : NULL, *inc = e->slot >= 0 ? bump(g, ii) : NULL;
  free(di); free(ii);
  if (!dec || !inc) return dec ? dec : inc;
  char *both = pp_xasprintf("%s, %s", dec, inc);
  free(dec); free(inc);
  return both;
}

/* The hooks of an entry into block b: the trace log's, and the osp skip counter's (a decrement
   and a branch; the runtime runs only when it reaches 0). */
static void block_entry(Gen *g, int b, Strs *out) {
  if (g->lay->trace) VEC_PUSH(*out, pp_xasprintf("__pathprof_trace_block(&%s, %d, %d)", g->u, g->lay->fn, b));
  if (g->lay->osp)
    VEC_PUSH(*out, pp_xasprintf("(--__pathprof_osp_skip ? (void)0 : __pathprof_osp_block(&%s, %d, %d))",
                                g->u, g->lay->fn, b));
}

/* What an edge runs: its code (none in osp mode, which counts no paths), the hooks of a
   headless block it enters, the trace of a return. */
static void edge_own(Gen *g, const PPEdge *e, uint64_t comp, Strs *out) {
  const PPGraph *gr = &g->f->g;
  char *code = g->lay->osp ? NULL : g->lay->edge ? edge_counter(g, e, comp) : edge_code(g, e, comp);
  int k = promoted(g, (size_t)(e - gr->edges.v), true);
  if (k >= 0) VEC_PUSH(*out, g->lay->edge ? settle_edges(g, k) : settle(g, k, &gr->edges.v[g->promo[k].back]));
  if (code) VEC_PUSH(*out, code);
  if (gr->blocks.v[e->dst].headless) block_entry(g, e->dst, out);
  if (g->lay->trace && e->kind == EK_EXIT)
    VEC_PUSH(*out, pp_xasprintf("__pathprof_trace_leave(&%s, %d)", g->u, g->lay->fn));
}

/* For each block, its way out when that is a single edge without a site of its own. */
static int *siteless_exits(const PPGraph *gr) {
  int *out = pp_xmalloc(sizeof(int) * gr->blocks.n), *n = pp_xcalloc(gr->blocks.n, sizeof(int));
  for (size_t i = 0; i < gr->edges.n; i++) {
    const PPEdge *e = &gr->edges.v[i];
    if (e->dead || e->kind == EK_DUMMY_ENTRY || e->kind == EK_DUMMY_EXIT) continue;
    n[e->src]++;
    out[e->src] = (int)i;
  }
  for (size_t v = 0; v < gr->blocks.n; v++)
    if (n[v] != 1 || !gr->edges.v[out[v]].no_site) out[v] = -1;
  free(n);
  return out;
}

/* What edge e runs (comp as edge_own takes it), then the edges without a site of their own that
   follow it for sure (their code comes along); whether one of them leaves the function. */
static bool edge_run(Gen *g, const PPEdge *e, uint64_t comp, const uint64_t *heads, const int *follow, Strs *run) {
  const PPGraph *gr = &g->f->g;
  bool leaves = e->kind == EK_EXIT;
  edge_own(g, e, comp, run);
  for (int x = follow[e->dst]; x >= 0; x = follow[gr->edges.v[x].dst]) {
    edge_own(g, &gr->edges.v[x], heads[gr->edges.v[x].dst], run);
    leaves |= gr->edges.v[x].kind == EK_EXIT;
  }
  return leaves;
}

/* Whether block v's way out rides on the edges into it (see hoisted_ends), memoized in end[]:
   -1 not yet known, -2 no, else that edge. Recursion follows forward edges only: it ends. */
static int hoistable(const PPGraph *gr, const bool *ok, const int *out, int *end, int v) {
  if (end[v] == -1) {
    const PPEdge *o = out[v] >= 0 ? &gr->edges.v[out[v]] : NULL;
    bool back = o && (o->kind == EK_BACK || o->kind == EK_CUT);
    end[v] = -2;
    if (ok[v] && o && (back || hoistable(gr, ok, out, end, o->dst) >= 0)) end[v] = out[v];
  }
  return end[v];
}

/* A block that compiles to nothing and leaves by one edge, a back edge or one into another such
   block, has that way's code put on each edge into it instead, after the edge's own increment:
   the compiler then folds the increment into the counter's address (`r += k` on each way in
   and `c[r]++` at the join become `c[r + k]++` on each way in), one add less each round of a
   loop whose body ends in a branch (an interpreter's dispatch switch: interp 1.172 -> 1.164
   instructions, sort 1.246 -> 1.231). Not returns: their copies cost more than they saved
   (demangle +0.5%). Array mode only (a hash-mode end is too much code to copy), without block
   hooks (trace, osp), and only when every way in has a place for code of its own. Per block:
   the edge whose code moved onto the edges into it, else a negative number. */
static int *hoisted_ends(const Gen *g) {
  const PPGraph *gr = &g->f->g;
  const PPLayout *l = g->lay;
  int n = (int)gr->blocks.n, *end = pp_xmalloc(sizeof(int) * (size_t)n), *out = pp_xmalloc(sizeof(int) * (size_t)n);
  bool *ok = pp_xcalloc((size_t)n, sizeof(bool));
  bool array = !l->hash && !l->ppp && !l->kpath && !l->trace && !l->osp && !l->edge;
  for (int v = 0; v < n; v++) {
    const PPBlock *b = &gr->blocks.v[v];
    end[v] = -1;
    out[v] = -1;
    ok[v] = array && b->live && !b->header && v != PP_ENTRY && v != PP_EXIT;
    for (size_t k = 0; k < b->stmts.n; k++) ok[v] &= b->stmts.v[k].nocode;
  }
  for (size_t i = 0; i < gr->edges.n; i++) {
    const PPEdge *e = &gr->edges.v[i];
    if (e->dead || e->kind == EK_DUMMY_ENTRY || e->kind == EK_DUMMY_EXIT) continue;
    bool plain = !e->no_site && !e->dispatch && promoted(g, i, false) < 0 && promoted(g, i, true) < 0;
    bool ends = e->kind == EK_EXIT || e->kind == EK_BACK || e->kind == EK_CUT;
    ok[e->src] &= out[e->src] < 0 && plain;  /* a single way out */
    out[e->src] = (int)i;
    ok[e->dst] &= plain && !ends;
  }
  for (int v = 0; v < n; v++) hoistable(gr, ok, out, end, v);
  free(out); free(ok);
  return end;
}

static void plan_pieces(Gen *g) {
  const PPFunc *f = g->f;
  const PPGraph *gr = &f->g;
  uint64_t *heads = case_heads(g);
  int *follow = siteless_exits(gr);
  /* osp units never register (their samples go to the hot list); a constructor registers the others
     where the target runs constructors, else the first function entry does (with frames, the
     frame's, before any code of the body) */
  if (!g->lay->osp && !g->lay->ctor && (!g->lay->frames || g->lay->lazy_frame))
    piece(g, gr->blocks.v[PP_ENTRY].head, ARM_PRE, P_REGISTER,
          pp_xasprintf("if (!%s.next) __pathprof_register%s(&%s);", g->u, g->lay->relocatable ? "_relocatable" : "", g->u),
          true);
  if (g->lay->edge && g->lay->entry_slot >= 0) {
    char *idx = pp_xasprintf("%" PRIu64, g->lay->offset + (uint64_t)g->lay->entry_slot);
    /* before the leading declarations' first call that may stop, when they make one */
    piece(g, f->entry_init >= 0 ? f->entry_init : gr->blocks.v[PP_ENTRY].head, ARM_PRE, P_EDGE, bump(g, idx), false);
    free(idx);
  }
  for (size_t k = 0; g->lay->edge && k < g->lay->nsplits; k++) {  /* a group's returns, at its split site */
    const PPSplit *sp = &g->lay->splits[k];
    if (sp->slot < 0) continue;
    char *idx = pp_xasprintf("%" PRIu64, g->lay->offset + (uint64_t)sp->slot);
    piece(g, f->calls.v[sp->site - 1].split, ARM_PRE, P_EDGE, bump(g, idx), false);
    free(idx);
  }
  for (size_t b = 0; b < gr->blocks.n; b++)
    if (gr->blocks.v[b].live && gr->blocks.v[b].head >= 0) {
      Strs hooks = {0};
      block_entry(g, (int)b, &hooks);
      for (size_t k = 0; k < hooks.n; k++) piece(g, gr->blocks.v[b].head, ARM_PRE, P_TRACE, hooks.v[k], false);
      VEC_FREE(hooks);
    }
  int *hoist = hoisted_ends(g);
  for (size_t i = 0; i < gr->edges.n; i++) {
    const PPEdge *e = &gr->edges.v[i];
    if (e->dead || e->no_site || e->kind == EK_DUMMY_ENTRY || e->kind == EK_DUMMY_EXIT) continue;
    if (hoist[e->src] == (int)i) continue;  /* on the edges into its block */
    Strs run = {0};
    bool leaves = edge_run(g, e, e->dispatch ? 0 : heads[e->dst], heads, follow, &run);
    for (int v = e->dst; hoist[v] >= 0; v = gr->edges.v[hoist[v]].dst) {
      const PPEdge *h = &gr->edges.v[hoist[v]];
      leaves |= edge_run(g, h, heads[h->dst], heads, follow, &run);
    }
    for (size_t k = 0; k < run.n; k++) piece(g, e->site, e->arm < 0 ? ARM_PRE : e->arm, P_EDGE, run.v[k], false);
    if (g->lay->probe && run.n) g->lay->probe[i] = true;
    VEC_FREE(run);
    /* leaving the function (a return, the end of the body, a call that never returns): its
       path is counted, so its frame leaves the chain */
    if (g->lay->frames && leaves)
      piece(g, e->site, e->arm < 0 ? ARM_PRE : e->arm, P_POP,
            pp_xstrdup(g->lay->lazy_frame ? "__pathprof_pop(&" E ")" : "__pathprof_sp = " E), false);
  }
  free(heads);
  free(follow);
  free(hoist);
}

static int by_site(const void *a, const void *b) {
  const Piece *x = a, *y = b;
  if (x->site != y->site) return x->site - y->site;
  if (x->slot != y->slot) return x->slot - y->slot;
  if (x->prio != y->prio) return x->prio - y->prio;
  return x->seq - y->seq;
}

/* Pieces of one slot as a comma expression (or statements when stmt is set). */
static char *join(const Piece *p, size_t n, int slot, bool stmt) {
  PPStr s = {0};
  for (size_t i = 0; i < n; i++) {
    if (p[i].slot != slot) continue;
    if (stmt) pp_str_addf(&s, "%s%s ", p[i].text, p[i].is_stmt ? "" : ";");
    else pp_str_addf(&s, "%s%s", s.n ? ", " : "", p[i].text);
  }
  if (!s.n) return NULL;
  return pp_str_take(&s);
}

/* Code inside an expression nests inside every statement-level edit (synthetic braces, code
   before a statement) at the same offset: it opens after them and closes before them. */
enum { LVL_EXPR = 1 << 20 };

static void edit(PPEdits *ed, unsigned off, int side, int lvl, bool code, char *text) {
  int rank = 2 * lvl + (code ? 1 : 0);
  PPEdit e = { off, side, side == SIDE_CLOSE ? -rank : rank, (int)ed->n, text };
  VEC_PUSH(*ed, e);
}

/* Loop pragmas (#pragma GCC unroll, omp for, _Pragma from macros) must stay right before their
   loop, so code meant for the position before a statement hops above the pragma lines that
   precede it; a line marker after it restores the line numbering. */
static unsigned above_pragmas(const char *text, unsigned off, char **marker) {
  bool found;
  unsigned top = pp_pragma_top(text, off, &found);
  *marker = NULL;
  if (!found) return off;
  /* the presumed position of line `top`: the last line marker before it, plus lines since */
  unsigned m = top, lines = 0;
  while (m > 0) {
    unsigned ls = m - 1;
    while (ls > 0 && text[ls - 1] != '\n') ls--;
    if (text[ls] == '#' && text[ls + 1] == ' ' && isdigit((unsigned char)text[ls + 2])) {
      unsigned long line;
      int flags[4] = {0}, nf = 0, name = 0;
      const char *p = text + ls + 2, *q;
      if (sscanf(p, "%lu \"%n", &line, &name) != 1 || !name) break;
      for (q = p + name; *q && *q != '"' && *q != '\n'; q += *q == '\\' && q[1] ? 2 : 1) {}  /* escapes kept */
      if (*q != '"') break;
      char *file = pp_xasprintf("%.*s", (int)(q - (p + name)), p + name);  /* a name of any length */
      p = q + 1;
      while (nf < 4 && sscanf(p, " %d", &flags[nf]) == 1) { nf++; while (*p == ' ') p++; while (isdigit((unsigned char)*p)) p++; }
      bool sys = false;
      for (int i = 0; i < nf; i++) sys |= flags[i] == 3;
      *marker = pp_xasprintf("\n# %lu \"%s\"%s\n", line + lines, file, sys ? " 3" : "");
      free(file);
      return top;
    }
    lines++;
    m = ls;
  }
  return off;  /* no marker to restate: leave the code where it was */
}

/* Turns the pieces of one site into text around or at its position; mark is the fallthrough
   annotation for code between a statement-less block's label and the next case label. */
static void emit_site(PPEdits *ed, const PPFunc *f, int si, const Piece *p, size_t n, const char *mark) {
  const PPSite *s = &f->sites.v[si];
  char *pre = join(p, n, ARM_PRE, s->kind == SK_STMT || s->kind == SK_DEFAULT);
  char *t = join(p, n, ARM_TRUE, false), *fl = join(p, n, ARM_FALSE, false), *post = join(p, n, ARM_POST, false);
  switch (s->kind) {
  case SK_STMT:
    if (pre) {
      char *marker = NULL;
      unsigned off = s->side == SIDE_OPEN ? above_pragmas(f->text, s->off, &marker) : s->off;
      edit(ed, off, s->side, s->lvl, true, pp_xasprintf(" %s%s%s", pre, s->fall_mark ? mark : "", marker ? marker : ""));
      free(marker);
    }
    break;
  case SK_DEFAULT:
    if (pre) edit(ed, s->off, s->side, s->lvl, true,
                  pp_xasprintf("%s default: %s", f->g.blocks.v[s->block].live ? " break;" : "", pre));
    break;
  case SK_COND:
    if (t || fl) {
      edit(ed, s->off, SIDE_OPEN, LVL_EXPR, true, pp_xasprintf("((%s%s", pre ? pre : "", pre ? ", " : ""));
      edit(ed, s->end, SIDE_CLOSE, LVL_EXPR, true, pp_xasprintf(") ? %s%s%s : %s%s%s)",
           t ? "(" : "1", t ? t : "", t ? ", 1)" : "", fl ? "(" : "0", fl ? fl : "", fl ? ", 0)" : ""));
    } else if (pre) {
      edit(ed, s->off, SIDE_OPEN, LVL_EXPR, true, pp_xasprintf("(%s, ", pre));
      edit(ed, s->end, SIDE_CLOSE, LVL_EXPR, true, pp_xstrdup(")"));
    }
    break;
  case SK_EXPR:
  case SK_FORINC:
    if (s->off == s->end) {  /* empty increment */
      if (pre || post)
        edit(ed, s->off, SIDE_OPEN, LVL_EXPR, true, pp_xasprintf("(%s%s%s)", pre ? pre : "", pre && post ? ", " : "", post ? post : ""));
    } else if (pre || post) {
      edit(ed, s->off, SIDE_OPEN, LVL_EXPR, true, pp_xasprintf("(%s%s", pre ? pre : "", pre ? ", " : ""));
      edit(ed, s->end, SIDE_CLOSE, LVL_EXPR, true, pp_xasprintf("%s%s)", post ? ", " : "", post ? post : ""));
    }
    break;
  case SK_FORCOND:
    if (pre || post)
      edit(ed, s->off, SIDE_OPEN, LVL_EXPR, true, pp_xasprintf("(%s%s%s, 1)", pre ? pre : "", pre && post ? ", " : "", post ? post : ""));
    break;
  }
  free(pre); free(t); free(fl); free(post);
}

/* Where the rounds of promoted loops count: by Ball-Larus id in path mode's array; in ppp slots
   the round path's slot, whose expected register value holds its PPP id above the Ball-Larus
   id. A loop whose round path is not interesting (residual every round) is not promoted. */
static void round_slots(Gen *g) {
  const PPLayout *l = g->lay;
  size_t n = 0;
  for (size_t k = 0; k < g->npromo; k++) {
    PPPromoted p = g->promo[k];
    uint64_t mask = l->bits ? (1ULL << l->bits) - 1 : 0, q;
    p.value = p.slot = p.path;
    if (l->ppp) {
      for (q = 0; q < l->slots && !((l->expect[q] & mask) == p.path && l->expect[q] >> l->bits == q); q++) {}
      if (q == l->slots) { free(p.round); continue; }
      p.value = l->expect[q];
      p.slot = q;
    }
    g->promo[n++] = p;
  }
  g->npromo = n;
}

int pp_rewrite_function(PPEdits *ed, const PPFunc *f, const PPLayout *lay, const bool *zero) {
  Gen g = { .f = f, .lay = lay, .zero = zero, .suffix = lay->wide ? "ULL" : "UL",
            .u = lay->counter_bits == 32 ? "__pathprof_u.base" : "__pathprof_u" };
  /* after a longjmp, a non-volatile local may hold any value: setjmp callers keep memory counts */
  if (lay->promote && !f->calls_setjmp) {
    g.npromo = pp_promote_loops(&f->g, &g.promo);
    if (lay->edge) round_chords(&g);
    else round_slots(&g);
  }
  plan_pieces(&g);
  pp_sort(g.pieces.v, g.pieces.n, sizeof(Piece), by_site);
  int probes = 0;
  for (size_t i = 0, j; i < g.pieces.n; i = j) {
    for (j = i; j < g.pieces.n && g.pieces.v[j].site == g.pieces.v[i].site; j++) {}
    emit_site(ed, f, g.pieces.v[i].site, g.pieces.v + i, j - i, lay->fall_mark);
    for (size_t k = i; k < j; k++) probes += g.pieces.v[k].prio == P_EDGE;
  }
  for (size_t i = 0; i < f->braces.n; i++) {
    edit(ed, f->braces.v[i].open, SIDE_OPEN, f->braces.v[i].lvl, false, pp_xstrdup("{"));
    edit(ed, f->braces.v[i].close, SIDE_CLOSE, f->braces.v[i].lvl, false, pp_xstrdup("}"));
  }
  if (g.uses_b) /* the thread's identity holds for the activation: its base is read once; before
                   any code at this offset, even the count that closes an empty body (`{}`) */
    ranked(ed, f->body_open, SIDE_CLOSE, (1 << 30) + 1,
           pp_xasprintf(" %sunsigned long long *" B " = __pathprof_g();", lay->ext));
  for (size_t i = 0; i < f->seqs.n; i++) {  /* inside a condition's wrap, outside a call's */
    const PPSeq *s = &f->seqs.v[i];
    int rank = (1 << 28) + (int)i;           /* an inner one ending with its outer closes first */
    ranked(ed, s->a, SIDE_OPEN, rank, pp_xasprintf("(__pathprof_s%zu = (", i));
    ranked(ed, s->a_end, SIDE_CLOSE, rank, pp_xasprintf("), __pathprof_s%zu", i));
    ranked(ed, s->end, SIDE_CLOSE, rank, pp_xstrdup(")"));
    edit(ed, f->body_open, SIDE_OPEN, 0, true, pp_xasprintf(" int __pathprof_s%zu;", i));
  }
  if (g.uses_r)
    edit(ed, f->body_open, SIDE_OPEN, 0, true,
         pp_xasprintf(" %s%sunsigned %s " R " = 0;", lay->wide ? lay->ext : "", f->calls_setjmp ? "volatile " : "",
                      lay->wide ? "long long" : "long"));
  if (g.uses_q)
    edit(ed, f->body_open, SIDE_OPEN, 0, true, pp_xasprintf(" %sunsigned long long *" Q ";", lay->ext));
  for (size_t k = 0; k < g.npromo; k++)
    edit(ed, f->body_open, SIDE_OPEN, 0, true, pp_xasprintf(" %sunsigned long long " LOCAL "%zu = 0;", lay->ext, k));
  pp_promote_free(g.promo, g.npromo);
  if (lay->frames) frame_edits(ed, f, lay, &g);
  if (g.uses_ka) /* the activation's stream state: its initialisation is the routine-entry marker */
    edit(ed, f->body_open, SIDE_OPEN, 0, true,
         pp_xasprintf(" static void *__pathprof_kc; static const struct __pathprof_kfn __pathprof_kf = { &%s, %dUL, %uUL, &__pathprof_kc };"
                      " struct __pathprof_ka " KA " = { &__pathprof_kf, 0UL, 0, 0, 0 };", g.u, lay->fn, lay->kpath - 1));
  for (size_t i = 0; i < g.pieces.n; i++) free(g.pieces.v[i].text);
  VEC_FREE(g.pieces);
  return probes;
}

/* An edit at an exact rank: open edits of lower rank enclose those of higher rank. */
static void ranked(PPEdits *ed, unsigned off, int side, int rank, char *text) {
  PPEdit e = { off, side, side == SIDE_CLOSE ? -rank : rank, (int)ed->n, text };
  VEC_PUSH(*ed, e);
}

/* Frames (doc/formats.md section 1): the activation takes the next frame of its thread's stack
   (an array the runtime grows) before any code of the body, its unit registering there too; it
   gives the frame back wherever its path ends for good. Before each call the frame records the
   call's site and the path register, so an activation that stops in the call (exit, longjmp, a
   fault) leaves its partial path. No frame is a local: tail calls stay tail calls. A setjmp's
   value passes through __pathprof_sjret, which restores the path as it was at the setjmp when a
   longjmp returns. */
static void frame_edits(PPEdits *ed, const PPFunc *f, const PPLayout *lay, const Gen *g) {
  unsigned long fn = (unsigned long)lay->fn << PP_SITE_BITS;
  /* before any code at this offset, even what closes there (an empty body's end): the unit
     registers (unless a constructor did), the frame is taken (__pathprof_new: r 0, what the
     runtime reads for a function that keeps no register, its marks storing none) and marked at
     site 0. A lazy frame is linked at the first marked call instead: activations that make none
     pay nothing. */
  char *open;
  if (lay->lazy_frame) open = pp_xstrdup(" struct __pathprof_frame *" E " = 0;");
  else {
    const char *reg = lay->relocatable ? "__pathprof_register_relocatable" : "__pathprof_register";
    char *regs = lay->ctor ? pp_xstrdup("") : pp_xasprintf("%s.next ? (void)0 : %s(&%s), ", g->u, reg, g->u);
    open = pp_xasprintf(" struct __pathprof_frame *" E " = (%s__pathprof_new()); unsigned long __pathprof_fs%s = ("
                        E "->fs = %luUL);", regs, *lay->ext ? " __attribute__((__unused__))" : "", fn);
    free(regs);
  }
  ranked(ed, f->body_open, SIDE_CLOSE, 1 << 30, open);
  for (size_t k = 0; k < f->calls.n; k++) {
    const PPCall *c = &f->calls.v[k];
    if (!c->mark) continue;
    unsigned long site = k + 1 < PP_SITE_LAST ? (unsigned long)k + 1 : PP_SITE_LAST;
    const char *lz = lay->lazy_frame ? "l(&" : "(";
    char *at = g->uses_r ? pp_xasprintf("__pathprof_atr%s" E ", %luUL, " R ")", lz, fn | site)
                         : pp_xasprintf("__pathprof_at%s" E ", %luUL)", lz, fn | site);
    int rank = (1 << 29) + c->depth;
    if (c->setjmp) {
      ranked(ed, c->off, SIDE_OPEN, rank, pp_xasprintf("(%s, __pathprof_sjmark(" E "), "
             "__pathprof_sjret(" E ", %s, %d, ", at, g->uses_r ? "&" R : "0",
             (lay->wide ? 1 : 0) | (c->builtin_setjmp ? 2 : 0)));
      ranked(ed, c->end, SIDE_CLOSE, rank, pp_xstrdup("))"));
    } else {
      ranked(ed, c->off, SIDE_OPEN, rank, pp_xasprintf("(%s, ", at));
      ranked(ed, c->end, SIDE_CLOSE, rank, pp_xstrdup(")"));
    }
    free(at);
  }
}

static int by_position(const void *a, const void *b) {
  const PPEdit *x = a, *y = b;
  if (x->off != y->off) return x->off < y->off ? -1 : 1;
  if (x->side != y->side) return x->side - y->side;
  if (x->rank != y->rank) return x->rank - y->rank;
  return x->seq - y->seq;
}

/* The prelude goes after the first line when that is a line marker naming the main file
   (compilers take the main file's name from it), followed by that marker again so the
   lines after it keep their numbers. */
char *pp_rewrite_apply(const char *text, size_t len, PPEdits *ed, const char *prelude, size_t *outlen) {
  if (prelude) {
    size_t nl = 0;
    while (nl < len && text[nl] != '\n') nl++;
    bool marker = len > 0 && text[0] == '#' && nl < len;
    PPEdit e = { marker ? (unsigned)nl + 1 : 0, SIDE_OPEN, -1000000, -1,
                 marker ? pp_xasprintf("%s%.*s", prelude, (int)(nl + 1), text) : pp_xstrdup(prelude) };
    VEC_PUSH(*ed, e);
  }
  pp_sort(ed->v, ed->n, sizeof(PPEdit), by_position);
  PPStr out = {0};
  size_t pos = 0;
  for (size_t i = 0; i < ed->n; i++) {
    pp_str_addn(&out, text + pos, ed->v[i].off - pos);
    pos = ed->v[i].off;
    pp_str_add(&out, ed->v[i].text);
  }
  pp_str_addn(&out, text + pos, len - pos);
  *outlen = out.n;
  return pp_str_take(&out);
}

void pp_edits_free(PPEdits *ed) {
  for (size_t i = 0; i < ed->n; i++) free(ed->v[i].text);
  VEC_FREE(*ed);
}
