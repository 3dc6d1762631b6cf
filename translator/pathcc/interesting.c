/* --interesting=SPEC: the Ball-Larus paths a ppp build numbers compactly, per function. */
#include "interesting.h"
#include "model/load.h"
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Records the DAG a profile's ids belong to: block count and live edges in order. */
static void take_shape(PPIntFunc *f, const PPGraph *g) {
  f->shaped = true;
  f->nblocks = g->blocks.n;
  for (size_t i = 0; i < g->edges.n; i++)
    if (!g->edges.v[i].dead) {
      PPShapeEdge e = { g->edges.v[i].src, g->edges.v[i].dst, (int)g->edges.v[i].kind };
      VEC_PUSH(f->edges, e);
    }
}

/* The paths of one function view: all executed ones (pct < 0), or the hottest that cover pct
   percent of its path executions. */
static void take_paths(PPIntFunc *f, const PPFuncView *v, double pct) {
  uint64_t sum = 0;
  for (size_t k = 0; k < v->n; k++) {
    if (pct >= 0 && (double)sum >= pct / 100.0 * (double)v->total) break;
    if (v->paths[k].id < v->u->tab.funcs.v[v->fn].g.npaths) VEC_PUSH(f->ids, v->paths[k].id);
    sum = pp_sat_add(sum, v->paths[k].count);
  }
}

/* A profile's executed paths (all, or the hottest pct percent) of every function whose tables
   the reporter's loader finds, with the graph each set numbers. */
static int from_profile(const char *file, double pct, PPInteresting *out, char **err) {
  PPLoaded l;
  if (pp_load(file, &l)) { *err = pp_xasprintf("%s: not a usable profile (see above)", file); return -1; }
  if (!l.units.n) {
    *err = pp_xasprintf("%s: no unit of this profile has its tables (see above)", file);
    pp_loaded_free(&l);
    return -1;
  }
  size_t nv;
  PPFuncView *v = pp_program_functions(&l, &nv);
  for (size_t i = 0; i < nv; i++) {
    const PPTabFunc *tf = &v[i].u->tab.funcs.v[v[i].fn];
    PPIntFunc f;
    memset(&f, 0, sizeof f);
    f.file = pp_xstrdup(v[i].u->tab.files.v[tf->file]);
    f.name = pp_xstrdup(tf->name);
    take_shape(&f, &tf->g);
    take_paths(&f, &v[i], pct);
    VEC_PUSH(out->funcs, f);
  }
  pp_program_free(v, nv);
  pp_loaded_free(&l);
  return 0;
}

/* A path id in the JSON form: a non-negative integer or a decimal string. */
static int json_id(json_t *x, uint64_t *id) {
  if (json_is_integer(x) && json_integer_value(x) >= 0) { *id = (uint64_t)json_integer_value(x); return 0; }
  const char *s = json_string_value(x);
  char *end;
  if (!s || !*s || *s == '-') return -1;
  errno = 0;
  *id = strtoull(s, &end, 10);
  return *end || errno ? -1 : 0;
}

/* The JSON form (doc/formats.md, interesting paths); the first malformed entry is the error. */
static int from_json(const char *file, PPInteresting *out, char **err) {
  json_error_t je;
  json_t *root = json_load_file(file, 0, &je), *fn;
  if (!root) { *err = pp_xasprintf("%s: neither a profile nor readable JSON: %s (line %d)", file, je.text, je.line); return -1; }
  const char *fmt = json_string_value(json_object_get(root, "format"));
  json_t *funcs = json_object_get(root, "functions");
  size_t i;
  int rc = 0;
  if (!fmt || strcmp(fmt, "pathprof-interesting") || json_integer_value(json_object_get(root, "version")) != 1 ||
      !json_is_array(funcs)) {
    *err = pp_xasprintf("%s: not a pathprof-interesting file version 1 (doc/formats.md)", file);
    json_decref(root);
    return -1;
  }
  json_array_foreach(funcs, i, fn) {
    const char *name = json_string_value(json_object_get(fn, "name")), *src = json_string_value(json_object_get(fn, "file"));
    json_t *paths = json_object_get(fn, "paths"), *p;
    size_t j;
    if (!name || !json_is_array(paths) || (json_object_get(fn, "file") && !src)) {
      *err = pp_xasprintf("%s: functions[%zu] needs a \"name\", a \"paths\" array and, if any, a string \"file\"", file, i);
      rc = -1;
      break;
    }
    PPIntFunc f;
    memset(&f, 0, sizeof f);
    f.name = pp_xstrdup(name);
    f.file = src ? pp_xstrdup(src) : NULL;
    json_array_foreach(paths, j, p) {
      uint64_t id;
      if (json_id(p, &id)) { *err = pp_xasprintf("%s: functions[%zu] (%s): paths[%zu] is not a path id", file, i, name, j); rc = -1; }
      else VEC_PUSH(f.ids, id);
    }
    VEC_PUSH(out->funcs, f);
    if (rc) break;
  }
  json_decref(root);
  return rc;
}

/* "hot:P%:FILE" (the % is optional) -> P and FILE; returns -1 for another form. */
static int parse_hot(const char *spec, double *pct, const char **file) {
  if (strncmp(spec, "hot:", 4)) return -1;
  char *end;
  errno = 0;
  *pct = strtod(spec + 4, &end);
  if (end == spec + 4 || errno || *pct <= 0 || *pct > 100) return -2;
  if (*end == '%') end++;
  if (*end != ':' || !end[1]) return -2;
  *file = end + 1;
  return 0;
}

int pp_interesting_load(const char *spec, PPInteresting *out, char **err) {
  memset(out, 0, sizeof *out);
  out->spec = pp_xstrdup(spec);
  double pct = -1;
  const char *file = spec;
  int hot = parse_hot(spec, &pct, &file);
  if (hot == -2) { *err = pp_xasprintf("--interesting=%s: hot wants hot:P%%:PROFILE with 0 < P <= 100", spec); return -1; }
  FILE *f = fopen(file, "rb");
  char magic[8] = {0};
  if (!f) { *err = pp_xasprintf("%s: cannot read: %s", file, strerror(errno)); return -1; }
  size_t got = fread(magic, 1, sizeof magic, f);
  fclose(f);
  bool profile = got == 8 && !memcmp(magic, "PATHPROF", 8);
  if (hot == 0 && !profile) { *err = pp_xasprintf("%s: hot:P%% needs a profile, this is none", file); return -1; }
  return profile ? from_profile(file, pct, out, err) : from_json(file, out, err);
}

/* Same live edges in the same order on the same blocks: Ball-Larus ids mean the same paths. */
static bool same_shape(const PPIntFunc *f, const PPGraph *g) {
  size_t k = 0;
  if (f->nblocks != g->blocks.n) return false;
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (e->dead) continue;
    if (k >= f->edges.n || f->edges.v[k].src != e->src || f->edges.v[k].dst != e->dst || f->edges.v[k].kind != (int)e->kind)
      return false;
    k++;
  }
  return k == f->edges.n;
}

/* Files match when equal or, failing that, when their base names are (a build elsewhere). */
const PPIntFunc *pp_interesting_find(const PPInteresting *s, const char *file, const char *name, const PPGraph *g,
                                     bool *changed) {
  const PPIntFunc *best = NULL;
  int best_rank = 0;
  *changed = false;
  for (size_t i = 0; i < s->funcs.n; i++) {
    const PPIntFunc *f = &s->funcs.v[i];
    if (strcmp(f->name, name)) continue;
    int rank = !f->file || !strcmp(f->file, file) ? 2 : !strcmp(pp_base_name(f->file), pp_base_name(file)) ? 1 : 0;
    if (!rank) continue;
    if (f->shaped && !same_shape(f, g)) { *changed = true; continue; }
    if (rank > best_rank) { best = f; best_rank = rank; }
  }
  if (best) *changed = false;
  return best;
}

void pp_interesting_free(PPInteresting *s) {
  for (size_t i = 0; i < s->funcs.n; i++) {
    free(s->funcs.v[i].file);
    free(s->funcs.v[i].name);
    VEC_FREE(s->funcs.v[i].ids);
    VEC_FREE(s->funcs.v[i].edges);
  }
  VEC_FREE(s->funcs);
  free(s->spec);
  memset(s, 0, sizeof *s);
}
