/* unrun.c: units that were built but never run: their tables, found beside the objects of the
   units that ran, under $PATHPROF_DB and under a root directory (as gcovr finds .gcno files),
   join a loaded profile with every count 0. The walk and the source files' key are load.c's,
   so a unit that never ran is found and named as one that ran would be. */
#include "load.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 24

/* One tables file found whose checksum the profile lacks: its tables, the key of the source it
   was built from (pp_file_key), and when it was written. */
typedef struct {
  char *path, *source;
  PPTables tab;
  time_t mtime;
  bool joined;    /* a unit of the profile now owns path and tab */
} Found;
typedef VEC(Found) FoundList;

typedef struct {
  const PPLoaded *l;
  FoundList *out;
} Scan;

/* Keeps tables whose checksum no unit of the profile has (osp units count no paths; a unit with
   no functions has nothing to report), read once here: their source key decides which of them join. */
static bool collect(const char *path, const struct stat *st, uint64_t sum, void *arg) {
  Scan *s = arg;
  char real[PATH_MAX], *err = NULL;
  for (size_t i = 0; i < s->l->prof.nunits; i++)
    if (s->l->prof.units[i].checksum == sum) return false;
  Found f = { pp_xstrdup(realpath(path, real) ? real : path), NULL, { 0 }, st->st_mtime, false };
  for (size_t i = 0; i < s->out->n; i++)
    if (!strcmp(s->out->v[i].path, f.path)) { free(f.path); return false; }
  if (pp_tables_read(f.path, &f.tab, &err)) {
    fprintf(stderr, "pathprof: %s\n", err);
    free(err);
    free(f.path);
    return false;
  }
  if (!strcmp(f.tab.mode, "osp") || !f.tab.funcs.n) {  /* no paths, or nothing that could run */
    pp_tables_free(&f.tab);
    free(f.path);
    return false;
  }
  f.source = pp_file_key(&f.tab, f.tab.source);
  VEC_PUSH(*s->out, f);
  return false;
}

/* Whether candidate c should join: no unit of the profile has its source (that file ran, maybe
   from another build), its source still exists, and no newer tables of the same source were
   found. Sources compare by their keys, as the loader compares files. */
static bool wanted(char **ran, size_t nran, const FoundList *fl, size_t c) {
  const Found *f = &fl->v[c];
  struct stat st;
  for (size_t i = 0; i < nran; i++)
    if (!strcmp(ran[i], f->source)) return false;
  if (stat(f->source, &st) != 0) return false;
  for (size_t i = 0; i < fl->n; i++)
    if (i != c && !strcmp(fl->v[i].source, f->source) &&
        (fl->v[i].mtime > f->mtime || (fl->v[i].mtime == f->mtime && strcmp(fl->v[i].path, f->path) < 0)))
      return false;
  return true;
}

/* A unit record with every count 0 for tables t found at path. */
static struct pp_unitrec *zero_record(const PPTables *t, const char *path) {
  struct pp_unitrec *r = pp_xcalloc(1, sizeof *r);
  r->checksum = t->checksum;
  r->name = pp_xstrdup(path);
  r->ncounters = t->ncounters;
  r->counters = pp_xcalloc(t->ncounters + 1, sizeof *r->counters);
  return r;
}

/* Every place pp_load_unrun looks (load.h), in order: beside the tables of the units that
   ran, under $PATHPROF_DB, under root. */
static void find_all(const PPLoaded *l, const char *root, FoundList *fl) {
  Scan s = { l, fl };
  for (size_t i = 0; i < l->units.n; i++) {
    char *dir = pp_xstrdup(l->units.v[i].tables_path), *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    pp_tables_walk(slash ? (*dir ? dir : "/") : ".", 0, collect, &s);
    free(dir);
  }
  const char *db = getenv("PATHPROF_DB");
  if (db && *db) {
    char *copy = pp_xstrdup(db), *save = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) pp_tables_walk(dir, 8, collect, &s);
    free(copy);
  }
  pp_tables_walk(root ? root : ".", MAX_DEPTH, collect, &s);
}

int pp_load_unrun(PPLoaded *l, const char *root) {
  FoundList fl = {0};
  size_t nran = l->units.n, added = 0;
  char **ran = pp_xcalloc(nran + 1, sizeof *ran);
  for (size_t i = 0; i < nran; i++) ran[i] = pp_file_key(&l->units.v[i].tab, l->units.v[i].tab.source);
  find_all(l, root, &fl);
  for (size_t c = 0; c < fl.n; c++) {
    if (!wanted(ran, nran, &fl, c)) continue;
    PPLoadedUnit lu = { NULL, fl.v[c].tab, fl.v[c].path, &l->prof, true };
    lu.rec = zero_record(&lu.tab, lu.tables_path);
    VEC_PUSH(l->units, lu);
    fl.v[c].joined = true;  /* path and tables are the unit's now; later candidates still read path */
    added++;
  }
  for (size_t i = 0; i < nran; i++) free(ran[i]);
  free(ran);
  for (size_t i = 0; i < fl.n; i++) {
    if (!fl.v[i].joined) { pp_tables_free(&fl.v[i].tab); free(fl.v[i].path); }
    free(fl.v[i].source);
  }
  VEC_FREE(fl);
  return (int)added;
}
