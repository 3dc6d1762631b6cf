/* pathprof kpaths: the hottest k-iteration paths of kpath builds, decoded to source lines. */
#include "commands.h"
#include "model/kipf.h"
#include "model/load.h"
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define KSF_NODE_BYTES 32   /* a k-SF node in the runtime on 64-bit hosts (rt/core/kpath.c) */

typedef struct {
  unsigned k;           /* --k: iterations per path shown; 0 = each forest's own k */
  size_t top;
  const char *only, *file;
  bool json, tree;
} Opts;

/* One kpath function of the profile with its k-IPF. */
typedef struct {
  const PPLoadedUnit *u;
  int fn;
  const struct pp_forest *ksf;
  PPKipf t;
  uint64_t total;       /* sum of the counters at the level shown */
} KFunc;

typedef VEC(KFunc) KFuncs;

/* One multi-iteration path in the hot list. */
typedef struct { const KFunc *f; int node; } Hot;

static int hot_cmp(const void *a, const void *b) {
  const Hot *x = a, *y = b;
  uint64_t cx = x->f->t.nodes.v[x->node].count, cy = y->f->t.nodes.v[y->node].count;
  if (cx != cy) return cx > cy ? -1 : 1;
  return x->node - y->node;
}

static int run_kpaths(int argc, char **argv);

static const PPOpt kpaths_opts[] = {
  { "k", 0, "N", "show paths of exactly N iterations (N up to the K the program was built with; default: each "
                 "function's K)" },
  { "top", 0, "M", "list the M hottest paths (with --tree, the M hottest children of each node; default 10)" },
  { "function", 0, "NAME", "only the function NAME" },
  { "tree", 0, 0, "add each function's N-iteration path forest, hottest children first" },
  { "json", 0, 0, "write the same as JSON" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_kpaths = {
  "kpaths", "[--k N] [--top M] [--function NAME] [--tree] [--json] [PROFILE]",
  "the hottest multi-iteration paths of kpath builds",
  "The hottest k-iteration paths of functions built with pathcc --mode=kpath: sequences of consecutive "
  "Ball-Larus paths of one activation, each iteration shown as its path id and source lines.",
  kpaths_opts, run_kpaths,
};

/* Parses the command line into o; returns -1 to go on, else the exit status (help, usage error). */
static int parse_opts(int argc, char **argv, Opts *o) {
  memset(o, 0, sizeof *o);
  o->top = 10;
  PPCli cli;
  const char *arg;
  int r;
  unsigned long long n;
  pp_cli_begin(&cli, &pp_command_kpaths, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    if (r == 3) o->tree = true;
    else if (r == 4) o->json = true;
    else if (r == 2) o->only = arg;
    else if (pp_cli_count(&pp_command_kpaths, r ? "--top" : "--k", arg, r ? 1ULL << 40 : 64, &n))
      return pp_cli_status(&cli, PP_CLI_BAD);
    else if (r == 0) o->k = (unsigned)n;
    else o->top = (size_t)n;
  }
  int nops;
  char **ops = pp_cli_operands(&cli, &nops);
  if (nops > 1) { fprintf(stderr, "pathprof kpaths: one profile at a time (merge them first: pathprof merge)\n"); return 2; }
  o->file = pp_profile_name(nops ? ops[0] : NULL);
  return -1;
}

/* The kpath functions of the loaded profile that have a forest, with their k-IPFs; a --k larger
   than a forest's k is an error naming the function. */
static int collect(const PPLoaded *l, const Opts *o, KFuncs *out) {
  for (size_t i = 0; i < l->units.n; i++)
    for (size_t fn = 0; fn < l->units.v[i].tab.funcs.n; fn++) {
      const PPLoadedUnit *u = &l->units.v[i];
      const PPTabFunc *f = &u->tab.funcs.v[fn];
      const struct pp_forest *kf = pp_profile_forest(u->prof, u->rec->checksum, fn);
      if (!f->kpath || !kf || (o->only && strcmp(o->only, f->name))) continue;
      if (o->k > kf->k) {
        fprintf(stderr, "pathprof kpaths: %s: %s was profiled with k = %lu, --k %u asks for more\n", o->file,
                f->name, kf->k, o->k);
        return -1;
      }
      KFunc k;
      memset(&k, 0, sizeof k);
      k.u = u;
      k.fn = (int)fn;
      k.ksf = kf;
      pp_kipf_build(kf, o->k ? o->k : kf->k, &k.t);
      for (size_t n = 0; n < k.t.nodes.n; n++)
        if (k.t.nodes.v[n].depth + 1 == k.t.k) k.total = pp_sat_add(k.total, k.t.nodes.v[n].count);
      VEC_PUSH(*out, k);
    }
  return 0;
}

/* The hottest paths of exactly k iterations, over all functions collected. */
static Hot *hottest(const KFunc *v, size_t nv, size_t *n) {
  VEC(Hot) h = {0};
  for (size_t i = 0; i < nv; i++)
    for (size_t j = 0; j < v[i].t.nodes.n; j++)
      if (v[i].t.nodes.v[j].depth + 1 == v[i].t.k && v[i].t.nodes.v[j].count) {
        Hot x = { &v[i], (int)j };
        VEC_PUSH(h, x);
      }
  pp_sort(h.v, h.n, sizeof *h.v, hot_cmp);
  *n = h.n;
  return h.v;
}

/* "#3 #0 #0 #3": the ids of a node's n-gram. */
static char *id_chain(const PPKipf *t, int node) {
  uint64_t ids[64];
  int n = pp_kipf_ngram(t, node, ids, 64);
  PPStr s = {0};
  for (int i = 0; i < n; i++) pp_str_addf(&s, "%s#%" PRIu64, i ? " " : "", ids[i]);
  return pp_str_take(&s);
}

/* Text: per path its count, function and ids, then one line per iteration with its lines. */
static void print_hot(const Hot *h, size_t nh, size_t top) {
  for (size_t i = 0; i < nh && i < top; i++) {
    const KFunc *k = h[i].f;
    const PPTabFunc *f = &k->u->tab.funcs.v[k->fn];
    const PPKNode *n = &k->t.nodes.v[h[i].node];
    char *chain = id_chain(&k->t, h[i].node);
    printf("\n  %12" PRIu64 " %5.1f%%  %s (%s:%u)  %s\n", n->count, 100.0 * (double)n->count / (double)k->total,
           f->name, pp_base_name(k->u->tab.files.v[f->file]), f->line, chain);
    free(chain);
    uint64_t ids[64];
    int m = pp_kipf_ngram(&k->t, h[i].node, ids, 64);
    for (int j = 0; j < m; j++) {
      char *lines = pp_path_lines(&k->u->tab, f, ids[j]);
      printf("        %s iteration %d  #%-6" PRIu64 " %s\n", j ? "|" : " ", j + 1, ids[j], lines);
      free(lines);
    }
  }
  if (nh > top) printf("\n  ... %zu more\n", nh - top);
}

/* The tree view: each node indented by its depth, hottest children first, top per level. */
static void print_tree(const KFunc *k, int first, size_t top) {
  const PPTabFunc *f = &k->u->tab.funcs.v[k->fn];
  size_t n;
  int *kids = pp_kipf_ranked(&k->t, first, -1, &n);
  if (n > top) n = top;
  for (size_t i = 0; i < n; i++) {
    const PPKNode *x = &k->t.nodes.v[kids[i]];
    char *lines = pp_path_lines(&k->u->tab, f, x->label);
    printf("  %12" PRIu64 "  %*s%s#%-6" PRIu64 " %s\n", x->count, (int)(2 * x->depth), "", x->depth ? "+ " : "",
           x->label, lines);
    free(lines);
    print_tree(k, x->child, top);
  }
  free(kids);
}

/* One summary line per function: k, forest and k-IPF sizes, dropped ids. */
static void print_summary(const KFunc *k) {
  const PPTabFunc *f = &k->u->tab.funcs.v[k->fn];
  printf("%s (%s:%u): k = %lu, k-SF %llu nodes (%llu bytes), %u-IPF %zu nodes", f->name,
         pp_base_name(k->u->tab.files.v[f->file]), f->line, k->ksf->k, k->ksf->nnodes, k->ksf->nnodes * KSF_NODE_BYTES,
         k->t.k, k->t.nodes.n);
  if (k->ksf->dropped) printf(", !! %llu ids dropped (no memory for their forest nodes)", k->ksf->dropped);
  printf("\n");
}

/* The JSON form: functions with their forest sizes, and the hot list with ids and lines. */
static void print_json(const char *file, const KFunc *v, size_t nv, const Hot *h, size_t nh, size_t top, uint64_t lost) {
  json_t *funcs = json_array(), *paths = json_array();
  for (size_t i = 0; i < nv; i++) {
    const PPTabFunc *f = &v[i].u->tab.funcs.v[v[i].fn];
    json_array_append_new(funcs, json_pack("{s:s, s:s, s:i, s:i, s:I, s:I, s:I}", "name", f->name,
                          "file", v[i].u->tab.files.v[f->file], "line", (int)f->line, "k", (int)v[i].ksf->k,
                          "ksf_nodes", (json_int_t)v[i].ksf->nnodes, "kipf_nodes", (json_int_t)v[i].t.nodes.n,
                          "dropped", (json_int_t)v[i].ksf->dropped));
  }
  for (size_t i = 0; i < nh && i < top; i++) {
    const KFunc *k = h[i].f;
    const PPTabFunc *f = &k->u->tab.funcs.v[k->fn];
    uint64_t ids[64];
    int m = pp_kipf_ngram(&k->t, h[i].node, ids, 64);
    json_t *ja = json_array(), *la = json_array();
    for (int j = 0; j < m; j++) {
      char *lines = pp_path_lines(&k->u->tab, f, ids[j]);
      json_array_append_new(ja, json_integer((json_int_t)ids[j]));
      json_array_append_new(la, json_string(lines));
      free(lines);
    }
    json_array_append_new(paths, json_pack("{s:s, s:s, s:i, s:I, s:o, s:o}", "function", f->name,
                          "file", k->u->tab.files.v[f->file], "line", (int)f->line,
                          "count", (json_int_t)k->t.nodes.v[h[i].node].count, "ids", ja, "iterations", la));
  }
  json_t *root = json_pack("{s:s, s:i, s:I, s:o, s:o}", "profile", file, "k", v && nv ? (int)v[0].t.k : 0,
                           "lost", (json_int_t)lost, "functions", funcs, "paths", paths);
  char *s = json_dumps(root, JSON_INDENT(2));
  printf("%s\n", s);
  free(s);
  json_decref(root);
}

static int run_kpaths(int argc, char **argv) {
  Opts o;
  int rc = parse_opts(argc, argv, &o);
  if (rc >= 0) return rc;
  rc = 0;
  PPLoaded l;
  if (pp_load(o.file, &l)) return 1;
  KFuncs v = {0};
  const struct pp_forest *lost = pp_profile_forest(&l.prof, 0, 0);
  if (collect(&l, &o, &v) == 0) {
    size_t nh;
    Hot *h = hottest(v.v, v.n, &nh);
    if (o.json) print_json(o.file, v.v, v.n, h, nh, o.top, lost ? lost->dropped : 0);
    else {
      printf("pathprof kpaths: %s: %zu function%s profiled with kpath\n", o.file, v.n, v.n == 1 ? "" : "s");
      if (lost) printf("!! %llu ids dropped: no memory even for their function's forest\n", lost->dropped);
      for (size_t i = 0; i < v.n; i++) print_summary(&v.v[i]);
      printf("\nHottest paths of %s iterations (ids and lines of each iteration)\n",
             o.k ? "exactly --k" : "k (each function's own k)");
      print_hot(h, nh, o.top);
      for (size_t i = 0; o.tree && i < v.n; i++) {
        const PPTabFunc *f = &v.v[i].u->tab.funcs.v[v.v[i].fn];
        printf("\n%u-IPF of %s (%s:%u), hottest %zu children per node:\n", v.v[i].t.k, f->name,
               pp_base_name(v.v[i].u->tab.files.v[f->file]), f->line, o.top);
        print_tree(&v.v[i], v.v[i].t.first_root, o.top);
      }
    }
    if (o.only && !v.n) { fprintf(stderr, "pathprof kpaths: %s: no kpath function named '%s'\n", o.file, o.only); rc = 1; }
    free(h);
  } else rc = 1;
  for (size_t i = 0; i < v.n; i++) pp_kipf_free(&v.v[i].t);
  VEC_FREE(v);
  if (l.missing) rc = 1;
  pp_loaded_free(&l);
  return rc;
}
