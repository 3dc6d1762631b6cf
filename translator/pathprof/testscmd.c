/* pathprof tests: what each test ran, from a profile's per-test counts (PATHPROF_TEST runs): which
   tests ran a path, a line or a function; the paths only one test covers; the tests that add no
   path to the others (redundant); and a smallest set of tests with the same path coverage. */
#include "commands.h"
#include "model/load.h"
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_LIMIT 2000000   /* branch-and-bound steps before the minimal set is left greedy's */

static int run_tests(int argc, char **argv);

enum { O_PATH, O_LINE, O_FUNCTION, O_UNIQUE, O_REDUNDANT, O_MINIMAL, O_JSON };

static const PPOpt tests_opts[] = {
  [O_PATH] = { "path", 0, "FUNCTION#ID", "which tests ran this path (a function and a path id, as pathprof report shows "
                                         "them), with their counts" },
  [O_LINE] = { "line", 0, "FILE:LINE", "which tests ran this source line (FILE as the reports name it, or its last "
                                       "components)" },
  [O_FUNCTION] = { "function", 0, "NAME", "which tests ran the function NAME, with their path executions" },
  [O_UNIQUE] = { "unique", 0, 0, "only the paths one test alone covers" },
  [O_REDUNDANT] = { "redundant", 0, 0, "only the tests whose paths other tests cover too" },
  [O_MINIMAL] = { "minimal", 0, 0, "only a smallest set of tests with the same path coverage" },
  [O_JSON] = { "json", 0, 0, "write the answers as JSON" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_tests = {
  "tests", "[--path FUNCTION#ID | --line FILE:LINE | --function NAME] [--unique] [--redundant] [--minimal] [--json] [PROFILE]",
  "which tests ran what: unique paths, redundant tests, a minimal set",
  "Reads the per-test counts of a profile whose runs were named (PATHPROF_TEST=name, or pathprof_set_test(\"name\") "
  "in the program) and answers: with --path, --line or --function, which tests ran it; else, per test the paths it "
  "ran, the paths only one test covers, the tests whose paths the others cover too (redundant: a subset of one "
  "other test's, or of the others' together) and a smallest set of tests that covers every path the tests cover "
  "(exact unless the search is too big, then greedy, and it says so). Paths are counted in path-mode functions "
  "(kpath forests and edge-mode counters are not kept per test).",
  tests_opts, run_tests,
};

/* One executed path of the program: a loaded unit, a function of it, a Ball-Larus id. */
typedef struct { int unit, fn; uint64_t id; } Key;
/* A path a test ran, before paths get their numbers. */
typedef struct { Key k; int test; uint64_t count; } Ran;

typedef struct {
  const PPLoaded *l;
  size_t ntests;
  const struct pp_test *tests;
  VEC(Key) paths;            /* every path some test ran, by (unit, fn, id) */
  VEC(uint32_t) *of;         /* per test: its paths (indexes into paths), increasing */
  VEC(uint64_t) *counts;     /* per test: the same paths' counts */
  uint32_t *coverers;        /* per path: how many tests ran it */
} Tests;

static int key_cmp(const Key *a, const Key *b) {
  if (a->unit != b->unit) return a->unit < b->unit ? -1 : 1;
  if (a->fn != b->fn) return a->fn < b->fn ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

static int ran_cmp(const void *a, const void *b) {
  const Ran *x = a, *y = b;
  int c = key_cmp(&x->k, &y->k);
  return c ? c : x->test - y->test;
}

/* The test's record of unit u, or NULL when the test did not run it. */
static const struct pp_unitrec *test_unit(const struct pp_test *t, unsigned long long checksum) {
  size_t lo = 0, hi = t->nunits;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (t->units[mid].checksum == checksum) return &t->units[mid];
    if (t->units[mid].checksum < checksum) lo = mid + 1; else hi = mid;
  }
  return NULL;
}

/* Collects every (path, test, count), then numbers the paths and files them per test. */
static void build(Tests *T, const PPLoaded *l) {
  VEC(Ran) all = {0};
  memset(T, 0, sizeof *T);
  T->l = l;
  T->ntests = l->prof.ntests;
  T->tests = l->prof.tests;
  for (size_t t = 0; t < T->ntests; t++)
    for (size_t ui = 0; ui < l->units.n; ui++) {
      PPLoadedUnit u = l->units.v[ui];
      const struct pp_unitrec *rec = test_unit(&T->tests[t], u.rec->checksum);
      if (!rec) continue;
      u.rec = rec;  /* the same unit and tables, the test's counts */
      for (size_t fn = 0; fn < u.tab.funcs.n; fn++) {
        if (u.tab.funcs.v[fn].kpath) continue;  /* forests are not kept per test */
        size_t n;
        uint64_t overflow;
        PPPathCount *p = pp_function_paths(&u, (int)fn, &n, &overflow);
        for (size_t i = 0; i < n; i++) {
          Ran r = { { (int)ui, (int)fn, p[i].id }, (int)t, p[i].count };
          VEC_PUSH(all, r);
        }
        free(p);
      }
    }
  pp_sort(all.v, all.n, sizeof *all.v, ran_cmp);
  T->of = pp_xcalloc(T->ntests + 1, sizeof *T->of);
  T->counts = pp_xcalloc(T->ntests + 1, sizeof *T->counts);
  for (size_t i = 0; i < all.n; i++) {
    if (!i || key_cmp(&all.v[i].k, &all.v[i - 1].k)) VEC_PUSH(T->paths, all.v[i].k);
    uint32_t pi = (uint32_t)T->paths.n - 1;
    VEC_PUSH(T->of[all.v[i].test], pi);
    VEC_PUSH(T->counts[all.v[i].test], all.v[i].count);
  }
  T->coverers = pp_xcalloc(T->paths.n + 1, sizeof *T->coverers);
  for (size_t t = 0; t < T->ntests; t++)
    for (size_t i = 0; i < T->of[t].n; i++) T->coverers[T->of[t].v[i]]++;
  VEC_FREE(all);
}

static void free_tests(Tests *T) {
  for (size_t t = 0; t < T->ntests; t++) { VEC_FREE(T->of[t]); VEC_FREE(T->counts[t]); }
  free(T->of);
  free(T->counts);
  free(T->coverers);
  VEC_FREE(T->paths);
}

static const PPTabFunc *func_of(const Tests *T, const Key *k) { return &T->l->units.v[k->unit].tab.funcs.v[k->fn]; }

/* "grade (m.c:4) #3: 6 8 10 11-12" for a path. */
static char *path_text(const Tests *T, const Key *k) {
  const PPLoadedUnit *u = &T->l->units.v[k->unit];
  const PPTabFunc *f = func_of(T, k);
  char *lines = pp_path_lines(&u->tab, f, k->id);
  char *s = pp_xasprintf("%s (%s:%u) #%" PRIu64 ": %s", f->name, pp_base_name(u->tab.files.v[f->file]), f->line, k->id, lines);
  free(lines);
  return s;
}

/* ---- redundant tests and a minimal set ---- */

/* Is test a's path list a subset of b's (both increasing)? */
static bool subset(const Tests *T, size_t a, size_t b) {
  size_t j = 0;
  for (size_t i = 0; i < T->of[a].n; i++) {
    while (j < T->of[b].n && T->of[b].v[j] < T->of[a].v[i]) j++;
    if (j == T->of[b].n || T->of[b].v[j] != T->of[a].v[i]) return false;
  }
  return true;
}

/* The test whose paths include all of a's (the first such, by name; of two with the same paths
   the later one is the redundant one), or -1; *covered: every path of a has another test. */
static int redundant(const Tests *T, size_t a, bool *covered) {
  *covered = true;
  for (size_t i = 0; i < T->of[a].n; i++) *covered &= T->coverers[T->of[a].v[i]] > 1;
  for (size_t b = 0; b < T->ntests; b++) {
    if (b == a || !subset(T, a, b)) continue;
    if (T->of[a].n == T->of[b].n && b > a) continue;  /* equal sets: the first stays */
    return (int)b;
  }
  return -1;
}

typedef struct {
  const Tests *T;
  size_t words;           /* 64-bit words of a path set */
  uint64_t **sets;        /* per test: its paths as bits */
  int *chosen, nchosen;   /* the search's current choice */
  int *best, nbest;
  long steps;
  bool exhausted;         /* the step limit was reached */
} Cover;

static bool all_covered(const Cover *C, const uint64_t *have, const uint64_t *want) {
  for (size_t w = 0; w < C->words; w++)
    if ((have[w] & want[w]) != want[w]) return false;
  return true;
}

/* Exact set cover by branch and bound: the first path not yet covered must be covered by one of
   the tests that ran it; each is tried, deepest first, while the choice stays below the best. */
static void search(Cover *C, const uint64_t *have, const uint64_t *want) {
  if (++C->steps > SEARCH_LIMIT) { C->exhausted = true; return; }
  if (all_covered(C, have, want)) {
    memcpy(C->best, C->chosen, sizeof *C->best * (size_t)C->nchosen);
    C->nbest = C->nchosen;
    return;
  }
  if (C->nchosen + 1 >= C->nbest) return;
  size_t w = 0;
  while ((have[w] & want[w]) == want[w]) w++;
  uint64_t miss = want[w] & ~have[w];
  size_t bit = w * 64 + (size_t)__builtin_ctzll(miss);
  uint64_t *next = pp_xmalloc(sizeof *next * C->words);
  for (size_t t = 0; t < C->T->ntests && !C->exhausted; t++) {
    if (!(C->sets[t][bit / 64] >> (bit % 64) & 1)) continue;
    for (size_t k = 0; k < C->words; k++) next[k] = have[k] | C->sets[t][k];
    C->chosen[C->nchosen++] = (int)t;
    search(C, next, want);
    C->nchosen--;
  }
  free(next);
}

/* Greedy first (the test adding the most paths, again and again) for a bound, then the exact
   search. Returns the tests of a smallest cover in *out; *exact says whether it is proven. */
static int minimal_set(const Tests *T, int **out, bool *exact) {
  Cover C;
  memset(&C, 0, sizeof C);
  C.T = T;
  C.words = T->paths.n / 64 + 1;
  C.sets = pp_xcalloc(T->ntests + 1, sizeof *C.sets);
  uint64_t *want = pp_xcalloc(C.words, sizeof *want), *have = pp_xcalloc(C.words, sizeof *have);
  for (size_t t = 0; t < T->ntests; t++) {
    C.sets[t] = pp_xcalloc(C.words, sizeof **C.sets);
    for (size_t i = 0; i < T->of[t].n; i++) C.sets[t][T->of[t].v[i] / 64] |= 1ULL << (T->of[t].v[i] % 64);
  }
  for (size_t p = 0; p < T->paths.n; p++) want[p / 64] |= 1ULL << (p % 64);
  C.best = pp_xcalloc(T->ntests + 1, sizeof *C.best);
  C.chosen = pp_xcalloc(T->ntests + 1, sizeof *C.chosen);
  while (!all_covered(&C, have, want)) {
    int pick = -1, gain = 0;
    for (size_t t = 0; t < T->ntests; t++) {
      int g = 0;
      for (size_t w = 0; w < C.words; w++) g += __builtin_popcountll(C.sets[t][w] & ~have[w]);
      if (g > gain) gain = g, pick = (int)t;
    }
    if (pick < 0) break;  /* cannot happen: every path is some test's */
    for (size_t w = 0; w < C.words; w++) have[w] |= C.sets[pick][w];
    C.best[C.nbest++] = pick;
  }
  memset(have, 0, sizeof *have * C.words);
  search(&C, have, want);
  *exact = !C.exhausted;
  int n = C.nbest;
  *out = C.best;
  for (size_t t = 0; t < T->ntests; t++) free(C.sets[t]);
  free(C.sets); free(C.chosen); free(want); free(have);
  return n;
}

static int int_cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* ---- queries: which tests ran a path, a line, a function ---- */

/* Per test, the executions of the paths pick accepts (0: none ran). */
typedef bool (*Pick)(const Tests *T, const Key *k, const void *arg);

static uint64_t *executions(const Tests *T, Pick pick, const void *arg) {
  uint64_t *n = pp_xcalloc(T->ntests + 1, sizeof *n);
  for (size_t t = 0; t < T->ntests; t++)
    for (size_t i = 0; i < T->of[t].n; i++)
      if (pick(T, &T->paths.v[T->of[t].v[i]], arg)) n[t] = pp_sat_add(n[t], T->counts[t].v[i]);
  return n;
}

typedef struct { const char *name; uint64_t id; bool any_id; } FnPick;

static bool pick_function(const Tests *T, const Key *k, const void *arg) {
  const FnPick *p = arg;
  return !strcmp(func_of(T, k)->name, p->name) && (p->any_id || k->id == p->id);
}

typedef struct { const char *file; unsigned line; } LinePick;

/* Does file name f (as the tables give it) end with the components of want? */
static bool same_file(const char *f, const char *want) {
  size_t a = strlen(f), b = strlen(want);
  return a >= b && !strcmp(f + a - b, want) && (a == b || f[a - b - 1] == '/');
}

static bool pick_line(const Tests *T, const Key *k, const void *arg) {
  const LinePick *p = arg;
  const PPLoadedUnit *u = &T->l->units.v[k->unit];
  const PPTabFunc *f = func_of(T, k);
  int cap = (int)f->g.blocks.n + 2, *blocks = pp_xmalloc(sizeof(int) * (size_t)cap);
  bool from_loop, to_loop, hit = false;
  int nb = pp_path_blocks(&f->g, k->id, blocks, cap, &from_loop, &to_loop);
  for (int i = 0; i < nb && !hit; i++) {
    const PPBlock *b = &f->g.blocks.v[blocks[i]];
    for (size_t r = 0; r < b->lines.n && !hit; r++)
      hit = b->lines.v[r].first <= p->line && p->line <= b->lines.v[r].last && same_file(u->tab.files.v[b->lines.v[r].file], p->file);
  }
  free(blocks);
  return hit;
}

/* Prints (or adds to the JSON) the tests that ran what was asked, with their executions. */
static int answer_query(const Tests *T, Pick pick, const void *arg, const char *what, json_t *root) {
  uint64_t *n = executions(T, pick, arg);
  json_t *ran = json_array();
  size_t k = 0;
  if (!root) printf("tests that ran %s:\n", what);
  for (size_t t = 0; t < T->ntests; t++) {
    if (!n[t]) continue;
    k++;
    if (root) json_array_append_new(ran, json_pack("{s:s, s:I}", "test", T->tests[t].name, "executions", (json_int_t)n[t]));
    else printf("  %-30s %14" PRIu64 " path executions\n", T->tests[t].name, n[t]);
  }
  if (!root && !k) printf("  none of the %zu tests\n", T->ntests);
  if (root) json_object_set_new(root, "ran", json_pack("{s:s, s:o}", "what", what, "tests", ran));
  else json_decref(ran);
  free(n);
  return 0;
}

/* ---- the report ---- */

typedef struct { const char *path, *line, *function, *file; bool unique, redundant, minimal, json; } Opts;

static void report_tests(const Tests *T, json_t *root) {
  json_t *arr = json_array();
  if (!root) printf("\n%-32s %10s %10s\n", "test", "paths", "unique");
  for (size_t t = 0; t < T->ntests; t++) {
    size_t uniq = 0;
    for (size_t i = 0; i < T->of[t].n; i++) uniq += T->coverers[T->of[t].v[i]] == 1;
    if (root) json_array_append_new(arr, json_pack("{s:s, s:I, s:I}", "name", T->tests[t].name, "paths", (json_int_t)T->of[t].n,
                                                   "unique", (json_int_t)uniq));
    else printf("%-32s %10zu %10zu\n", T->tests[t].name, T->of[t].n, uniq);
  }
  if (root) json_object_set_new(root, "tests", arr); else json_decref(arr);
}

static void report_unique(const Tests *T, json_t *root) {
  json_t *arr = json_array();
  if (!root) printf("\npaths only one test covers:\n");
  size_t n = 0;
  for (size_t t = 0; t < T->ntests; t++)
    for (size_t i = 0; i < T->of[t].n; i++) {
      uint32_t p = T->of[t].v[i];
      if (T->coverers[p] != 1) continue;
      char *text = path_text(T, &T->paths.v[p]);
      if (root) json_array_append_new(arr, json_pack("{s:s, s:s, s:I, s:s}", "test", T->tests[t].name, "function",
                                                     func_of(T, &T->paths.v[p])->name, "id", (json_int_t)T->paths.v[p].id, "path", text));
      else printf("  %-24s %s\n", T->tests[t].name, text);
      free(text);
      n++;
    }
  if (!root && !n) printf("  none\n");
  if (root) json_object_set_new(root, "unique", arr); else json_decref(arr);
}

static void report_redundant(const Tests *T, json_t *root) {
  json_t *arr = json_array();
  if (!root) printf("\nredundant tests (every path they run, other tests run too):\n");
  size_t n = 0;
  for (size_t t = 0; t < T->ntests; t++) {
    bool covered;
    int sup = redundant(T, t, &covered);
    if (sup < 0 && !covered) continue;
    n++;
    if (root) json_array_append_new(arr, json_pack("{s:s, s:o}", "test", T->tests[t].name, "subset_of",
                                                   sup >= 0 ? json_string(T->tests[sup].name) : json_null()));
    else if (!T->of[t].n) printf("  %-24s ran no path\n", T->tests[t].name);
    else if (sup >= 0) printf("  %-24s its paths are a subset of %s's\n", T->tests[t].name, T->tests[sup].name);
    else printf("  %-24s each of its paths some other test runs\n", T->tests[t].name);
  }
  if (!root && !n) printf("  none\n");
  if (root) json_object_set_new(root, "redundant", arr); else json_decref(arr);
}

static void report_minimal(const Tests *T, json_t *root) {
  int *set;
  bool exact;
  int n = minimal_set(T, &set, &exact);
  qsort(set, (size_t)n, sizeof *set, int_cmp);
  json_t *arr = json_array();
  if (!root) printf("\na smallest set of tests with the same path coverage (%d of %zu tests%s):\n ", n, T->ntests,
                    exact ? "" : "; the search was too big, so greedy's: maybe not the smallest");
  for (int i = 0; i < n; i++) {
    if (root) json_array_append_new(arr, json_string(T->tests[set[i]].name));
    else printf(" %s", T->tests[set[i]].name);
  }
  if (!root) printf("\n");
  if (root) json_object_set_new(root, "minimal", json_pack("{s:o, s:b}", "tests", arr, "exact", exact));
  else json_decref(arr);
  free(set);
}

static int parse_opts(int argc, char **argv, Opts *o) {
  PPCli cli;
  const char *arg;
  int r, n;
  memset(o, 0, sizeof *o);
  pp_cli_begin(&cli, &pp_command_tests, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    if (r == O_PATH) o->path = arg;
    else if (r == O_LINE) o->line = arg;
    else if (r == O_FUNCTION) o->function = arg;
    else if (r == O_UNIQUE) o->unique = true;
    else if (r == O_REDUNDANT) o->redundant = true;
    else if (r == O_MINIMAL) o->minimal = true;
    else o->json = true;
  }
  char **ops = pp_cli_operands(&cli, &n);
  if (n > 1) { fprintf(stderr, "pathprof tests: one profile at a time (merge them first: pathprof merge)\n"); return 2; }
  if (!!o->path + !!o->line + !!o->function > 1) { fprintf(stderr, "pathprof tests: one of --path, --line, --function at a time\n"); return 2; }
  o->file = pp_profile_name(n ? ops[0] : NULL);
  return -1;
}

/* --path F#ID, --line FILE:LINE or --function F. Returns 0, or 2 after an error line. */
static int query(const Tests *T, const Opts *o, json_t *root) {
  if (o->function) {
    FnPick p = { o->function, 0, true };
    return answer_query(T, pick_function, &p, o->function, root);
  }
  if (o->path) {
    const char *hash = strrchr(o->path, '#');
    char *end;
    if (!hash || hash == o->path || !hash[1]) return pp_cli_bad_value(&pp_command_tests, "--path", "FUNCTION#ID", o->path);
    uint64_t id = strtoull(hash + 1, &end, 10);
    if (*end) return pp_cli_bad_value(&pp_command_tests, "--path", "FUNCTION#ID", o->path);
    char *name = pp_xasprintf("%.*s", (int)(hash - o->path), o->path);
    FnPick p = { name, id, false };
    int rc = answer_query(T, pick_function, &p, o->path, root);
    free(name);
    return rc;
  }
  const char *colon = strrchr(o->line, ':');
  char *end;
  unsigned long ln = colon ? strtoul(colon + 1, &end, 10) : 0;
  if (!colon || colon == o->line || !colon[1] || *end || !ln) return pp_cli_bad_value(&pp_command_tests, "--line", "FILE:LINE", o->line);
  char *file = pp_xasprintf("%.*s", (int)(colon - o->line), o->line);
  LinePick p = { file, (unsigned)ln };
  int rc = answer_query(T, pick_line, &p, o->line, root);
  free(file);
  return rc;
}

static int run_tests(int argc, char **argv) {
  Opts o;
  int rc = parse_opts(argc, argv, &o);
  if (rc >= 0) return rc;
  PPLoaded l;
  if (pp_load(o.file, &l)) return 1;
  if (!l.prof.ntests) {
    fprintf(stderr, "pathprof tests: %s has no per-test counts: name each test's run with PATHPROF_TEST=name (or "
                    "pathprof_set_test in the program)\n", o.file);
    pp_loaded_free(&l);
    return 1;
  }
  Tests T;
  build(&T, &l);
  json_t *root = o.json ? json_pack("{s:s, s:I}", "profile", o.file, "paths", (json_int_t)T.paths.n) : NULL;
  bool all = !o.unique && !o.redundant && !o.minimal;
  if (o.path || o.line || o.function) rc = query(&T, &o, root);
  else {
    rc = 0;
    if (!root) printf("pathprof tests: %s: %zu tests ran %zu paths\n", o.file, T.ntests, T.paths.n);
    if (all) report_tests(&T, root);
    if (all || o.unique) report_unique(&T, root);
    if (all || o.redundant) report_redundant(&T, root);
    if (all || o.minimal) report_minimal(&T, root);
  }
  if (root && !rc) {
    json_dumpf(root, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    printf("\n");
  }
  json_decref(root);
  if (l.missing && !rc) rc = 1;
  free_tests(&T);
  pp_loaded_free(&l);
  return rc;
}
