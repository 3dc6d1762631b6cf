/* diffcov.c: differential coverage. The change comes from a unified diff (a file, or git diff
   BASE run here); the lines it adds or modifies in the new version are matched to the profile's
   source files, and for them: which lines ran, which branches were taken, and, per function,
   how many of the static paths through a changed line ran (total minus the paths that avoid
   every changed block, counted on the Ball-Larus DAG) with the first ones that never did. */
#include "diffcov.h"
#include "mcdc.h"
#include "model/number.h"
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- getting the change ---- */

/* Runs argv, capturing its standard output and error; returns its exit status (-1: not run). */
static int capture(char *const argv[], PPStr *out, PPStr *err) {
  int po[2], pe[2];
  if (pipe(po)) return -1;
  if (pipe(pe)) { close(po[0]); close(po[1]); return -1; }
  pid_t pid = fork();
  if (pid < 0) { close(po[0]); close(po[1]); close(pe[0]); close(pe[1]); return -1; }
  if (pid == 0) {
    dup2(po[1], 1);
    dup2(pe[1], 2);
    close(po[0]); close(pe[0]); close(po[1]); close(pe[1]);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
  PPStr *bufs[2] = { out, err };
  int open_fds = 2;
  char buf[65536];
  while (open_fds) {  /* both pipes at once, so neither fills while the other is read */
    if (poll(fds, 2, -1) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !fds[i].revents) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) pp_str_addn(bufs[i], buf, (size_t)n);
      else if (n == 0 || errno != EINTR) { close(fds[i].fd); fds[i].fd = -1; open_fds--; }
    }
  }
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  if (!out->s) pp_str_add(out, "");
  if (!err->s) pp_str_add(err, "");
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The text of the change and the directory its paths are relative to (git's top level for a
   revision, the current directory for a diff file). Returns 0, or -1 after one error line. */
static int read_change(const char *base, char **text, char **dir) {
  struct stat st;
  size_t len;
  *dir = NULL;
  if (!strcmp(base, "-") || (stat(base, &st) == 0 && S_ISREG(st.st_mode))) {
    *text = strcmp(base, "-") ? pp_read_file(base, &len) : NULL;
    if (!strcmp(base, "-")) {
      PPStr s = {0};
      char buf[65536];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) pp_str_addn(&s, buf, n);
      if (!s.s) pp_str_add(&s, "");
      *text = pp_str_take(&s);
    }
    if (!*text) { fprintf(stderr, "pathprof coverage: --diff %s: %s\n", base, strerror(errno)); return -1; }
    *dir = pp_xstrdup(".");
    return 0;
  }
  PPStr out = {0}, err = {0}, top = {0}, terr = {0};
  char *rev_parse[] = { "git", "rev-parse", "--show-toplevel", NULL };
  char *diff[] = { "git", "diff", "--no-color", "--no-ext-diff", "-U0", (char *)base, "--", NULL };
  int rc = capture(rev_parse, &top, &terr);
  if (rc == 0) rc = capture(diff, &out, &err);
  else { free(err.s); err = terr; terr.s = NULL; }
  if (rc != 0) {
    char *nl = err.s ? strchr(err.s, '\n') : NULL;
    if (nl) *nl = 0;
    fprintf(stderr, "pathprof coverage: --diff %s: not a diff file, and git diff %s failed: %s\n", base, base,
            err.s && *err.s ? err.s : "git did not run");
    free(out.s); free(err.s); free(top.s); free(terr.s);
    return -1;
  }
  char *nl = strchr(top.s, '\n');
  if (nl) *nl = 0;
  *dir = pp_str_take(&top);
  *text = pp_str_take(&out);
  free(err.s); free(terr.s);
  return 0;
}

/* ---- reading a unified diff ---- */

typedef struct { char *path; VEC(unsigned) lines; } Changed;
typedef VEC(Changed) ChangedFiles;

/* The new file's name from "+++ b/name\tdate" (NULL for /dev/null): git's b/ prefix goes when
   the old side had a/ (or was /dev/null). */
static char *new_name(const char *line, const char *old) {
  const char *p = line + 4;
  size_t n = strcspn(p, "\t\n");
  if (n == 9 && !strncmp(p, "/dev/null", 9)) return NULL;
  bool git = !old || !strncmp(old, "a/", 2) || !strncmp(old, "/dev/null", 9);
  if (git && n > 2 && !strncmp(p, "b/", 2)) p += 2, n -= 2;
  if (n >= 2 && p[0] == '"' && p[n - 1] == '"') p++, n -= 2;  /* git quotes unusual names */
  return pp_xasprintf("%.*s", (int)n, p);
}

/* Collects, per new file, the lines hunks add (+ lines, counted on the new side). */
static void parse_diff(char *text, ChangedFiles *out) {
  char *old = NULL;
  Changed *cur = NULL;
  unsigned nl = 0;
  long left_old = 0, left_new = 0;
  for (char *line = text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    if (left_old > 0 || left_new > 0) {  /* inside a hunk */
      if (line[0] == '+') { if (cur) VEC_PUSH(cur->lines, nl); nl++; left_new--; continue; }
      if (line[0] == '-') { left_old--; continue; }
      if (line[0] == ' ' || !line[0]) { nl++; left_new--; left_old--; continue; }
      if (line[0] == '\\') continue;  /* "\ No newline at end of file" */
      left_old = left_new = 0;
    }
    if (!strncmp(line, "--- ", 4)) { free(old); old = pp_xstrdup(line + 4); cur = NULL; }
    else if (!strncmp(line, "+++ ", 4)) {
      char *name = new_name(line, old);
      cur = NULL;
      if (name) {
        Changed c = { name, { 0, 0, 0 } };
        VEC_PUSH(*out, c);
        cur = &out->v[out->n - 1];
      }
    } else if (!strncmp(line, "@@ ", 3)) {
      unsigned long os = 0, oc = 1, ns = 0, nc = 1;
      const char *p = line + 3;
      char *end;
      if (*p == '-') { os = strtoul(p + 1, &end, 10); p = end; if (*p == ',') { oc = strtoul(p + 1, &end, 10); p = end; } }
      while (*p == ' ') p++;
      if (*p == '+') { ns = strtoul(p + 1, &end, 10); p = end; if (*p == ',') { nc = strtoul(p + 1, &end, 10); } }
      (void)os;
      left_old = (long)oc;
      left_new = (long)nc;
      nl = (unsigned)ns;
    }
  }
  free(old);
}

/* The coverage file a changed path names: dir/path as found on disk, else the one file whose
   path ends with /path. Returns its index or -1. */
static int match_file(const PPCoverage *c, const char *dir, const char *path) {
  char buf[PATH_MAX];
  char *full = pp_xasprintf("%s/%s", dir, path);
  const char *real = realpath(full, buf);
  free(full);
  int found = -1, n = 0;
  for (size_t i = 0; i < c->files.n; i++) {
    const char *p = pp_coverage_file_name(&c->files.v[i]);
    if (real && !strcmp(p, real)) { found = (int)i; n = 1; break; }
    size_t lp = strlen(p), lq = strlen(path);
    if (lp > lq && p[lp - lq - 1] == '/' && !strcmp(p + lp - lq, path)) { found = (int)i; n++; }
  }
  return n == 1 ? found : -1;
}

/* ---- the coverage of the changed lines ---- */

static bool changed_at(const PPDiffFile *f, unsigned ln) { return ln && ln <= f->nchanged_max && f->changed[ln]; }

/* Marks the blocks of fn with a line of its own file that changed. */
static char *changed_blocks(const PPCovFunc *fn, const PPDiffFile *df, bool *any) {
  const PPGraph *g = &fn->f->g;
  char *ch = pp_xcalloc(g->blocks.n + 1, 1);
  *any = false;
  for (size_t b = 0; b < g->blocks.n; b++) {
    if (!g->blocks.v[b].live) continue;
    for (size_t r = 0; r < g->blocks.v[b].lines.n && !ch[b]; r++) {
      const PPLines *l = &g->blocks.v[b].lines.v[r];
      if (l->file != fn->f->file) continue;
      for (unsigned ln = l->first; ln <= l->last && !ch[b]; ln++) ch[b] = changed_at(df, ln);
    }
    *any |= ch[b];
  }
  return ch;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

typedef struct {
  const PPGraph *g;
  const char *ch, *ex;    /* changed blocks; excluded ones (markers), whose paths are left out */
  const uint64_t *nex;    /* paths avoiding excluded blocks, per node */
  const uint64_t *av;     /* paths avoiding excluded and changed blocks, per node */
  const uint64_t *ran;    /* executed ids, sorted */
  size_t nran;
  PPDiffFunc *out;
} Missed;

/* Depth-first over the DAG in id order, only into nodes from which a path through a changed
   block and no excluded one is left (or one is already on the way), collecting ids that never
   ran; every branch taken ends in such a path, so the walk costs at most the executed ones
   plus those collected. */
static void walk(Missed *m, int v, uint64_t id, bool through, bool first) {
  if (m->out->nmissed >= PP_DIFF_MISSED) { m->out->more_missed = true; return; }
  if (v == PP_EXIT) {
    if (through && !bsearch(&id, m->ran, m->nran, sizeof *m->ran, cmp_u64)) m->out->missed[m->out->nmissed++] = id;
    return;
  }
  PP_OUT_FOR(m->g, v, j) {
    const PPEdge *e = &m->g->edges.v[m->g->out_edges[j]];
    bool loop_start = first && e->kind == EK_DUMMY_ENTRY;  /* the entry's own code does not run */
    if ((m->ex[v] && !loop_start) || (e->dst != PP_EXIT && m->ex[e->dst])) continue;
    bool t = through || (m->ch[v] && !loop_start) || m->ch[e->dst];
    if (!t && m->nex[e->dst] == m->av[e->dst]) continue;  /* nothing through the change from here */
    walk(m, e->dst, id + e->val, t, false);
    if (m->out->more_missed) return;
  }
}

/* A function's paths through the changed blocks and no excluded one (exclude.c's rule, so
   --diff leaves out the paths the plain report does): static ones, executed ones, missed ids. */
static void function_paths(const PPCoverage *c, const PPCovFunc *fn, const char *ch, PPDiffFunc *df) {
  const PPGraph *g = &fn->f->g;
  if (fn->view->edges || !g->np) return;  /* edge mode counts no paths */
  df->counted = true;
  char *ex = pp_coverage_excluded_blocks(c, fn), *both = pp_xmalloc(g->blocks.n + 1);
  for (size_t b = 0; b <= g->blocks.n; b++) both[b] = ex[b] || ch[b];
  uint64_t *nex = pp_paths_avoiding(g, ex), *av = pp_paths_avoiding(g, both);
  df->paths = nex[PP_ENTRY] >= av[PP_ENTRY] ? nex[PP_ENTRY] - av[PP_ENTRY] : 0;
  uint64_t *ran = pp_xmalloc(sizeof(uint64_t) * (fn->view->n + 1));
  size_t nran = 0;
  for (size_t i = 0; i < fn->view->n; i++) {
    if (!fn->view->paths[i].count || fn->view->paths[i].id >= g->npaths) continue;
    ran[nran++] = fn->view->paths[i].id;
    df->paths_hit += pp_path_runs_marked(g, fn->view->paths[i].id, ch) && !pp_path_runs_marked(g, fn->view->paths[i].id, ex);
  }
  pp_sort(ran, nran, sizeof *ran, cmp_u64);
  Missed m = { g, ch, ex, nex, av, ran, nran, df };
  if (df->paths > df->paths_hit) walk(&m, PP_ENTRY, 0, false, true);
  free(ran); free(nex); free(av); free(both); free(ex);
}

/* Lines, branches, functions and paths of the changed code in one file. */
static void file_sums(const PPCoverage *c, PPDiff *d, size_t k) {
  PPDiffFile *df = &d->files.v[k];
  const PPCovFile *f = &c->files.v[df->file];
  for (unsigned ln = 1; ln <= f->nlines; ln++)
    if (pp_line_counted(f, ln) && changed_at(df, ln)) { df->sum.lines++; df->sum.lines_hit += f->lines[ln].count > 0; }
  for (size_t b = 0; b < f->branches.n; b++)
    if (!f->branches.v[b].excluded && changed_at(df, f->branches.v[b].line)) { df->sum.br++; df->sum.br_hit += f->branches.v[b].count > 0; }
  for (size_t i = 0; i < f->funcs.n; i++) {
    const PPCovFunc *fn = &c->funcs.v[f->funcs.v[i]];
    bool any;
    char *ch = changed_blocks(fn, df, &any);
    if (any) {
      PPDiffFunc x;
      memset(&x, 0, sizeof x);
      x.func = f->funcs.v[i];
      x.dfile = (int)k;
      function_paths(c, fn, ch, &x);
      df->sum.funcs++;
      df->sum.funcs_hit += fn->calls > 0;
      df->sum.paths = pp_sat_add(df->sum.paths, x.paths);
      df->sum.paths_hit = pp_sat_add(df->sum.paths_hit, x.paths_hit);
      VEC_PUSH(d->funcs, x);
    }
    free(ch);
  }
  pp_coverage_sum_add(&d->sum, &df->sum);
}

static int by_file(const void *a, const void *b) {
  const PPDiffFile *x = a, *y = b;
  return x->file - y->file;
}

/* Adds changed files to d (one entry per coverage file, lines of repeated diffs joined); C
   sources the profile lacks go to no_data. */
static void add_changes(const PPCoverage *c, PPDiff *d, const char *dir, ChangedFiles *cf) {
  for (size_t i = 0; i < cf->n; i++) {
    Changed *x = &cf->v[i];
    int fi = match_file(c, dir, x->path);
    if (fi < 0) {
      if (x->lines.n && (pp_ends_with(x->path, ".c") || pp_ends_with(x->path, ".i"))) VEC_PUSH(d->no_data, pp_xstrdup(x->path));
      continue;
    }
    PPDiffFile *df = (PPDiffFile *)pp_diff_file(d, fi);
    if (!df) {
      PPDiffFile n;
      memset(&n, 0, sizeof n);
      n.file = fi;
      VEC_PUSH(d->files, n);
      df = &d->files.v[d->files.n - 1];
    }
    for (size_t k = 0; k < x->lines.n; k++) {
      unsigned ln = x->lines.v[k];
      if (ln > df->nchanged_max) {
        unsigned m = ln + 64;
        df->changed = pp_xrealloc(df->changed, m + 1);
        memset(df->changed + df->nchanged_max + 1, 0, m - df->nchanged_max);
        if (!df->nchanged_max) df->changed[0] = 0;
        df->nchanged_max = m;
      }
      df->nchanged += !df->changed[ln];
      df->changed[ln] = 1;
    }
  }
}

/* MC/DC where the build has it (--decisions=conditions): masking MC/DC of every decision with a
   condition on a changed line, by file and in all. */
static void diff_mcdc(const PPCoverage *c, PPDiff *d) {
  PPMcdc m;
  bool any = false;
  for (size_t i = 0; i < d->funcs.n && !any; i++) any = c->funcs.v[d->funcs.v[i].func].t->conditions;
  if (!any) return;
  d->has_mcdc = true;
  pp_mcdc_build(c, PP_MCDC_MASKING, &m);
  for (size_t i = 0; i < m.decs.n; i++) {
    const PPMcdcDecision *md = &m.decs.v[i];
    const PPCovFunc *fn = &c->funcs.v[md->func];
    PPDiffFile *df = (PPDiffFile *)pp_diff_file(d, fn->file);
    bool changed = false;
    for (int k = 0; df && k < md->d->n && md->d->file == fn->f->file; k++) changed |= changed_at(df, md->conds[k].line);
    if (!changed) continue;
    df->mcdc += (unsigned)md->d->n;
    df->mcdc_shown += (unsigned)md->covered;
    d->mcdc += (unsigned)md->d->n;
    d->mcdc_shown += (unsigned)md->covered;
  }
  pp_mcdc_free(&m);
}

int pp_diff_build(const char *base, const PPCoverage *c, PPDiff *d) {
  memset(d, 0, sizeof *d);
  d->base = base;
  char *text, *dir;
  if (read_change(base, &text, &dir)) return -1;
  ChangedFiles cf = {0};
  parse_diff(text, &cf);
  add_changes(c, d, dir, &cf);
  pp_sort(d->files.v, d->files.n, sizeof *d->files.v, by_file);
  for (size_t k = 0; k < d->files.n; k++) file_sums(c, d, k);
  diff_mcdc(c, d);
  for (size_t i = 0; i < cf.n; i++) { free(cf.v[i].path); VEC_FREE(cf.v[i].lines); }
  VEC_FREE(cf);
  free(text);
  free(dir);
  return 0;
}

void pp_diff_free(PPDiff *d) {
  for (size_t i = 0; i < d->files.n; i++) free(d->files.v[i].changed);
  VEC_FREE(d->files);
  VEC_FREE(d->funcs);
  for (size_t i = 0; i < d->no_data.n; i++) free(d->no_data.v[i]);
  VEC_FREE(d->no_data);
}

const PPDiffFile *pp_diff_file(const PPDiff *d, int fi) {
  for (size_t i = 0; i < d->files.n; i++)
    if (d->files.v[i].file == fi) return &d->files.v[i];
  return NULL;
}

bool pp_diff_changed(const PPDiff *d, int fi, unsigned ln) {
  const PPDiffFile *f = pp_diff_file(d, fi);
  return f && changed_at(f, ln);
}
