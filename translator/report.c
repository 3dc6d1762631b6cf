/* Profile + tables -> hot paths, decoded to source lines; the report and dump commands. */
#include "report.h"
#include "number.h"
#include "flow.h"
#include "kipf.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- finding tables ---- */

/* The checksum a tables file declares, without building its graphs. */
static int tables_checksum(const char *path, uint64_t *sum) {
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je);
  const char *s = root ? json_string_value(json_object_get(root, "checksum")) : NULL;
  int rc = s ? 0 : -1;
  if (s) *sum = strtoull(s, NULL, 16);
  json_decref(root);
  return rc;
}

static bool ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

/* Depth-limited search of dir for a *.pp.json with the checksum; returns its path or NULL. */
static char *search_dir(const char *dir, uint64_t sum, int depth) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char *found = NULL;
  if (!d) return NULL;
  while (!found && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char *p = pp_xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    uint64_t s;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) && depth > 0) found = search_dir(p, sum, depth - 1);
    else if (S_ISREG(st.st_mode) && ends_with(p, ".pp.json") && tables_checksum(p, &s) == 0 && s == sum) found = pp_xstrdup(p);
    free(p);
  }
  closedir(d);
  return found;
}

/* The unit's tables: where the build recorded them, else in $PATHPROF_DB or below the working
   directory; *why says what was wrong with the recorded file when none is found. */
static char *find_tables(const struct pp_unitrec *u, char **why) {
  uint64_t s;
  struct stat st;
  if (tables_checksum(u->name, &s) == 0 && s == u->checksum) return pp_xstrdup(u->name);
  if (stat(u->name, &st)) *why = pp_xasprintf("%s is missing", u->name);
  else if (tables_checksum(u->name, &s)) *why = pp_xasprintf("%s is not a readable tables file", u->name);
  else *why = pp_xasprintf("%s belongs to another build (checksum %016" PRIx64 ")", u->name, s);
  const char *db = getenv("PATHPROF_DB");
  if (db && *db) {
    char *copy = pp_xstrdup(db), *save = NULL, *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save))
      found = search_dir(dir, u->checksum, 8);
    free(copy);
    if (found) return found;
  }
  return search_dir(".", u->checksum, 6);
}

int pp_load(const char *profile, PPLoaded *l) {
  char err[512];
  memset(l, 0, sizeof *l);
  if (pp_profile_read(profile, &l->prof, err, sizeof err)) {
    fprintf(stderr, "pathprof: %s\n", err);
    return -1;
  }
  for (size_t i = 0; i < l->prof.nunits; i++) {
    const struct pp_unitrec *u = &l->prof.units[i];
    char *why = NULL, *path = find_tables(u, &why), *terr = NULL;
    PPLoadedUnit lu = { u, {0}, path, &l->prof };
    if (!path) {
      fprintf(stderr, "pathprof: %s: unit %016llx has no tables: %s, and none with its checksum was found "
              "under $PATHPROF_DB or here\n", profile, u->checksum, why);
      free(why);
      l->missing++;
      continue;
    }
    free(why);
    if (pp_tables_read(path, &lu.tab, &terr)) {
      fprintf(stderr, "pathprof: %s\n", terr);
      free(terr); free(path);
      l->missing++;
      continue;
    }
    if (lu.tab.ncounters != u->ncounters) {
      fprintf(stderr, "pathprof: %s: unit %016llx has %llu counters but its tables %s expect %" PRIu64 "\n",
              profile, u->checksum, u->ncounters, path, lu.tab.ncounters);
      pp_tables_free(&lu.tab); free(path);
      l->missing++;
      continue;
    }
    VEC_PUSH(l->units, lu);
  }
  return 0;
}

void pp_loaded_free(PPLoaded *l) {
  for (size_t i = 0; i < l->units.n; i++) {
    pp_tables_free(&l->units.v[i].tab);
    free(l->units.v[i].tables_path);
  }
  VEC_FREE(l->units);
  pp_profile_free(&l->prof);
}

/* ---- decoding ---- */

static int hotter(const void *a, const void *b) {
  const PPPathCount *x = a, *y = b;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static int by_id(const void *a, const void *b);

/* Level 1 of a kpath function's k-IPF: its k-SF counters summed by id (ids outside the
   function's paths are overflow). */
static void forest_paths(const PPLoadedUnit *u, int fn, PPPathCount **out, size_t *n, uint64_t *overflow) {
  const struct pp_forest *kf = pp_profile_forest(u->prof, u->rec->checksum, (unsigned long long)fn);
  uint64_t npaths = u->tab.funcs.v[fn].g.npaths;
  size_t m = kf ? (size_t)kf->nnodes : 0, k = 0;
  PPPathCount *p = pp_xmalloc(sizeof *p * (m + 1));
  for (size_t i = 0; i < m; i++) {
    PPPathCount c = { kf->nodes[i].label, kf->nodes[i].count };
    if (c.id >= npaths) *overflow = pp_sat_add(*overflow, c.count);
    else p[k++] = c;
  }
  pp_sort(p, k, sizeof *p, by_id);
  size_t j = 0;
  for (size_t i = 0; i < k; i++) {
    if (j && p[j - 1].id == p[i].id) p[j - 1].count = pp_sat_add(p[j - 1].count, p[i].count);
    else if (p[i].count) p[j++] = p[i];
  }
  *out = p;
  *n = j;
}

/* ppp slots back to Ball-Larus ids: slot id[i] counts interesting path bl[i]; a count in a
   hole cannot come from the instrumented code and is shown as overflow. */
static uint64_t ppp_slots(const PPLoadedUnit *u, const PPTabFunc *f, PPPathCount **out, size_t *n) {
  const unsigned long long *c = u->rec->counters + f->offset;
  char *used = pp_xcalloc(f->num.slots + 1, 1);
  uint64_t holes = 0;
  *out = pp_xmalloc(sizeof(PPPathCount) * (f->num.n + 1));
  *n = 0;
  for (size_t i = 0; i < f->num.n; i++) {
    used[f->num.id[i]] = 1;
    PPPathCount p = { f->num.bl[i], c[f->num.id[i]] };
    if (p.count) (*out)[(*n)++] = p;
  }
  for (uint64_t s = 0; s < f->num.slots; s++)
    if (!used[s]) holes = pp_sat_add(holes, c[s]);
  free(used);
  return holes;
}

PPPathCount *pp_function_paths(const PPLoadedUnit *u, int fn, size_t *n, uint64_t *overflow) {
  const PPTabFunc *f = &u->tab.funcs.v[fn];
  VEC(PPPathCount) v = {0};
  *overflow = 0;
  if (pp_tables_edge_mode(&u->tab) ||
      (!f->hash && !f->kpath && f->offset + (f->ppp_array ? f->num.slots - 1 : f->g.npaths) >= u->rec->ncounters)) {
    /* no paths: counters sit on edges, or there are none (an osp unit) */
    *n = 0;
    return NULL;
  }
  if (f->kpath) {
    forest_paths(u, fn, &v.v, &v.n, overflow);
  } else if (!f->hash && !f->ppp_array) {
    for (uint64_t id = 0; id < f->g.npaths; id++) {
      PPPathCount p = { id, u->rec->counters[f->offset + id] };
      if (p.count) VEC_PUSH(v, p);
    }
    *overflow = u->rec->counters[f->offset + f->g.npaths];
  } else {  /* hash mode, or a ppp function's residual paths */
    if (f->ppp_array) {
      *overflow = ppp_slots(u, f, &v.v, &v.n);
      v.cap = v.n;
    }
    for (unsigned long long i = 0; i < u->rec->nhash; i++) {
      const struct pp_hent *h = &u->rec->hash[i];
      if (h->fn != (unsigned long long)fn) continue;
      if (h->id >= f->g.npaths) { *overflow += h->count; continue; }
      PPPathCount p = { h->id, h->count };
      VEC_PUSH(v, p);
    }
  }
  pp_sort(v.v, v.n, sizeof *v.v, hotter);
  *n = v.n;
  return v.v;
}

int pp_path_blocks(const PPGraph *g, uint64_t id, int *blocks, int cap, bool *from_loop, bool *to_loop) {
  int *edges = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  int k = pp_number_decode(g, id, edges, (int)g->edges.n + 1), nb = 0;
  if (k <= 0) { free(edges); return -1; }
  *from_loop = g->edges.v[edges[0]].kind == EK_DUMMY_ENTRY;
  *to_loop = g->edges.v[edges[k - 1]].kind == EK_DUMMY_EXIT;
  if (!*from_loop && nb < cap) blocks[nb++] = PP_ENTRY;
  for (int i = 0; i < k && nb < cap; i++)
    if (g->edges.v[edges[i]].dst != PP_EXIT) blocks[nb++] = g->edges.v[edges[i]].dst;
  free(edges);
  return nb;
}

/* Appends the lines of blocks[0..nb) of f to s: "4-5 7 9", lines of another file than the last
   one named (starting from *last_file) carry that file's name. */
void pp_blocks_lines(PPStr *s, const PPTables *t, const PPTabFunc *f, const int *blocks, int nb, int *last_file) {
  PPStr prev = {0};
  for (int i = 0; i < nb; i++) {
    const PPBlock *b = &f->g.blocks.v[blocks[i]];
    for (size_t j = 0; j < b->lines.n; j++) {
      const PPLines *l = &b->lines.v[j];
      char *txt = l->first == l->last ? pp_xasprintf("%u", l->first) : pp_xasprintf("%u-%u", l->first, l->last);
      if (!prev.s || strcmp(prev.s, txt) || l->file != *last_file) {
        if (l->file != *last_file) pp_str_addf(s, "%s%s:", s->n ? " " : "", t->files.v[l->file]);
        else if (s->n && s->s[s->n - 1] != ' ') pp_str_add(s, " ");
        pp_str_add(s, txt);
        free(prev.s);
        prev.s = txt;
      } else free(txt);
      *last_file = l->file;
    }
  }
  free(prev.s);
}

char *pp_path_lines(const PPTables *t, const PPTabFunc *f, uint64_t id) {
  int cap = (int)f->g.blocks.n + 2, *blocks = pp_xmalloc(sizeof(int) * (size_t)cap);
  bool from_loop, to_loop;
  int nb = pp_path_blocks(&f->g, id, blocks, cap, &from_loop, &to_loop);
  PPStr s = {0};
  if (nb < 0) { free(blocks); return pp_xstrdup("(id outside the function's paths)"); }
  pp_str_add(&s, from_loop ? "[loop] " : "");
  int last_file = f->file;
  pp_blocks_lines(&s, t, f, blocks, nb, &last_file);
  pp_str_add(&s, to_loop ? " [back]" : "");
  free(blocks);
  return pp_str_take(&s);
}

/* ---- the program's functions ---- */

static bool same_function(const PPFuncView *v, const PPLoadedUnit *u, int fn) {
  const PPTabFunc *a = &v->u->tab.funcs.v[v->fn], *b = &u->tab.funcs.v[fn];
  return !strcmp(a->name, b->name) && a->line == b->line && a->g.npaths == b->g.npaths &&
         pp_tables_edge_mode(&v->u->tab) == pp_tables_edge_mode(&u->tab) &&
         a->g.edges.n == b->g.edges.n && !strcmp(v->u->tab.files.v[a->file], u->tab.files.v[b->file]);
}

static int by_id(const void *a, const void *b) {
  const PPPathCount *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id;
}

static uint64_t sum(const PPPathCount *p, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i++) s = pp_sat_add(s, p[i].count);
  return s;
}

/* Adds another copy's counts to v: both lists by id, equal ids summed, hottest first again. */
static void add_copy(PPFuncView *v, PPPathCount *p, size_t n, uint64_t ovf) {
  v->paths = pp_xrealloc(v->paths, sizeof *p * (v->n + n + 1));
  if (n) memcpy(v->paths + v->n, p, sizeof *p * n);  /* p is NULL when empty */
  size_t m = v->n + n, k = 0;
  pp_sort(v->paths, m, sizeof *p, by_id);
  for (size_t i = 0; i < m; i++) {
    if (k && v->paths[k - 1].id == v->paths[i].id) v->paths[k - 1].count = pp_sat_add(v->paths[k - 1].count, v->paths[i].count);
    else v->paths[k++] = v->paths[i];
  }
  v->n = k;
  pp_sort(v->paths, v->n, sizeof *p, hotter);
  v->total = sum(v->paths, v->n);
  v->overflow = pp_sat_add(v->overflow, ovf);
  v->copies++;
}

/* Edge mode: adds a copy's edge counts (solved from its chord counters) to v. */
static void add_edges(PPFuncView *v, const PPLoadedUnit *u, int fn) {
  const PPTabFunc *f = &u->tab.funcs.v[fn];
  size_t m = f->g.edges.n;
  uint64_t *e = pp_xcalloc(m + 1, sizeof(uint64_t));
  v->unbalanced |= !pp_flow_edges(f, u->rec->counters, e);
  if (!v->edges) v->edges = pp_xcalloc(m + 1, sizeof(uint64_t));
  for (size_t i = 0; i <= m; i++) v->edges[i] = pp_sat_add(v->edges[i], e[i]);
  free(e);
}

PPFuncView *pp_program_functions(const PPLoaded *l, size_t *n) {
  VEC(PPFuncView) v = {0};
  for (size_t i = 0; i < l->units.n; i++)
    for (size_t fn = 0; fn < l->units.v[i].tab.funcs.n; fn++) {
      size_t k, np;
      uint64_t ovf;
      PPPathCount *p = pp_function_paths(&l->units.v[i], (int)fn, &np, &ovf);
      for (k = 0; k < v.n && !same_function(&v.v[k], &l->units.v[i], (int)fn); k++) {}
      if (k == v.n) {
        PPFuncView f = { &l->units.v[i], (int)fn, NULL, 0, 0, 0, 0, NULL, false };
        VEC_PUSH(v, f);
      }
      add_copy(&v.v[k], p, np, ovf);
      free(p);
      if (pp_tables_edge_mode(&l->units.v[i].tab)) add_edges(&v.v[k], &l->units.v[i], (int)fn);
    }
  *n = v.n;
  return v.v;
}

void pp_program_free(PPFuncView *v, size_t n) {
  for (size_t i = 0; i < n; i++) { free(v[i].paths); free(v[i].edges); }
  free(v);
}

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

static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static void print_function(const PPFuncView *v, size_t top) {
  const PPTabFunc *f = &v->u->tab.funcs.v[v->fn];
  printf("\n%s (%s:%u-%u): %" PRIu64 " path executions, %zu of %" PRIu64 " paths executed, %d probes on %d edges%s",
         f->name, base(v->u->tab.files.v[f->file]), f->line, f->end_line, v->total, v->n, f->g.npaths, f->probes,
         f->cfg_edges, f->hash ? ", hash table" : "");
  if (f->ppp) printf(", %zu interesting in %" PRIu64 " ppp slots", f->num.n, f->ppp_array ? f->num.slots : 0);
  if (v->copies > 1) printf(", compiled into %d units", v->copies);
  printf("\n");
  if (v->overflow) printf("  !! %" PRIu64 " path ends with an out-of-range register (overflow)\n", v->overflow);
  for (size_t i = 0; i < v->n && i < top; i++) {
    char *lines = pp_path_lines(&v->u->tab, f, v->paths[i].id);
    printf("  %12" PRIu64 " %6.1f%%  #%-6" PRIu64 " %s\n", v->paths[i].count,
           100.0 * (double)v->paths[i].count / (double)v->total, v->paths[i].id, lines);
    free(lines);
  }
  if (v->n > top) printf("  ... %zu more executed paths\n", v->n - top);
}

static const char *profile_name(const char *arg) {
  if (arg) return arg;
  const char *e = getenv("PATHPROF_FILE");
  return e && *e && !strchr(e, '%') ? e : "pathprof.out";
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
    char *where = pp_xasprintf("%s (%s:%u)", f->name, base(fv->u->tab.files.v[f->file]), f->line);
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

int pp_cmd_report(int argc, char **argv) {
  size_t top = 10;
  const char *only = NULL, *file = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--top") || !strcmp(argv[i], "--function")) {
      if (i + 1 >= argc) { fprintf(stderr, "pathprof report: %s needs a value\n", argv[i]); return 2; }
      if (argv[i][2] == 'f') { only = argv[++i]; continue; }
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || v <= 0) { fprintf(stderr, "pathprof report: --top wants a positive number, not '%s'\n", argv[i]); return 2; }
      top = (size_t)v;
    }
    else if (argv[i][0] == '-') { fprintf(stderr, "pathprof report: unknown option %s\n", argv[i]); return 2; }
    else file = argv[i];
  }
  file = profile_name(file);
  PPLoaded l;
  if (pp_load(file, &l)) return 1;
  size_t nv;
  PPFuncView *v = pp_program_functions(&l, &nv);
  uint64_t all = 0;
  for (size_t i = 0; i < nv; i++) all = pp_sat_add(all, v[i].total);
  printf("pathprof report: %s: %zu units, %zu functions, %" PRIu64 " path executions\n", file, l.units.n, nv, all);
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
    if ((v[i].total || v[i].overflow) && (!only || named)) VEC_PUSH(busy, &v[i]);
  }
  pp_sort(busy.v, busy.n, sizeof *busy.v, busy_cmp);
  if (!only && busy.n > top) printf("\nThe %zu busiest of %zu executed functions:\n", top, busy.n);
  for (size_t i = 0; i < busy.n && (only || i < top); i++) print_function(busy.v[i], top);
  VEC_FREE(busy);
  for (size_t i = 0; i < l.units.n; i++)
    for (size_t k = 0; k < l.units.v[i].tab.skipped.n; k++) {
      const PPTabSkip *s = &l.units.v[i].tab.skipped.v[k];
      printf("\nnot instrumented: %s (%s:%u): %s\n", s->name, base(l.units.v[i].tab.files.v[s->file]), s->line, s->why);
    }
  if (!known) fprintf(stderr, "pathprof report: %s: no instrumented function named '%s'\n", file, only);
  int rc = l.missing || !known ? 1 : 0;
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
      dump_kpaths(u, (int)fn);
      free(blocks);
      free(p);
    }
    if (u->rec->dropped) printf("D %016llx %llu\n", u->rec->checksum, u->rec->dropped);
  }
}

static void dump_raw(const char *file, const struct pp_profile *p) {
  printf("profile %s: %zu units\n", file, p->nunits);
  for (size_t i = 0; i < p->nunits; i++) {
    const struct pp_unitrec *u = &p->units[i];
    printf("unit %016llx %s\n  counters %llu, hash entries %llu, dropped %llu\n", u->checksum, u->name, u->ncounters,
           u->nhash, u->dropped);
    for (unsigned long long k = 0; k < u->ncounters; k++)
      if (u->counters[k]) printf("  [%llu] %llu\n", k, u->counters[k]);
    for (unsigned long long k = 0; k < u->nhash; k++)
      printf("  fn %llu path %llu: %llu\n", u->hash[k].fn, u->hash[k].id, u->hash[k].count);
  }
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
           f->g.npaths, f->hash ? "hash" : "array");
    if (!f->hash) printf(" at %" PRIu64, f->offset);
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

int pp_cmd_dump(int argc, char **argv) {
  bool decode = false;
  const char *file = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--decode")) decode = true;
    else if (argv[i][0] == '-') { fprintf(stderr, "pathprof dump: unknown option %s\n", argv[i]); return 2; }
    else file = argv[i];
  }
  file = profile_name(file);
  if (ends_with(file, ".json")) {
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
