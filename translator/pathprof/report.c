/* pathprof report and dump: hot paths decoded to source lines, and a profile's raw content. */
#include "commands.h"
#include "uninst.h"
#include "model/load.h"
#include "model/number.h"
#include "model/kipf.h"
#include "model/pathkey.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* ---- report ---- */

typedef struct { const PPFuncView *f; uint64_t id, count; } Hot;

static int hot_cmp(const void *a, const void *b) {
  const Hot *x = a, *y = b;
  return x->count != y->count ? (x->count > y->count ? -1 : 1) : 0;
}

static int busy_cmp(const void *a, const void *b) {
  const PPFuncView *x = *(const PPFuncView *const *)a, *y = *(const PPFuncView *const *)b;
  return x->total != y->total ? (x->total > y->total ? -1 : 1) : 0;
}

/* A function's executed paths as print_function shows them: by[] their lines with their index,
   sorted by lines (the paths that print alike sit together), at[i] where path i stands in by[],
   and keys[i] path i's key, made once when first needed (a key decodes the path). */
typedef struct { char *lines; size_t i; } ByLines;
typedef struct { const PPFuncView *v; ByLines *by; size_t *at; char **keys; } Texts;

static int lines_cmp(const void *x, const void *y) {
  const ByLines *a = x, *b = y;
  int c = strcmp(a->lines, b->lines);
  return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

/* Path i's key, decoded on first use and kept: each is asked for by every look-alike path. */
static const char *key_of(Texts *t, size_t i) {
  const PPTabFunc *f = &t->v->u->tab.funcs.v[t->v->fn];
  if (!t->keys[i]) t->keys[i] = pp_path_key(&t->v->u->tab, f, t->v->paths[i].id);
  return t->keys[i];
}

/* The text of executed path i: its lines, and when another executed path of the function runs
   through the same lines, the decisions that tell them apart ("{12:9=F}": line 12, column 9,
   false), which way each goes on that line. Only the paths of its group are looked at. */
static char *path_text(Texts *t, size_t i) {
  size_t s = t->at[i], e = s + 1;
  const char *lines = t->by[s].lines;
  while (s > 0 && !strcmp(t->by[s - 1].lines, lines)) s--;
  while (e < t->v->n && !strcmp(t->by[e].lines, lines)) e++;
  if (e - s == 1) return pp_xstrdup(lines);
  VEC(const char *) same = {0};
  for (size_t k = s; k < e; k++)
    if (t->by[k].i != i) VEC_PUSH(same, key_of(t, t->by[k].i));
  const char *key = key_of(t, i);
  char *d = pp_key_difference(key, same.v, same.n);
  char *text = pp_xasprintf("%s {%s}", lines, *d ? d : key);
  VEC_FREE(same);
  free(d);
  return text;
}

/* The partial paths of activations that never finished (a negative count takes back a prefix
   an earlier write counted: the activation went on, or a longjmp came back to its setjmp). */
static void print_partials(const PPFuncView *v, size_t top) {
  const PPTabFunc *f = &v->u->tab.funcs.v[v->fn];
  int64_t net = 0;
  for (size_t i = 0; i < v->nparts; i++) net += v->parts[i].count;
  if (!v->nparts && !v->bad_parts) return;
  printf("  partial paths: %" PRId64 " activation%s never finished\n", net, net == 1 ? "" : "s");
  for (size_t i = 0; i < v->nparts && i < top; i++) {
    char *lines = pp_partial_lines(&v->u->tab, f, &v->parts[i]);
    printf("  %12" PRId64 "         #%-6" PRIu64 " %s\n", v->parts[i].count, v->parts[i].id, lines);
    free(lines);
  }
  if (v->nparts > top) printf("  ... %zu more partial paths\n", v->nparts - top);
  if (v->bad_parts) printf("  !! %" PRIu64 " partial paths name no prefix of the function's paths\n", v->bad_parts);
}

static void print_function(const PPFuncView *v, size_t top) {
  const PPTabFunc *f = &v->u->tab.funcs.v[v->fn];
  printf("\n%s (%s:%u-%u): %" PRIu64 " path executions, %zu of %" PRIu64 " paths executed, ", f->name,
         pp_base_name(v->u->tab.files.v[f->file]), f->line, f->end_line, v->total, v->n, f->g.npaths);
  if (f->derived) printf("counted from its callers' paths");
  else printf("%d probes on %d edges%s", f->probes, f->cfg_edges, f->hash ? ", hash table" : "");
  if (f->ppp) printf(", %zu interesting in %" PRIu64 " ppp slots", f->num.n, f->ppp_array ? f->num.slots : 0);
  if (v->copies > 1) printf(", compiled into %d units", v->copies);
  printf("\n");
  if (v->overflow) printf("  !! %" PRIu64 " path ends with an out-of-range register (overflow)\n", v->overflow);
  Texts t = { v, pp_xcalloc(v->n + 1, sizeof *t.by), pp_xcalloc(v->n + 1, sizeof *t.at), pp_xcalloc(v->n + 1, sizeof *t.keys) };
  for (size_t i = 0; i < v->n; i++) {
    t.by[i].lines = pp_path_lines(&v->u->tab, f, v->paths[i].id);
    t.by[i].i = i;
  }
  pp_sort(t.by, v->n, sizeof *t.by, lines_cmp);
  for (size_t k = 0; k < v->n; k++) t.at[t.by[k].i] = k;
  for (size_t i = 0; i < v->n && i < top; i++) {
    char *text = path_text(&t, i);
    printf("  %12" PRIu64 " %6.1f%%  #%-6" PRIu64 " %s\n", v->paths[i].count,
           100.0 * (double)v->paths[i].count / (double)v->total, v->paths[i].id, text);
    free(text);
  }
  for (size_t i = 0; i < v->n; i++) { free(t.by[i].lines); free(t.keys[i]); }
  free(t.by); free(t.at); free(t.keys);
  if (v->n > top) printf("  ... %zu more executed paths\n", v->n - top);
  print_partials(v, top);
}

static void print_hottest(const PPFuncView *v, size_t nv, const char *only, size_t top) {
  VEC(Hot) hot = {0};
  for (size_t i = 0; i < nv; i++)
    for (size_t k = 0; k < v[i].n; k++) {
      Hot h = { &v[i], v[i].paths[k].id, v[i].paths[k].count };
      if (!only || !strcmp(only, v[i].u->tab.funcs.v[v[i].fn].name)) VEC_PUSH(hot, h);
    }
  pp_sort(hot.v, hot.n, sizeof *hot.v, hot_cmp);
  printf("\nHottest paths%s%s\n  %12s %6s  %-24s %s\n", only ? " of " : "", only ? only : "", "count", "%fn", "function", "path (lines)");
  for (size_t i = 0; i < hot.n && i < top; i++) {
    const PPFuncView *fv = hot.v[i].f;
    const PPTabFunc *f = &fv->u->tab.funcs.v[fv->fn];
    char *where = pp_xasprintf("%s (%s:%u)", f->name, pp_base_name(fv->u->tab.files.v[f->file]), f->line);
    char *lines = pp_path_lines(&fv->u->tab, f, hot.v[i].id);
    printf("  %12" PRIu64 " %5.1f%%  %-24s #%" PRIu64 " %s\n", hot.v[i].count,
           100.0 * (double)hot.v[i].count / (double)fv->total, where, hot.v[i].id, lines);
    free(where);
    free(lines);
  }
  VEC_FREE(hot);
}

/* Array counters of a 32-bit unit that reached 2^32-1: the counts they give are lower bounds. */
static size_t saturated(const PPLoadedUnit *u) {
  size_t n = 0;
  for (unsigned long long k = 0; u->tab.counter_bits == 32 && k < u->rec->ncounters; k++)
    n += u->rec->counters[k] >= 0xffffffffULL;
  return n;
}

static int run_report(int argc, char **argv);

static const PPOpt report_opts[] = {
  { "top", 0, "N", "list the N hottest paths of the program and of each function (default 10)" },
  { "function", 0, "NAME", "only the function NAME" },
  { "test", 0, "NAME", "one test's counts (PATHPROF_TEST=NAME runs) instead of the totals" },
  { "root", 0, "DIR", "also list the units built but never run whose tables are under DIR (by default only "
                      "the profile's own units)" },
  { "strict", 0, NULL, "units without tables (a deleted test program) are an error (exit 1) instead of a warning" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_report = {
  "report", "[--top N] [--function NAME] [--test NAME] [--root DIR] [--strict] [PROFILE]", "hot paths with their source lines",
  "The hottest paths of the program and of each function, each as the source lines it runs through: "
  "count, share of the function's path executions, the path id and its lines. [loop] marks a path that "
  "starts at a loop head, [back] one that ends by taking a back edge. Partial paths are the prefixes of "
  "activations that never finished (exit, abort, a fatal signal, longjmp, exec). The program's units that "
  "ran none of their functions are listed at the end (with --root, also units whose tables are found there).",
  report_opts, run_report,
};

/* A unit none of whose functions ran: found by its tables only, or registered (from its
   constructor) without counting anything. A unit with no functions (data only) has nothing to
   run. */
static bool never_ran(const PPLoadedUnit *u) {
  if (!u->tab.funcs.n) return false;
  if (u->unrun) return true;
  for (unsigned long long k = 0; k < u->rec->ncounters; k++)
    if (u->rec->counters[k]) return false;
  for (size_t fn = 0; fn < u->tab.funcs.n; fn++)  /* kpath functions count in their forests */
    if (pp_profile_forest(u->prof, u->rec->checksum, (unsigned long long)fn)) return false;
  return !u->rec->nhash && !u->rec->npart && !u->rec->dropped;
}

static int run_report(int argc, char **argv) {
  unsigned long long topn = 10;
  const char *only = NULL, *file = NULL, *arg, *test = NULL, *root = NULL;
  bool strict = false;
  PPCli cli;
  int r;
  pp_cli_begin(&cli, &pp_command_report, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    if (r == 1) only = arg;
    else if (r == 2) test = arg;
    else if (r == 3) root = arg;
    else if (r == 4) strict = true;
    else if (pp_cli_count(&pp_command_report, "--top", arg, 1ULL << 40, &topn)) return pp_cli_status(&cli, PP_CLI_BAD);
  }
  int n;
  char **ops = pp_cli_operands(&cli, &n);
  if (n > 1) { fprintf(stderr, "pathprof report: one profile at a time (merge them first: pathprof merge)\n"); return 2; }
  if (n) file = ops[0];
  size_t top = (size_t)topn;
  file = pp_profile_name(file);
  PPLoaded l;
  if (pp_load_test(file, test, &l)) return 1;
  int unrun = root ? pp_load_unrun(&l, root) : 0, idle = 0;  /* the profile's program, unless asked */
  for (size_t i = 0; i < l.units.n; i++) idle += never_ran(&l.units.v[i]);
  if (l.missing && !strict)
    fprintf(stderr, "pathprof report: %d unit%s of %s left out (no tables; --strict makes this an error)\n", l.missing,
            l.missing > 1 ? "s" : "", file);
  size_t nv;
  PPFuncView *v = pp_program_functions(&l, &nv);
  uint64_t all = 0;
  for (size_t i = 0; i < nv; i++) all = pp_sat_add(all, v[i].total);
  printf("pathprof report: %s: %zu units, %zu functions, %" PRIu64 " path executions\n", file, l.units.n - (size_t)unrun, nv,
         all);
  for (size_t i = 0; i < l.units.n; i++)
    if (l.units.v[i].rec->dropped)
      printf("!! %s: %llu path ends were not counted: the hash table (%lu entries) was full; rebuild with a larger "
             "pathcc --hash-cap\n", l.units.v[i].tab.source, l.units.v[i].rec->dropped, l.units.v[i].tab.hash_cap);
  for (size_t i = 0; i < l.units.n; i++) {
    size_t sat = saturated(&l.units.v[i]);
    if (sat)
      printf("!! %s: %zu path counts reached 2^32-1 in 32-bit counters (pathcc --counter-bits=32): they are lower "
             "bounds\n", l.units.v[i].tab.source, sat);
  }
  size_t edge_fns = 0;
  for (size_t i = 0; i < nv; i++) edge_fns += v[i].edges != NULL;
  if (edge_fns)
    printf("%zu function%s profiled in edge mode count%s no paths: pathprof coverage shows their edge, block and "
           "line counts\n", edge_fns, edge_fns > 1 ? "s" : "", edge_fns > 1 ? "" : "s");
  print_hottest(v, nv, only, top);
  /* the busiest functions, each with its hottest paths */
  VEC(const PPFuncView *) busy = {0};
  bool known = !only;
  for (size_t i = 0; i < nv; i++) {
    bool named = only && !strcmp(only, v[i].u->tab.funcs.v[v[i].fn].name);
    known |= named;
    if ((v[i].total || v[i].overflow || v[i].nparts) && (!only || named)) VEC_PUSH(busy, &v[i]);
  }
  pp_sort(busy.v, busy.n, sizeof *busy.v, busy_cmp);
  if (!only && busy.n > top) printf("\nThe %zu busiest of %zu executed functions:\n", top, busy.n);
  for (size_t i = 0; i < busy.n && (only || i < top); i++) print_function(busy.v[i], top);
  VEC_FREE(busy);
  known |= pp_uninst_print(stdout, &l, only);  /* once per report, by reason; with --function, its own */
  if (idle) {
    printf("\nbuilt but never run: %d unit%s\n", idle, idle > 1 ? "s" : "");
    for (size_t i = 0; i < l.units.n; i++)
      if (never_ran(&l.units.v[i])) printf("  %s (%zu functions)\n", l.units.v[i].tab.source, l.units.v[i].tab.funcs.n);
  }
  if (!known) fprintf(stderr, "pathprof report: %s: no instrumented function named '%s'\n", file, only);
  int rc = (strict && l.missing) || !known ? 1 : 0;
  pp_program_free(v, nv);
  pp_loaded_free(&l);
  return rc;
}

/* ---- dump ---- */

/* "K <checksum> <fn> <count> <blocks>:<E|B>;..." for every n-gram of a kpath function's k-IPF
   with a count (the oracle's input, regress/oracle.py --kpaths). */
static void dump_kpaths(const PPLoadedUnit *u, int fn) {
  const PPTabFunc *f = &u->tab.funcs.v[fn];
  const struct pp_forest *kf = pp_profile_forest(u->prof, u->rec->checksum, (unsigned long long)fn);
  if (!f->kpath || !kf) return;
  PPKipf t;
  pp_kipf_build(kf, kf->k, &t);
  int cap = (int)f->g.blocks.n + 2, *blocks = pp_xmalloc(sizeof(int) * (size_t)cap);
  uint64_t *ids = pp_xmalloc(sizeof *ids * (kf->k + 1));
  for (size_t i = 0; i < t.nodes.n; i++) {
    if (!t.nodes.v[i].count) continue;
    int n = pp_kipf_ngram(&t, (int)i, ids, (int)kf->k + 1);
    printf("K %016llx %d %" PRIu64 " ", u->rec->checksum, fn, t.nodes.v[i].count);
    for (int j = 0; j < n; j++) {
      bool from, to;
      int nb = pp_path_blocks(&f->g, ids[j], blocks, cap, &from, &to);
      if (j) printf(";");
      if (nb < 0) printf("#%" PRIu64, ids[j]);
      for (int b = 0; b < nb; b++) printf("%s%d", b ? "," : "", blocks[b]);
      if (nb >= 0) printf(":%s", to ? "B" : "E");
    }
    printf("\n");
  }
  if (kf->dropped) printf("KD %016llx %d %llu\n", u->rec->checksum, fn, kf->dropped);
  free(ids);
  free(blocks);
  pp_kipf_free(&t);
}

/* "Q <checksum> <fn> <count> <b1,...,bk> <site>" for every partial path (the blocks of its
   prefix, the last the one it stopped in; a negative count takes a prefix back) and
   "QX <checksum> <fn> <count>" for those that name no prefix. */
static void dump_partials(const PPLoadedUnit *u, int fn) {
  const PPTabFunc *f = &u->tab.funcs.v[fn];
  bool edge = pp_tables_edge_mode(&u->tab);
  int *es = pp_xmalloc(sizeof(int) * (f->g.edges.n + 1));
  uint64_t *d = NULL;
  for (unsigned long long i = 0; i < u->rec->npart; i++) {
    const struct pp_part *p = &u->rec->part[i];
    uint64_t id;
    if (p->fn == (unsigned long long)fn && !d) d = pp_partial_offsets(f);  /* once for all the function's */
    int k = p->fn == (unsigned long long)fn ? pp_partial_decode(u, f, d, p, es, &id) : -2;
    if (k == -2) continue;
    if (edge && k >= 0) {  /* the block it stopped in */
      printf("QE %016llx %d %lld %d %llu\n", u->rec->checksum, fn, p->count, k, p->site);
      continue;
    }
    if (k < 0) { printf("QX %016llx %d %lld\n", u->rec->checksum, fn, p->count); continue; }
    printf("Q %016llx %d %lld ", u->rec->checksum, fn, p->count);
    bool from_loop = k > 0 && f->g.edges.v[es[0]].kind == EK_DUMMY_ENTRY, before = (p->site & PP_SITE_BEFORE) != 0;
    if (before && k == 0) printf("-");  /* a path taken back before the first block of its own */
    else if (!from_loop) printf("%d", PP_ENTRY);
    for (int j = 0; j < k; j++) printf("%s%d", j || !from_loop ? "," : "", f->g.edges.v[es[j]].dst);
    printf(" %llu\n", p->site);
  }
  free(es);
  free(d);
}

static void dump_decoded(const PPLoaded *l) {
  for (size_t i = 0; i < l->units.n; i++) {
    const PPLoadedUnit *u = &l->units.v[i];
    for (size_t fn = 0; fn < u->tab.funcs.n; fn++) {
      const PPTabFunc *f = &u->tab.funcs.v[fn];
      size_t n;
      uint64_t ovf;
      PPPathCount *p = pp_function_paths(u, (int)fn, &n, &ovf);
      int cap = (int)f->g.blocks.n + 2, *blocks = pp_xmalloc(sizeof(int) * (size_t)cap);
      for (size_t k = 0; k < n; k++) {
        bool from, to;
        int nb = pp_path_blocks(&f->g, p[k].id, blocks, cap, &from, &to);
        printf("P %016llx %zu %" PRIu64 " ", u->rec->checksum, fn, p[k].count);
        for (int b = 0; b < nb; b++) printf("%s%d", b ? "," : "", blocks[b]);
        printf(" %s\n", to ? "B" : "E");
      }
      if (ovf) printf("O %016llx %zu %" PRIu64 "\n", u->rec->checksum, fn, ovf);
      dump_partials(u, (int)fn);
      dump_kpaths(u, (int)fn);
      free(blocks);
      free(p);
    }
    if (u->rec->dropped) printf("D %016llx %llu\n", u->rec->checksum, u->rec->dropped);
  }
}

/* A unit record's counts, indented by pad. */
static void dump_unit(const struct pp_unitrec *u, const char *pad) {
  printf("%sunit %016llx %s\n%s  counters %llu, hash entries %llu, dropped %llu\n", pad, u->checksum, u->name, pad,
         u->ncounters, u->nhash, u->dropped);
  for (unsigned long long k = 0; k < u->ncounters; k++)
    if (u->counters[k]) printf("%s  [%llu] %llu\n", pad, k, u->counters[k]);
  for (unsigned long long k = 0; k < u->nhash; k++)
    printf("%s  fn %llu path %llu: %llu\n", pad, u->hash[k].fn, u->hash[k].id, u->hash[k].count);
  for (unsigned long long k = 0; k < u->npart; k++)
    printf("%s  fn %llu stopped at site %llu with register %llu: %lld\n", pad, u->part[k].fn, u->part[k].site,
           u->part[k].r, u->part[k].count);
}

static void dump_raw(const char *file, const struct pp_profile *p) {
  printf("profile %s: %zu units%s\n", file, p->nunits, p->ntests ? " (the totals of every test and run)" : "");
  for (size_t i = 0; i < p->nunits; i++) dump_unit(&p->units[i], "");
  for (size_t t = 0; t < p->ntests; t++) {
    printf("test '%s': %zu units\n", p->tests[t].name, p->tests[t].nunits);
    for (size_t i = 0; i < p->tests[t].nunits; i++) dump_unit(&p->tests[t].units[i], "  ");
  }
  if (p->part_dropped)
    printf("partial paths not kept (the program's pool was full): %llu\n", p->part_dropped);
  if (p->osp)
    printf("osp hot list: %llu subpaths (%llu blocks), rate %llu, memory %llu of %llu bytes "
           "(see pathprof hot-subpaths)\n", p->osp->nentries, p->osp->nblocks, p->osp->rate, p->osp->used, p->osp->memory);
  for (size_t i = 0; i < p->nforests; i++) {
    const struct pp_forest *f = &p->forests[i];
    printf("k-slab forest %016llx fn %llu, k %lu: %llu nodes, dropped %llu\n", f->checksum, f->fn, f->k, f->nnodes,
           f->dropped);
    for (unsigned long long k = 0; k < f->nnodes; k++)
      printf("  %*s#%llu: %llu\n", (int)(2 * f->nodes[k].depth), "", f->nodes[k].label, f->nodes[k].count);
  }
}

static void dump_tables(const PPTables *t) {
  printf("tables %016" PRIx64 " for %s, mode %s, %" PRIu64 " counters\n", t->checksum, t->source, t->mode, t->ncounters);
  for (size_t i = 0; i < t->funcs.n; i++) {
    const PPTabFunc *f = &t->funcs.v[i];
    printf("function %zu %s (%s:%u-%u): %" PRIu64 " paths, %s", i, f->name, t->files.v[f->file], f->line, f->end_line,
           f->g.npaths, f->derived ? "derived" : f->hash ? "hash" : "array");
    if (!f->hash && !f->derived) printf(" at %" PRIu64, f->offset);
    printf(", %d probes on %d edges\n", f->probes, f->cfg_edges);
    if (f->entry_slot >= 0) printf("  entries counted in counter %" PRIu64 "\n", f->offset + (uint64_t)f->entry_slot);
    if (f->ppp) {
      printf("  ppp: %zu interesting paths, %" PRIu64 " slots%s, lambda %.2f, Ball-Larus field %d bits\n", f->num.n,
             f->num.slots, f->ppp_array ? "" : " (not used: counted in the hash table)", pp_ppp_lambda(&f->num), f->ppp_bits);
      for (size_t k = 0; k < f->num.n; k++) printf("  path %" PRIu64 " -> ppp %" PRIu64 "\n", f->num.bl[k], f->num.id[k]);
    }
    for (size_t e = 0; e < f->g.edges.n; e++) {
      const PPEdge *x = &f->g.edges.v[e];
      printf("  %d -> %d %-11s val %" PRIu64 " inc %" PRId64 "%s", x->src, x->dst, pp_edge_kind_name(x->kind), x->val,
             (int64_t)x->inc, x->chord ? " chord" : "");
      if (x->slot >= 0) printf(" counter %" PRIu64, f->offset + (uint64_t)x->slot);
      if (f->ppp) printf(" ppp %" PRId64, f->num.w[e]);
      printf("\n");
    }
  }
  for (size_t i = 0; i < t->skipped.n; i++) printf("skipped %s (line %u): %s\n", t->skipped.v[i].name, t->skipped.v[i].line, t->skipped.v[i].why);
}

static int run_dump(int argc, char **argv);

static const PPOpt dump_opts[] = {
  { "decode", 0, 0, "list every executed path as its blocks and lines (needs the tables)" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_dump = {
  "dump", "[--decode] [PROFILE | TABLES.pp.json]", "the raw contents of a profile or of a unit's tables",
  "The raw contents of a profile (units, counters, hash entries, forests) or, given a .pp.json file, of a "
  "unit's tables (functions, blocks, edges, numbering, probes).",
  dump_opts, run_dump,
};

static int run_dump(int argc, char **argv) {
  bool decode = false;
  const char *file = NULL, *arg;
  PPCli cli;
  int r;
  pp_cli_begin(&cli, &pp_command_dump, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    decode = true;
  }
  int n;
  char **ops = pp_cli_operands(&cli, &n);
  if (n > 1) { fprintf(stderr, "pathprof dump: one file at a time\n"); return 2; }
  if (n) file = ops[0];
  file = pp_profile_name(file);
  if (pp_ends_with(file, ".json")) {
    PPTables t;
    char *err;
    if (pp_tables_read(file, &t, &err)) { fprintf(stderr, "pathprof: %s\n", err); free(err); return 1; }
    dump_tables(&t);
    pp_tables_free(&t);
    return 0;
  }
  if (decode) {
    PPLoaded l;
    if (pp_load(file, &l)) return 1;
    dump_decoded(&l);
    int rc = l.missing ? 1 : 0;
    pp_loaded_free(&l);
    return rc;
  }
  struct pp_profile p;
  char err[512];
  if (pp_profile_read(file, &p, err, sizeof err)) { fprintf(stderr, "pathprof: %s\n", err); return 1; }
  dump_raw(file, &p);
  pp_profile_free(&p);
  return 0;
}
