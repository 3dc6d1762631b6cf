/* Profile + tables -> decoded path counts: finding each unit's tables, paths per function and per
   program, and path ids as blocks and source lines; what pathprof's commands and pathcc's
   --interesting share. */
#include "load.h"
#include "number.h"
#include "flow.h"
#include "kipf.h"
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- finding tables ---- */

/* Skips JSON white space. */
static const char *ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
  return p;
}

/* The end of the JSON string starting at p (its opening quote), or NULL when it runs past end. */
static const char *string_end(const char *p, const char *end) {
  for (p++; p < end; p++) {
    if (*p == '\\') p++;
    else if (*p == '"') return p + 1;
  }
  return NULL;
}

/* The top-level "checksum" from the first bytes of a tables file (pathcc writes it among the
   first keys): 1 found, 0 not there before a nested value or the end of the bytes (the caller
   then parses the whole file). */
static int quick_checksum(const char *p, const char *end, uint64_t *sum) {
  p = ws(p, end);
  if (p >= end || *p++ != '{') return 0;
  for (;;) {
    p = ws(p, end);
    if (p >= end || *p != '"') return 0;
    const char *k = p, *ke = string_end(p, end);
    if (!ke) return 0;
    p = ws(ke, end);
    if (p >= end || *p++ != ':') return 0;
    p = ws(p, end);
    if (p >= end) return 0;
    if (*p == '"') {
      const char *ve = string_end(p, end);
      if (!ve) return 0;
      if (ke - k == 10 && !strncmp(k, "\"checksum\"", 10)) {
        char *stop;
        *sum = strtoull(p + 1, &stop, 16);
        return stop == ve - 1 && ve - p > 2;
      }
      p = ve;
    } else if (*p == '{' || *p == '[') return 0;
    else while (p < end && *p != ',' && *p != '}') p++;
    p = ws(p, end);
    if (p >= end || *p++ != ',') return 0;
  }
}

/* The checksum a tables file declares, without building its graphs. */
static int tables_checksum(const char *path, uint64_t *sum) {
  char head[4096];
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (quick_checksum(head, head + n, sum)) return 0;
  size_t len;
  char *text = pp_read_file(path, &len);
  json_error_t je;
  json_t *root = text ? json_loadb(text, len, 0, &je) : NULL;
  const char *s = root ? json_string_value(json_object_get(root, "checksum")) : NULL;
  int rc = s ? 0 : -1;
  if (s) *sum = strtoull(s, NULL, 16);
  json_decref(root);
  free(text);
  return rc;
}

/* Build-system scratch directories and hidden ones: their units' tables are the build
   system's to delete (CMake's try-compiles), so no search looks there. */
static bool skipped_dir(const char *name) {
  return name[0] == '.' || !strcmp(name, "CMakeScratch") || !strcmp(name, "CMakeTmp");
}

/* One walk for finding the tables of units that ran and of units that never did (load.h), so
   both look in the same places the same way. */
bool pp_tables_walk(const char *dir, int depth, PPTablesVisit visit, void *arg) {
  DIR *d = opendir(dir);
  struct dirent *e;
  bool stop = false;
  if (!d) return false;
  while (!stop && (e = readdir(d))) {
    if (skipped_dir(e->d_name)) continue;
    char *p = pp_xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    uint64_t s;
    bool ok = stat(p, &st) == 0;
    if (ok && S_ISDIR(st.st_mode)) stop = depth > 0 && pp_tables_walk(p, depth - 1, visit, arg);
    else if (ok && S_ISREG(st.st_mode) && pp_ends_with(p, ".pp.json") && tables_checksum(p, &s) == 0) stop = visit(p, &st, s, arg);
    free(p);
  }
  closedir(d);
  return stop;
}

typedef struct { uint64_t sum; char *found; } Search;

/* Stops the walk at the first tables with the checksum sought. */
static bool has_sum(const char *path, const struct stat *st, uint64_t sum, void *arg) {
  Search *s = arg;
  (void)st;
  if (sum == s->sum) s->found = pp_xstrdup(path);
  return s->found != NULL;
}

/* Depth-limited search of dir for a *.pp.json with the checksum; returns its path or NULL. */
static char *search_dir(const char *dir, uint64_t sum, int depth) {
  Search s = { sum, NULL };
  pp_tables_walk(dir, depth, has_sum, &s);
  return s.found;
}

/* The "source" a tables file names (a new string), or NULL. */
static char *tables_source(const char *path) {
  size_t len;
  char *text = pp_read_file(path, &len), *src = NULL;
  json_error_t je;
  json_t *root = text ? json_loadb(text, len, 0, &je) : NULL;
  const char *s = root ? json_string_value(json_object_get(root, "source")) : NULL;
  if (s) src = pp_xstrdup(s);
  json_decref(root);
  free(text);
  return src;
}

/* The unit's tables: where the build recorded them, else in $PATHPROF_DB or below the working
   directory; *why says what was wrong with the recorded file when none is found, *replaced
   (a new string) names the source when that file holds another compile of it: a source
   compiled again to the same object replaces its tables, as gcc replaces a .gcno, and the
   earlier build's counts then have none. */
static char *find_tables(const struct pp_unitrec *u, char **why, char **replaced) {
  uint64_t s;
  struct stat st;
  *replaced = NULL;
  if (tables_checksum(u->name, &s) == 0 && s == u->checksum) return pp_xstrdup(u->name);
  if (stat(u->name, &st)) *why = pp_xasprintf("%s is missing", u->name);
  else if (tables_checksum(u->name, &s)) *why = pp_xasprintf("%s is not a readable tables file", u->name);
  else {
    *replaced = tables_source(u->name);
    *why = *replaced ? pp_xasprintf("its tables %s were replaced by another compile of %s to the same object "
                                    "(checksum %016" PRIx64 ")", u->name, *replaced, s)
                     : pp_xasprintf("%s belongs to another build (checksum %016" PRIx64 ")", u->name, s);
  }
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

/* One unit's tables, found and read by a worker. */
typedef struct {
  char *path, *why, *terr, *replaced;
  PPTables tab;
  int rc;               /* 0 read, -1 no tables found, -2 unreadable */
} Found;

typedef struct {
  const struct pp_profile *prof;
  Found *found;
  size_t next;          /* the next unit to take */
  pthread_mutex_t lock;
} Work;

/* Takes units one at a time until none is left: finding and parsing tables (JSON, digest)
   is most of a report's time, and units are independent. */
static void *load_units(void *arg) {
  Work *w = arg;
  for (;;) {
    pthread_mutex_lock(&w->lock);
    size_t i = w->next++;
    pthread_mutex_unlock(&w->lock);
    if (i >= w->prof->nunits) return NULL;
    Found *f = &w->found[i];
    f->path = find_tables(&w->prof->units[i], &f->why, &f->replaced);
    if (!f->path) f->rc = -1;
    else if (pp_tables_read(f->path, &f->tab, &f->terr)) f->rc = -2;
  }
}

/* Up to 8 workers, one per processor. */
static void read_all_tables(const struct pp_profile *prof, Found *found) {
  Work w = { prof, found, 0, PTHREAD_MUTEX_INITIALIZER };
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t n = cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus, started = 0;
  if (n > prof->nunits) n = prof->nunits ? prof->nunits : 1;
  pthread_t t[8];
  for (size_t i = 1; i < n; i++)
    if (!pthread_create(&t[started], NULL, load_units, &w)) started++;
  load_units(&w);
  for (size_t i = 0; i < started; i++) pthread_join(t[i], NULL);
}

int pp_load(const char *profile, PPLoaded *l) { return pp_load_test(profile, NULL, l); }

/* The tests a profile has, as "a, b, c" (for a message). */
static char *test_names(const struct pp_profile *p) {
  PPStr s = {0};
  for (size_t t = 0; t < p->ntests; t++) pp_str_addf(&s, "%s'%s'", t ? ", " : "", p->tests[t].name);
  if (!s.s) pp_str_add(&s, "none");
  return pp_str_take(&s);
}

int pp_load_test(const char *profile, const char *test, PPLoaded *l) {
  char err[512];
  memset(l, 0, sizeof *l);
  if (pp_profile_read(profile, &l->prof, err, sizeof err)) {
    fprintf(stderr, "pathprof: %s\n", err);
    return -1;
  }
  if (test && pp_profile_only_test(&l->prof, test, err, sizeof err)) {
    char *names = test_names(&l->prof);
    fprintf(stderr, "pathprof: %s: %s (its tests: %s)\n", profile, err, names);
    free(names);
    pp_profile_free(&l->prof);
    return -1;
  }
  Found *found = pp_xcalloc(l->prof.nunits + 1, sizeof *found);
  read_all_tables(&l->prof, found);
  for (size_t i = 0; i < l->prof.nunits; i++) {  /* in unit order, so messages come out the same */
    const struct pp_unitrec *u = &l->prof.units[i];
    Found *f = &found[i];
    PPLoadedUnit lu = { u, f->tab, f->path, &l->prof, false };
    if (f->rc == -1 && f->replaced)
      fprintf(stderr, "pathprof: %s: unit %016llx of %s refused: %s, and none with its checksum was found under "
              "$PATHPROF_DB or here: its counts are an earlier build's\n", profile, u->checksum, f->replaced, f->why);
    else if (f->rc == -1)
      fprintf(stderr, "pathprof: %s: unit %016llx has no tables: %s, and none with its checksum was found "
              "under $PATHPROF_DB or here\n", profile, u->checksum, f->why);
    free(f->replaced);
    if (f->rc == -1) {
      free(f->why);
      l->missing++;
      continue;
    }
    free(f->why);
    if (f->rc == -2) {
      fprintf(stderr, "pathprof: %s\n", f->terr);
      free(f->terr); free(f->path);
      l->missing++;
      continue;
    }
    if (lu.tab.ncounters != u->ncounters) {
      fprintf(stderr, "pathprof: %s: unit %016llx has %llu counters but its tables %s expect %" PRIu64 "\n",
              profile, u->checksum, u->ncounters, f->path, lu.tab.ncounters);
      pp_tables_free(&lu.tab); free(f->path);
      l->missing++;
      continue;
    }
    VEC_PUSH(l->units, lu);
  }
  free(found);
  return 0;
}

void pp_loaded_free(PPLoaded *l) {
  for (size_t i = 0; i < l->units.n; i++) {
    pp_tables_free(&l->units.v[i].tab);
    free(l->units.v[i].tables_path);
    if (l->units.v[i].unrun) {
      struct pp_unitrec *r = (struct pp_unitrec *)l->units.v[i].rec;
      free(r->name); free(r->counters); free(r);
    }
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

/* Whether block b is one of blocks[0..n). */
static bool has_block(const int *blocks, int n, int b) {
  for (int i = 0; i < n; i++)
    if (blocks[i] == b) return true;
  return false;
}

/* Whether a stop at site ran the derived call c (it stopped in c's block after c). */
static bool stopped_after(const PPDerivedCall *c, uint64_t site) {
  for (size_t k = 0; k < c->after.n; k++)
    if ((uint64_t)c->after.v[k] == (site & PP_SITE_LAST) && !(site & PP_SITE_BEFORE)) return true;
  return false;
}

/* The times the derived function f's calls from function fn ran: each executed path of fn that
   passes a call's block ran it once; each partial path that passed it, or stopped after it in
   its block, once too (a negative partial count takes one back). */
static int64_t calls_from(const PPLoadedUnit *u, const PPTabFunc *f, int fn) {
  const PPTabFunc *g = &u->tab.funcs.v[fn];
  size_t n, cap = g->g.edges.n + 2;
  uint64_t ovf;
  int64_t total = 0;
  int *blocks = pp_xmalloc(sizeof(int) * cap), *es = pp_xmalloc(sizeof(int) * cap);
  PPPathCount *p = pp_function_paths(u, fn, &n, &ovf);
  for (size_t i = 0; i < n; i++) {
    bool a, b;
    int nb = pp_path_blocks(&g->g, p[i].id, blocks, (int)cap, &a, &b);
    for (size_t k = 0; k < f->from.n; k++)
      if (f->from.v[k].fn == fn && has_block(blocks, nb, f->from.v[k].block)) total += (int64_t)p[i].count;
  }
  free(p);
  uint64_t *d = NULL;
  for (unsigned long long i = 0; i < u->rec->npart; i++) {
    const struct pp_part *q = &u->rec->part[i];
    uint64_t id;
    if (q->fn != (unsigned long long)fn) continue;
    if (!d) d = pp_partial_offsets(g);
    int ne = pp_partial_decode(u, g, d, q, es, &id), stop = pp_partial_block(g, q->site), nb = 0;
    if (ne < 0) continue;
    if (ne == 0 || g->g.edges.v[es[0]].kind != EK_DUMMY_ENTRY) blocks[nb++] = PP_ENTRY;
    for (int e = 0; e < ne; e++) blocks[nb++] = g->g.edges.v[es[e]].dst;
    for (size_t k = 0; k < f->from.n; k++) {
      const PPDerivedCall *c = &f->from.v[k];
      if (c->fn == fn && (c->block == stop ? stopped_after(c, q->site) : has_block(blocks, nb, c->block)))
        total += q->count;
    }
  }
  free(d); free(blocks); free(es);
  return total;
}

/* A derived function's one path: the sum over the functions that call it. */
static PPPathCount *derived_paths(const PPLoadedUnit *u, const PPTabFunc *f, size_t *n) {
  int64_t total = 0;
  for (size_t k = 0; k < f->from.n; k++) {
    bool seen = false;  /* each calling function once: calls_from takes all its calls */
    for (size_t j = 0; j < k && !seen; j++) seen = f->from.v[j].fn == f->from.v[k].fn;
    if (!seen) total += calls_from(u, f, f->from.v[k].fn);
  }
  *n = total > 0;
  if (!*n) return NULL;
  PPPathCount *p = pp_xmalloc(sizeof *p);
  p->id = 0;
  p->count = (uint64_t)total;
  return p;
}

PPPathCount *pp_function_paths(const PPLoadedUnit *u, int fn, size_t *n, uint64_t *overflow) {
  const PPTabFunc *f = &u->tab.funcs.v[fn];
  VEC(PPPathCount) v = {0};
  *overflow = 0;
  if (f->derived) return derived_paths(u, f, n);
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

/* ---- partial paths ---- */

int pp_partial_block(const PPTabFunc *f, uint64_t site) {
  site &= PP_SITE_LAST;
  return site < f->stops.n ? f->stops.v[site].block : site == 0 ? PP_ENTRY : -1;
}

/* D(v) = the sum of (value - increment) over any DAG path from the entry to v: the same for
   every such path, because every complete path's increments add up to its value. A register
   holding r at v therefore means the prefix whose values add up to r + D(v). */
uint64_t *pp_partial_offsets(const PPTabFunc *f) {
  const PPGraph *g = &f->g;
  if (!g->out_start) return NULL;
  size_t n = g->blocks.n;
  uint64_t *d = pp_xcalloc(n + 1, sizeof *d);
  char *seen = pp_xcalloc(n + 1, 1);
  int *order = pp_xmalloc(sizeof(int) * (n + 1)), k = pp_graph_topo(g, order);
  seen[PP_ENTRY] = 1;
  for (int i = 0; i < k; i++) {
    int u = order[i];
    if (!seen[u]) continue;
    PP_OUT_FOR(g, u, j) {
      const PPEdge *e = &g->edges.v[g->out_edges[j]];
      if (seen[e->dst]) continue;
      seen[e->dst] = 1;
      d[e->dst] = d[u] + e->val - e->inc;
    }
  }
  free(seen);
  free(order);
  return d;
}

/* The prefix of path p up to block v (p passes through it): its edges, their number, or -1;
   with before, up to the edge into v (v's block not included). */
static int cut_at(const PPGraph *g, uint64_t p, int v, bool before, int *edges, int cap) {
  int *es = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  int k = p < g->npaths ? pp_number_decode(g, p, es, (int)g->edges.n + 1) : -1, n = -1;
  if (v == PP_ENTRY) n = k > 0 && p == 0 ? 0 : -1;  /* nothing adds to the register before the entry block ends */
  for (int i = 0; k > 0 && n < 0 && i < k; i++)
    if (g->edges.v[es[i]].dst == v) n = i + 1;
  if (before && n > 0) n--;
  for (int i = 0; i < n && i < cap; i++) edges[i] = es[i];
  free(es);
  return n > cap ? -1 : n;
}

/* The register plus the offset of the block it stopped at is the path id (pp_partial_offsets). */
int pp_partial_prefix(const PPTabFunc *f, const uint64_t *d, uint64_t site, uint64_t r, int *edges, int cap, uint64_t *id) {
  const PPGraph *g = &f->g;
  int v = pp_partial_block(f, site);
  if (v < 0 || (size_t)v >= g->blocks.n || v == PP_EXIT || !d) return -1;
  *id = r + d[v];
  return cut_at(g, *id, v, (site & PP_SITE_BEFORE) != 0, edges, cap);
}

int pp_partial_edges(const PPTabFunc *f, const PPPartial *p, int *edges, int cap) {
  int v = pp_partial_block(f, p->site);
  if (v < 0 || (size_t)v >= f->g.blocks.n || v == PP_EXIT) return -1;
  return cut_at(&f->g, p->id, v, (p->site & PP_SITE_BEFORE) != 0, edges, cap);
}

/* Edge mode keeps no register, so only the block is known there (load.h). */
int pp_partial_decode(const PPLoadedUnit *u, const PPTabFunc *f, const uint64_t *d, const struct pp_part *p, int *es,
                      uint64_t *id) {
  *id = 0;
  if (pp_tables_edge_mode(&u->tab)) return pp_partial_block(f, p->site);
  return pp_partial_prefix(f, d, p->site, p->r, es, (int)f->g.edges.n + 1, id);
}

/* Adds count activations stopped at (site, id) to v's partial paths. */
static void add_part(PPFuncView *v, uint64_t site, uint64_t id, int64_t count) {
  size_t k;
  for (k = 0; k < v->nparts && !(v->parts[k].site == site && v->parts[k].id == id); k++) {}
  if (k == v->nparts) {
    v->parts = pp_xrealloc(v->parts, sizeof *v->parts * (v->nparts + 1));
    PPPartial q = { site, id, 0 };
    v->parts[v->nparts++] = q;
  }
  v->parts[k].count += count;
}

static void drop_zero_parts(PPFuncView *v) {
  size_t m = 0;
  for (size_t k = 0; k < v->nparts; k++)
    if (v->parts[k].count) v->parts[m++] = v->parts[k];
  v->nparts = m;
}

/* The partial paths of function fn of unit u (hosted profiles keep them on the unit record),
   added to v's: by (site, id), zeros dropped; undecodable ones counted in v->bad_parts. */
static void add_parts(PPFuncView *v, const PPLoadedUnit *u, int fn) {
  int *es = pp_xmalloc(sizeof(int) * (u->tab.funcs.v[fn].g.edges.n + 1));
  uint64_t *d = NULL;
  for (unsigned long long i = 0; i < u->rec->npart; i++) {
    const struct pp_part *p = &u->rec->part[i];
    uint64_t id;
    if (p->fn != (unsigned long long)fn) continue;
    if (!d) d = pp_partial_offsets(&u->tab.funcs.v[fn]);  /* once, and only for a function with some */
    if (pp_partial_decode(u, &u->tab.funcs.v[fn], d, p, es, &id) < 0) { v->bad_parts = pp_sat_add(v->bad_parts, (uint64_t)(p->count < 0 ? -p->count : p->count)); continue; }
    add_part(v, p->site, id, p->count);
  }
  drop_zero_parts(v);
  free(es);
  free(d);
}

char *pp_partial_lines(const PPTables *t, const PPTabFunc *f, const PPPartial *p) {
  int *es = pp_xmalloc(sizeof(int) * (f->g.edges.n + 1)), *blocks = pp_xmalloc(sizeof(int) * (f->g.edges.n + 2));
  int k = pp_partial_edges(f, p, es, (int)f->g.edges.n + 1), nb = 0;
  PPStr s = {0};
  if (k < 0) {
    free(es); free(blocks);
    return pp_xstrdup("(names no prefix of the function's paths)");
  }
  bool from_loop = k > 0 && f->g.edges.v[es[0]].kind == EK_DUMMY_ENTRY;
  if (!from_loop) blocks[nb++] = PP_ENTRY;
  for (int i = 0; i < k; i++) blocks[nb++] = f->g.edges.v[es[i]].dst;
  pp_str_add(&s, from_loop ? "[loop] " : "");
  int last_file = f->file;
  pp_blocks_lines(&s, t, f, blocks, nb, &last_file);
  uint64_t site = p->site & PP_SITE_LAST;
  if (p->site & PP_SITE_BEFORE) pp_str_add(&s, " | up to a __builtin_setjmp's block");
  else if (site && site < f->stops.n) pp_str_addf(&s, " | stopped at line %u", f->stops.v[site].line);
  else pp_str_add(&s, " | stopped before any call");
  free(es); free(blocks);
  return pp_str_take(&s);
}

/* ---- the program's functions ---- */

/* The file a unit's tables name, as one spelling: relative names start in the compiler's working
   directory, and the result is the real path when the file is there, else the path with "." and
   ".." taken out ("inc/h.h" from one directory and "../inc/h.h" from another are one file). */
char *pp_file_key(const PPTables *t, const char *name) {
  char buf[PATH_MAX];
  char *p = name[0] != '/' && t->cwd && *t->cwd ? pp_xasprintf("%s/%s", t->cwd, name) : pp_xstrdup(name);
  if (realpath(p, buf)) { free(p); return pp_xstrdup(buf); }
  bool abs = p[0] == '/';
  /* components on a stack: "." and empty ones dropped, ".." pops what it can */
  VEC(char *) st = {0};
  char *save = NULL;
  for (char *c = strtok_r(p, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
    if (!strcmp(c, ".")) continue;
    if (!strcmp(c, "..") && st.n && strcmp(st.v[st.n - 1], "..")) { st.n--; continue; }
    if (!strcmp(c, "..") && abs && !st.n) continue;
    VEC_PUSH(st, c);
  }
  PPStr out = {0};
  for (size_t i = 0; i < st.n; i++) pp_str_addf(&out, "%s%s", i || abs ? "/" : "", st.v[i]);
  if (!st.n) pp_str_add(&out, abs ? "/" : ".");
  VEC_FREE(st);
  free(p);
  return pp_str_take(&out);
}

static bool same_function(const PPFuncView *v, const PPLoadedUnit *u, int fn) {
  const PPTabFunc *a = &v->u->tab.funcs.v[v->fn], *b = &u->tab.funcs.v[fn];
  if (strcmp(a->name, b->name) || a->line != b->line || a->g.npaths != b->g.npaths ||
      pp_tables_edge_mode(&v->u->tab) != pp_tables_edge_mode(&u->tab) || a->g.edges.n != b->g.edges.n)
    return false;
  char *x = pp_file_key(&v->u->tab, v->u->tab.files.v[a->file]), *y = pp_file_key(&u->tab, u->tab.files.v[b->file]);
  bool same = !strcmp(x, y);
  free(x); free(y);
  return same;
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

/* Edge mode: adds a copy's edge counts (solved from its chord counters, the activations that
   stopped in a block leaving it for the exit unseen) to v, and the stops its splits solve (no
   frame recorded them) to its partial paths. */
static void add_edges(PPFuncView *v, const PPLoadedUnit *u, int fn) {
  const PPTabFunc *f = &u->tab.funcs.v[fn];
  size_t m = f->g.edges.n;
  uint64_t *e = pp_xcalloc(m + 1, sizeof(uint64_t));
  int64_t *stops = pp_xcalloc(f->g.blocks.n + 1, sizeof(int64_t));
  for (unsigned long long i = 0; i < u->rec->npart; i++) {
    int b = u->rec->part[i].fn == (unsigned long long)fn ? pp_partial_block(f, u->rec->part[i].site) : -1;
    if (b >= 0 && (size_t)b < f->g.blocks.n) stops[b] += u->rec->part[i].count;
  }
  int64_t *split_stops = pp_xcalloc(f->splits.n + 1, sizeof(int64_t));
  v->unbalanced |= !pp_flow_edges(f, u->rec->counters, stops, e, split_stops);
  for (size_t k = 0; k < f->splits.n; k++) add_part(v, (uint64_t)f->splits.v[k].site, 0, split_stops[k]);
  drop_zero_parts(v);
  free(split_stops);
  free(stops);
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
        PPFuncView f = { &l->units.v[i], (int)fn, NULL, 0, 0, 0, 0, NULL, false, NULL, 0, 0 };
        VEC_PUSH(v, f);
      }
      add_copy(&v.v[k], p, np, ovf);
      add_parts(&v.v[k], &l->units.v[i], (int)fn);
      free(p);
      if (pp_tables_edge_mode(&l->units.v[i].tab)) add_edges(&v.v[k], &l->units.v[i], (int)fn);
    }
  *n = v.n;
  return v.v;
}

void pp_program_free(PPFuncView *v, size_t n) {
  for (size_t i = 0; i < n; i++) { free(v[i].paths); free(v[i].edges); free(v[i].parts); }
  free(v);
}
