/* pathprof merge, diff and residual: profiles against each other. */
#include "commands.h"
#include "coverage.h"
#include "model/pathkey.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- merge ---- */

/* "file:N" is file with weight N, unless a file of that whole name exists. */
static int parse_weighted(const char *arg, char **file, uint64_t *w) {
  struct stat st;
  const char *colon = strrchr(arg, ':');
  *w = 1;
  if (colon && colon[1] && stat(arg, &st) != 0) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(colon + 1, &end, 10);
    if (!*end && !errno && colon[1] != '-') {
      if (v == 0) return -1;
      *w = v;
      *file = pp_xasprintf("%.*s", (int)(colon - arg), arg);
      return 0;
    }
  }
  *file = pp_xstrdup(arg);
  return 0;
}

static uint64_t sat_mul(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }

static void scale_units(struct pp_unitrec *units, size_t n, uint64_t w) {
  for (size_t i = 0; i < n; i++) {
    struct pp_unitrec *u = &units[i];
    for (unsigned long long k = 0; k < u->ncounters; k++) u->counters[k] = sat_mul(u->counters[k], w);
    for (unsigned long long k = 0; k < u->nhash; k++) u->hash[k].count = sat_mul(u->hash[k].count, w);
    u->dropped = sat_mul(u->dropped, w);
  }
}

/* A weight multiplies the totals and every test's counts alike. */
static void scale(struct pp_profile *p, uint64_t w) {
  if (w == 1) return;
  scale_units(p->units, p->nunits, w);
  for (size_t t = 0; t < p->ntests; t++) scale_units(p->tests[t].units, p->tests[t].nunits, w);
}

/* Two profiles of one tables file with different checksums come from different builds. */
static int same_builds(const struct pp_profile *a, const char *an, const struct pp_profile *b, const char *bn) {
  for (size_t i = 0; i < a->nunits; i++)
    for (size_t j = 0; j < b->nunits; j++)
      if (!strcmp(a->units[i].name, b->units[j].name) && a->units[i].checksum != b->units[j].checksum) {
        fprintf(stderr, "pathprof merge: %s and %s come from different builds of %s (checksums %016llx and %016llx); "
                "merge only profiles of one build\n", an, bn, a->units[i].name, a->units[i].checksum, b->units[j].checksum);
        return -1;
      }
  return 0;
}

static int run_merge(int argc, char **argv);

static const PPOpt merge_opts[] = {
  { "output", 'o', "OUT", "the merged profile (written aside, then renamed over OUT)" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_merge = {
  "merge", "PROFILE[:WEIGHT]... -o OUT", "add profiles up (counts times WEIGHT)",
  "Adds the counts of the profiles up, each multiplied by its WEIGHT (a positive integer, default 1), "
  "and per-test counts test by test. Refuses profiles of two different builds of one unit (their tables "
  "checksums differ).",
  merge_opts, run_merge,
};

static int run_merge(int argc, char **argv) {
  const char *out = NULL, *arg;
  VEC(char *) files = {0};
  VEC(uint64_t) weights = {0};
  int rc = 0, r, n;
  PPCli cli;
  pp_cli_begin(&cli, &pp_command_merge, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    out = arg;
  }
  char **ops = pp_cli_operands(&cli, &n);
  for (int i = 0; i < n && !rc; i++) {
    char *f;
    uint64_t w;
    if (parse_weighted(ops[i], &f, &w)) { fprintf(stderr, "pathprof merge: %s: a weight must be a positive integer\n", ops[i]); rc = 2; break; }
    VEC_PUSH(files, f);
    VEC_PUSH(weights, w);
  }
  if (!rc && (!out || !files.n)) {
    fprintf(stderr, "usage: pathprof merge PROFILE[:WEIGHT]... -o OUT\n");
    rc = 2;
  }
  struct pp_profile all = {0}, *each = pp_xcalloc(files.n + 1, sizeof *each);
  char err[1024];
  for (size_t i = 0; !rc && i < files.n; i++) {
    if (pp_profile_read(files.v[i], &each[i], err, sizeof err)) { fprintf(stderr, "pathprof merge: %s\n", err); rc = 1; break; }
    for (size_t k = 0; k < i && !rc; k++)
      if (same_builds(&each[k], files.v[k], &each[i], files.v[i])) rc = 1;
  }
  for (size_t i = 0; !rc && i < files.n; i++) {
    scale(&each[i], weights.v[i]);
    if (pp_profile_merge(&all, &each[i], err, sizeof err)) {
      fprintf(stderr, "pathprof merge: %s: %s\n", files.v[i], err);
      rc = 1;
    }
  }
  if (!rc && pp_profile_save(&all, out, err, sizeof err)) { fprintf(stderr, "pathprof merge: %s\n", err); rc = 1; }
  for (size_t i = 0; i < files.n; i++) { pp_profile_free(&each[i]); free(files.v[i]); }
  free(each);
  pp_profile_free(&all);
  VEC_FREE(files);
  VEC_FREE(weights);
  return rc;
}

/* ---- paths keyed by the decisions they take ---- */

/* A function is named by its file and name, and its shape says which source it was built from;
   a path by its exact key (model/pathkey.h: its start and each decision it takes, as source
   position and outcome), so profiles of two builds of the same source compare path by path and
   no two paths are taken for one (their lines alone would not tell paths that differ inside a
   line apart). path is what reports print: its lines. */
typedef struct { char *func, *where, *path, *key; uint64_t id, count, shape; } KPath;
typedef VEC(KPath) KPaths;

/* The executed paths of l; with uninteresting, only those of ppp functions outside their
   interesting set (the residual paths the build itself detected). */
static void collect(const PPLoaded *l, KPaths *out, bool uninteresting) {
  size_t nv;
  PPFuncView *v = pp_program_functions(l, &nv);
  for (size_t i = 0; i < nv; i++) {
    const PPTabFunc *f = &v[i].u->tab.funcs.v[v[i].fn];
    const char *file = v[i].u->tab.files.v[f->file];
    for (size_t k = 0; k < v[i].n; k++) {
      if (uninteresting && (!f->ppp || pp_ppp_slot(&f->num, v[i].paths[k].id) >= 0)) continue;
      KPath p = { pp_xasprintf("%s\t%s", file, f->name), pp_xasprintf("%s:%u-%u", pp_base_name(file), f->line, f->end_line),
                  pp_path_lines(&v[i].u->tab, f, v[i].paths[k].id), pp_path_key(&v[i].u->tab, f, v[i].paths[k].id),
                  v[i].paths[k].id, v[i].paths[k].count, pp_func_shape(&v[i].u->tab, f) };
      VEC_PUSH(*out, p);
    }
  }
  pp_program_free(v, nv);
}

static int kcmp(const void *a, const void *b) {
  const KPath *x = a, *y = b;
  int c = strcmp(x->func, y->func);
  return c ? c : strcmp(x->key, y->key);
}

static int kidcmp(const void *a, const void *b) {
  const KPath *x = a, *y = b;
  int c = kcmp(a, b);
  return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

static const char *fn_name(const char *key) {
  const char *t = strchr(key, '\t');
  return t ? t + 1 : key;
}

static void kpfree(KPath *p) { free(p->func); free(p->where); free(p->path); free(p->key); }

static void kfree(KPaths *k) {
  for (size_t i = 0; i < k->n; i++) kpfree(&k->v[i]);
  VEC_FREE(*k);
}

/* Sums equal keys: one path of a function compiled into several units (a static inline of a
   header) has one key. */
static void ksort(KPaths *k) {
  pp_sort(k->v, k->n, sizeof *k->v, kcmp);
  size_t j = 0;
  for (size_t i = 0; i < k->n; i++) {
    if (j && !kcmp(&k->v[j - 1], &k->v[i])) {
      k->v[j - 1].count = pp_sat_add(k->v[j - 1].count, k->v[i].count);
      kpfree(&k->v[i]);
    } else k->v[j++] = k->v[i];
  }
  k->n = j;
}

/* The paths of function func in k, which is sorted by function: their first index, and (the
   return) the one past their last, by binary search, so lookups by function stay near-linear. */
static size_t func_range(const KPaths *k, const char *func, size_t *lo) {
  size_t a = 0, b = k->n;
  while (a < b) {
    size_t m = a + (b - a) / 2;
    if (strcmp(k->v[m].func, func) < 0) a = m + 1; else b = m;
  }
  *lo = a;
  while (b < k->n && !strcmp(k->v[b].func, func)) b++;
  return b;
}

/* Orders paths by function, lines, then key: the paths printed alike sit together. */
static int by_lines(const void *x, const void *y) {
  const KPath *a = *(const KPath *const *)x, *b = *(const KPath *const *)y;
  int c = strcmp(a->func, b->func);
  if (!c) c = strcmp(a->path, b->path);
  return c ? c : strcmp(a->key, b->key);
}

/* Paths of one function that run through the same lines print the same; each such path's text
   gets the decisions that tell it from the others ("{9:14=T}"), among the paths of all of
   lists[0..n) (a residual path is told from the baseline's paths too). The paths of all lists
   are sorted once by (function, lines), so each finds its look-alikes by binary search. */
static void tell_apart(KPaths *k, KPaths *const *lists, size_t n) {
  char **text = pp_xcalloc(k->n + 1, sizeof *text);
  size_t total = 0;
  for (size_t l = 0; l < n; l++) total += lists[l]->n;
  const KPath **all = pp_xmalloc(sizeof *all * (total + 1));
  total = 0;
  for (size_t l = 0; l < n; l++)
    for (size_t j = 0; j < lists[l]->n; j++) all[total++] = &lists[l]->v[j];
  pp_sort(all, total, sizeof *all, by_lines);
  for (size_t i = 0; i < k->n; i++) {
    const KPath *x = &k->v[i];
    size_t a = 0, b = total;
    while (a < b) {  /* the first of x's function and lines */
      size_t m = a + (b - a) / 2;
      int c = strcmp(all[m]->func, x->func);
      if ((c ? c : strcmp(all[m]->path, x->path)) < 0) a = m + 1; else b = m;
    }
    VEC(const char *) same = {0};
    for (; a < total && !strcmp(all[a]->func, x->func) && !strcmp(all[a]->path, x->path); a++)
      if (strcmp(all[a]->key, x->key)) VEC_PUSH(same, all[a]->key);
    if (same.n) {
      char *d = pp_key_difference(x->key, same.v, same.n);
      text[i] = pp_xasprintf("%s {%s}", x->path, *d ? d : x->key);
      free(d);
    }
    VEC_FREE(same);
  }
  free(all);
  for (size_t i = 0; i < k->n; i++)  /* after all are known: the comparisons read the lines */
    if (text[i]) { free(k->v[i].path); k->v[i].path = text[i]; }
  free(text);
}

/* tell_apart on two lists against each other: both are annotated from the lines as they were. */
static void tell_apart_both(KPaths *a, KPaths *b) {
  KPaths ca = {0};
  for (size_t i = 0; i < a->n; i++) {
    KPath p = a->v[i];
    p.path = pp_xstrdup(p.path);
    VEC_PUSH(ca, p);
  }
  KPaths *lists[2] = { &ca, b };
  tell_apart(a, lists, 2);
  tell_apart(b, lists, 2);
  for (size_t i = 0; i < ca.n; i++) free(ca.v[i].path);
  VEC_FREE(ca);
}

static int str_cmp(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Functions that both lists hold (each sorted by function), built from different source (their
   shapes differ): named once on stdout, and their paths dropped from both lists, so they are
   not compared. Each function of a is looked up in b by binary search. */
static size_t drop_changed(KPaths *a, KPaths *b, const char *what, PPStr *msg) {
  VEC(char *) gone = {0};  /* the functions built from different source, each once, sorted */
  for (size_t i = 0; i < a->n; i++) {
    const KPath *x = &a->v[i];
    if (i && !strcmp(a->v[i - 1].func, x->func)) continue;
    size_t lo, hi = func_range(b, x->func, &lo);
    bool changed = false;
    for (size_t j = lo; j < hi && !changed; j++) changed = b->v[j].shape != x->shape;
    if (!changed) continue;
    pp_str_addf(msg, "%s (%s): built from different source in the two profiles: its paths are not %s\n", fn_name(x->func),
                x->where, what);
    VEC_PUSH(gone, pp_xstrdup(x->func));
  }
  for (int side = 0; side < 2 && gone.n; side++) {
    KPaths *l = side ? b : a;
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
      if (bsearch(&l->v[i].func, gone.v, gone.n, sizeof *gone.v, str_cmp)) kpfree(&l->v[i]);
      else l->v[k++] = l->v[i];
    }
    l->n = k;
  }
  size_t n = gone.n;
  for (size_t j = 0; j < gone.n; j++) free(gone.v[j]);
  VEC_FREE(gone);
  return n;
}


/* ---- diff ---- */

typedef struct { const KPath *a, *b; int64_t d; } Delta;

static int by_delta(const void *x, const void *y) {
  const Delta *p = x, *q = y;
  int c = strcmp((p->a ? p->a : p->b)->func, (q->a ? q->a : q->b)->func);
  if (c) return c;
  uint64_t u = p->d < 0 ? (uint64_t)-p->d : (uint64_t)p->d, v = q->d < 0 ? (uint64_t)-q->d : (uint64_t)q->d;
  if (u != v) return u > v ? -1 : 1;
  return strcmp((p->a ? p->a : p->b)->path, (q->a ? q->a : q->b)->path);
}

static int run_diff(int argc, char **argv);

const PPCommand pp_command_diff = {
  "diff", "A B", "per function, the paths whose counts differ",
  "Per function, the paths whose counts differ between profiles A and B, as source lines, largest "
  "change first. Exit status 0 when none differ, 1 when some do, 2 on an error.",
  NULL, run_diff,
};

static int run_diff(int argc, char **argv) {
  const char *files[2] = { 0, 0 }, *arg;
  int r, n;
  PPCli cli;
  pp_cli_begin(&cli, &pp_command_diff, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) return pp_cli_status(&cli, r);
  char **ops = pp_cli_operands(&cli, &n);
  if (n != 2) { fprintf(stderr, "usage: pathprof diff A B\n"); return 2; }
  files[0] = ops[0];
  files[1] = ops[1];
  PPLoaded la, lb;
  if (pp_load(files[0], &la)) return 2;
  if (pp_load(files[1], &lb)) { pp_loaded_free(&la); return 2; }
  KPaths a = {0}, b = {0};
  collect(&la, &a, false);
  collect(&lb, &b, false);
  ksort(&a);
  ksort(&b);
  PPStr changed = {0};
  drop_changed(&a, &b, "compared", &changed);
  tell_apart_both(&a, &b);
  VEC(Delta) d = {0};
  size_t i = 0, j = 0;
  while (i < a.n || j < b.n) {
    int c = i == a.n ? 1 : j == b.n ? -1 : kcmp(&a.v[i], &b.v[j]);
    Delta x = { c <= 0 ? &a.v[i] : NULL, c >= 0 ? &b.v[j] : NULL, 0 };
    uint64_t ca = x.a ? x.a->count : 0, cb = x.b ? x.b->count : 0;
    x.d = cb >= ca ? (int64_t)(cb - ca > INT64_MAX ? INT64_MAX : cb - ca) : -(int64_t)(ca - cb > INT64_MAX ? INT64_MAX : ca - cb);
    if (x.d) VEC_PUSH(d, x);
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  pp_sort(d.v, d.n, sizeof *d.v, by_delta);
  printf("pathprof diff: %s -> %s: %zu paths differ\n", files[0], files[1], d.n);
  bool rebuilt = changed.n > 0;
  if (changed.n) printf("%s", changed.s);
  free(changed.s);
  const char *cur = NULL;
  for (size_t k = 0; k < d.n; k++) {
    const KPath *p = d.v[k].a ? d.v[k].a : d.v[k].b;
    if (!cur || strcmp(cur, p->func)) {
      uint64_t ta = 0, tb = 0;
      size_t lo, hi = func_range(&a, p->func, &lo);
      for (size_t q = lo; q < hi; q++) ta = pp_sat_add(ta, a.v[q].count);
      for (hi = func_range(&b, p->func, &lo); lo < hi; lo++) tb = pp_sat_add(tb, b.v[lo].count);
      printf("\n%s (%s): %" PRIu64 " -> %" PRIu64 " path executions\n", fn_name(p->func), p->where, ta, tb);
      printf("  %13s %12s %12s  %s\n", "change", "A", "B", "path (lines)");
      cur = p->func;
    }
    printf("  %+13" PRId64 " %12" PRIu64 " %12" PRIu64 "  %s\n", d.v[k].d, d.v[k].a ? d.v[k].a->count : 0,
           d.v[k].b ? d.v[k].b->count : 0, p->path);
  }
  int rc = d.n || rebuilt ? 1 : 0;
  if (la.missing || lb.missing) rc = 2;
  VEC_FREE(d);
  kfree(&a); kfree(&b);
  pp_loaded_free(&la); pp_loaded_free(&lb);
  return rc;
}

/* ---- residual ---- */

/* Without a baseline the field profile must come from ppp builds: their tables hold the set. */
static int all_ppp(const PPLoaded *l, const char *file) {
  for (size_t i = 0; i < l->units.n; i++)
    if (strcmp(l->units.v[i].tab.mode, "ppp")) {
      fprintf(stderr, "pathprof residual: %s: unit %s was built in %s mode, not ppp; name the tests' profile with --baseline\n",
              file, l->units.v[i].tab.source, l->units.v[i].tab.mode);
      return -1;
    }
  return 0;
}

static int run_residual(int argc, char **argv);

static const PPOpt residual_opts[] = {
  { "baseline", 0, "TESTS", "a profile of the paths already known (the tests'); may repeat. Without it FIELD "
                            "must come from a ppp build, whose tables know the set it was given" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_residual = {
  "residual", "[--baseline TESTS]... [FIELD]", "the paths a run did that the tests never did",
  "The paths FIELD ran that TESTS never did, as source lines, grouped by function, busiest first.",
  residual_opts, run_residual,
};

static int run_residual(int argc, char **argv) {
  VEC(const char *) base = {0};
  const char *field = NULL, *arg;
  int r, n;
  PPCli cli;
  pp_cli_begin(&cli, &pp_command_residual, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) { VEC_FREE(base); return pp_cli_status(&cli, r); }
    VEC_PUSH(base, arg);
  }
  char **ops = pp_cli_operands(&cli, &n);
  if (n > 1) { fprintf(stderr, "usage: pathprof residual [--baseline TESTS]... FIELD\n"); VEC_FREE(base); return 2; }
  if (n) field = ops[0];
  field = pp_profile_name(field);
  KPaths seen = {0}, run = {0};
  int rc = 0;
  for (size_t i = 0; i < base.n && !rc; i++) {
    PPLoaded l;
    if (pp_load(base.v[i], &l)) { rc = 2; break; }
    collect(&l, &seen, false);
    rc = l.missing ? 2 : 0;
    pp_loaded_free(&l);
  }
  PPLoaded lf;
  if (!rc && pp_load(field, &lf)) rc = 2;
  if (rc) { kfree(&seen); VEC_FREE(base); return rc; }
  if (!base.n && all_ppp(&lf, field)) { pp_loaded_free(&lf); VEC_FREE(base); return 2; }
  collect(&lf, &run, !base.n);
  if (lf.missing) rc = 2;
  pp_loaded_free(&lf);
  ksort(&seen);
  if (base.n) ksort(&run);
  else pp_sort(run.v, run.n, sizeof *run.v, kidcmp);
  PPStr changed = {0};
  drop_changed(&run, &seen, "compared with the baseline's", &changed);
  /* the field's paths the baseline never ran, busiest function first */
  KPaths res = {0};
  size_t j = 0;
  for (size_t i = 0; i < run.n; i++) {
    while (j < seen.n && kcmp(&seen.v[j], &run.v[i]) < 0) j++;
    if (j < seen.n && !kcmp(&seen.v[j], &run.v[i])) continue;
    KPath p = { pp_xstrdup(run.v[i].func), pp_xstrdup(run.v[i].where), pp_xstrdup(run.v[i].path), pp_xstrdup(run.v[i].key),
                run.v[i].id, run.v[i].count, run.v[i].shape };
    VEC_PUSH(res, p);
  }
  KPaths *both[2] = { &res, &seen };
  tell_apart(&res, both, 2);
  size_t nfunc = 0;
  for (size_t i = 0; i < res.n; i++) nfunc += !i || strcmp(res.v[i].func, res.v[i - 1].func);
  printf("pathprof residual: %zu paths of %s in %zu functions were never executed by", res.n, field, nfunc);
  for (size_t i = 0; i < base.n; i++) printf(" %s", base.v[i]);
  printf("%s\n", base.n ? "" : " the profile its ppp build was given (--interesting)");
  if (changed.n) printf("%s", changed.s);
  free(changed.s);
  for (size_t i = 0; i < res.n;) {
    size_t k = i;
    uint64_t runs = 0;
    for (; k < res.n && !strcmp(res.v[k].func, res.v[i].func); k++) runs = pp_sat_add(runs, res.v[k].count);
    printf("\n%s (%s): %zu residual paths, %" PRIu64 " executions\n", fn_name(res.v[i].func), res.v[i].where, k - i, runs);
    /* hottest first within the function */
    for (size_t a = i + 1; a < k; a++)
      for (size_t b = a; b > i && res.v[b - 1].count < res.v[b].count; b--) { KPath t = res.v[b]; res.v[b] = res.v[b - 1]; res.v[b - 1] = t; }
    for (size_t q = i; q < k; q++) printf("  %12" PRIu64 "  #%-6" PRIu64 " %s\n", res.v[q].count, res.v[q].id, res.v[q].path);
    i = k;
  }
  kfree(&res);
  kfree(&seen);
  kfree(&run);
  VEC_FREE(base);
  return rc;
}
