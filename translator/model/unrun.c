/* unrun.c: units that were built but never ran: their tables, found beside the objects of the
   units that ran, under $PATHPROF_DB and under a root directory (as gcovr finds .gcno files),
   join a loaded profile with every count 0. */
#include "load.h"
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD 8192     /* bytes of a tables file read to find its checksum, mode and source */
#define MAX_DEPTH 24

/* One tables file found: its checksum, the source it was built from (absolute when the
   tables know the compiler's directory), and when it was written. */
typedef struct {
  char *path, *source;
  uint64_t checksum;
  time_t mtime;
} Found;
typedef VEC(Found) FoundList;

/* The string value of "key":"..." in the compact JSON at t (no escapes in what we read). */
static char *json_field(const char *t, const char *key) {
  char *pat = pp_xasprintf("\"%s\":\"", key);
  const char *p = strstr(t, pat), *e;
  size_t n = strlen(pat);
  free(pat);
  if (!p || !(e = strchr(p + n, '"'))) return NULL;
  for (const char *q = p + n; q < e; q++)
    if (*q == '\\') return NULL;
  return pp_xasprintf("%.*s", (int)(e - p - n), p + n);
}

/* Reads what discovery needs from the start of a tables file (the writer puts checksum,
   source, mode and cwd ahead of the functions); 0, or -1 for a file that is not one. */
static int peek(const char *path, Found *f) {
  FILE *fp = fopen(path, "r");
  char buf[HEAD + 1];
  size_t n = fp ? fread(buf, 1, HEAD, fp) : 0;
  if (fp) fclose(fp);
  buf[n] = 0;
  if (!strstr(buf, "\"pathprof-tables\"")) return -1;
  char *sum = json_field(buf, "checksum"), *src = json_field(buf, "source"), *mode = json_field(buf, "mode");
  char *cwd = json_field(buf, "cwd");
  int rc = sum && src && !(mode && !strcmp(mode, "osp")) ? 0 : -1;  /* osp units count no paths */
  if (!rc) {
    f->checksum = strtoull(sum, NULL, 16);
    f->source = src[0] == '/' || !cwd ? pp_xstrdup(src) : pp_xasprintf("%s/%s", cwd, src);
  }
  free(sum); free(src); free(mode); free(cwd);
  return rc;
}

/* Build-system scratch directories hold units whose tables the build system deletes. */
static bool scratch(const char *name) {
  return !strcmp(name, "CMakeScratch") || !strcmp(name, "CMakeTmp") || name[0] == '.';
}

/* Collects the *.pp.json under dir (depth levels down) into out. */
static void scan(const char *dir, int depth, FoundList *out) {
  DIR *d = opendir(dir);
  struct dirent *e;
  if (!d) return;
  while ((e = readdir(d))) {
    if (scratch(e->d_name)) continue;
    char *p = pp_xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    Found f = { NULL, NULL, 0, 0 };
    bool ok = stat(p, &st) == 0;
    if (ok && S_ISDIR(st.st_mode) && depth > 0) scan(p, depth - 1, out);
    else if (ok && S_ISREG(st.st_mode) && pp_ends_with(p, ".pp.json") && peek(p, &f) == 0) {
      char real[PATH_MAX];
      f.path = pp_xstrdup(realpath(p, real) ? real : p);
      f.mtime = st.st_mtime;
      bool dup = false;
      for (size_t i = 0; i < out->n && !dup; i++) dup = !strcmp(out->v[i].path, f.path);
      if (dup) { free(f.path); free(f.source); }
      else VEC_PUSH(*out, f);
    }
    free(p);
  }
  closedir(d);
}

/* A unit's source as discovery names it: absolute when its tables know the directory. */
static char *source_of(const PPTables *t) {
  return t->source[0] == '/' || !t->cwd ? pp_xstrdup(t->source) : pp_xasprintf("%s/%s", t->cwd, t->source);
}

/* Whether candidate c should join: no unit of the profile has its checksum or its source (that
   file ran, maybe from another build), its source still exists, and no newer tables of the
   same source were found. */
static bool wanted(const PPLoaded *l, char **ran, size_t nran, const FoundList *fl, size_t c) {
  const Found *f = &fl->v[c];
  struct stat st;
  for (size_t i = 0; i < l->prof.nunits; i++)
    if (l->prof.units[i].checksum == f->checksum) return false;
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

int pp_load_unrun(PPLoaded *l, const char *root) {
  FoundList fl = {0};
  size_t nran = l->units.n, added = 0;
  char **ran = pp_xcalloc(nran + 1, sizeof *ran);
  for (size_t i = 0; i < nran; i++) {
    ran[i] = source_of(&l->units.v[i].tab);
    char *dir = pp_xstrdup(l->units.v[i].tables_path), *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    scan(slash ? (*dir ? dir : "/") : ".", 0, &fl);  /* beside the objects of the units that ran */
    free(dir);
  }
  const char *db = getenv("PATHPROF_DB");
  if (db && *db) {
    char *copy = pp_xstrdup(db), *save = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) scan(dir, 8, &fl);
    free(copy);
  }
  scan(root ? root : ".", MAX_DEPTH, &fl);
  for (size_t c = 0; c < fl.n; c++) {
    if (!wanted(l, ran, nran, &fl, c)) continue;
    PPLoadedUnit lu = { NULL, {0}, pp_xstrdup(fl.v[c].path), &l->prof, true };
    char *err = NULL;
    if (pp_tables_read(lu.tables_path, &lu.tab, &err) || lu.tab.checksum != fl.v[c].checksum) {
      fprintf(stderr, "pathprof: %s\n", err ? err : "tables changed while being read");
      free(err);
      free(lu.tables_path);
      continue;
    }
    lu.rec = zero_record(&lu.tab, lu.tables_path);
    VEC_PUSH(l->units, lu);
    added++;
  }
  for (size_t i = 0; i < nran; i++) free(ran[i]);
  free(ran);
  for (size_t i = 0; i < fl.n; i++) { free(fl.v[i].path); free(fl.v[i].source); }
  VEC_FREE(fl);
  return (int)added;
}
