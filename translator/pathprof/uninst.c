/* uninst: the functions pathcc left uninstrumented, listed once per report by reason, and their lines marked in the coverage. */
#include "uninst.h"
#include "covint.h"
#include <stdlib.h>
#include <string.h>

#define NAMES_SHOWN 8  /* per reason in the report's block; --function shows one */

static int by_reason(const void *a, const void *b) {
  const PPUninst *x = a, *y = b;
  int c = strcmp(x->why, y->why);
  if (!c) c = strcmp(x->file, y->file);
  if (!c) c = x->line < y->line ? -1 : x->line > y->line;
  return c ? c : strcmp(x->name, y->name);
}

/* Is b the function of entry a: name, line, reason and file name (without its directories)? */
static bool same_fn(const PPUninst *a, const PPUninst *b) {
  return a->line == b->line && !strcmp(a->name, b->name) && !strcmp(a->why, b->why) &&
         !strcmp(pp_base_name(a->file), pp_base_name(b->file));
}

PPUninst *pp_uninst_list(const PPLoaded *l, size_t *n) {
  VEC(PPUninst) v = {0};
  for (size_t i = 0; i < l->units.n; i++) {
    const PPTables *t = &l->units.v[i].tab;
    for (size_t k = 0; k < t->skipped.n; k++) {
      const PPTabSkip *s = &t->skipped.v[k];
      PPUninst u = { s->name, t->files.n ? t->files.v[s->file] : "?", s->why, s->line, s->end_line, 1 };
      size_t j = 0;  /* one entry however each unit names the file ("a/lab.h", "b/../a/lab.h") */
      while (j < v.n && !same_fn(&v.v[j], &u)) j++;
      if (j < v.n) v.v[j].units++;
      else VEC_PUSH(v, u);
    }
  }
  pp_sort(v.v, v.n, sizeof *v.v, by_reason);
  *n = v.n;
  return v.v;
}

/* "name (file:line)", and how many units hold it when more than one. */
static void entry(FILE *o, const PPUninst *u) {
  fprintf(o, "%s (%s:%u", u->name, pp_base_name(u->file), u->line);
  if (u->units > 1) fprintf(o, ", in %zu units", u->units);
  fputs(")", o);
}

bool pp_uninst_print(FILE *o, const PPLoaded *l, const char *only) {
  size_t n, units = 0;
  PPUninst *u = pp_uninst_list(l, &n);
  bool named = false;
  for (size_t i = 0; i < n; i++) {
    units += u[i].units;
    if (!only || strcmp(only, u[i].name)) continue;
    fputs("\nnot instrumented: ", o);
    entry(o, &u[i]);
    fprintf(o, ": %s\n", u[i].why);
    named = true;
  }
  if (!only && n) {
    fprintf(o, "\n%zu function%s not instrumented", n, n > 1 ? "s" : "");
    if (units > n) fprintf(o, " (%zu copies in units)", units);
    fputs(", by reason:\n", o);
    for (size_t i = 0, j; i < n; i = j) {
      for (j = i; j < n && !strcmp(u[j].why, u[i].why);) j++;
      fprintf(o, "  %s (%zu function%s: ", u[i].why, j - i, j - i > 1 ? "s" : "");
      for (size_t k = i; k < j && k < i + NAMES_SHOWN; k++) {
        if (k > i) fputs(", ", o);
        entry(o, &u[k]);
      }
      if (j - i > NAMES_SHOWN) fprintf(o, ", and %zu more", j - i - NAMES_SHOWN);
      fputs(")\n", o);
    }
  }
  free(u);
  return named;
}

/* Does the coverage list function name at line of file fi already? */
static bool listed(const PPCoverage *c, int fi, unsigned line, const char *name) {
  for (size_t i = 0; i < c->uninst.n; i++)
    if (c->uninst.v[i].file == fi && c->uninst.v[i].line == line && !strcmp(c->uninst.v[i].name, name)) return true;
  return false;
}

/* Marks the lines [line, end] of file f that hold code no instrumented function counts: with
   the source, the lines where a statement starts and the function's name line; without it,
   every line of the range. Returns how many. */
static unsigned mark_lines(PPCovFile *f, unsigned line, unsigned end) {
  unsigned n = 0;
  cov_grow_lines(f, end);
  for (unsigned ln = line; ln <= end; ln++) {
    PPCovLine *x = &f->lines[ln];
    if (x->exists || x->uninstrumented) continue;
    if (f->src && ln <= f->nsrc && ln != line && !cov_line_has_code(f, ln)) continue;
    x->uninstrumented = true;
    n++;
  }
  return n;
}

void pp_uninst_mark(PPCoverage *c) {
  for (size_t i = 0; i < c->loaded->units.n; i++) {
    const PPLoadedUnit *lu = &c->loaded->units.v[i];
    for (size_t k = 0; k < lu->tab.skipped.n; k++) {
      const PPTabSkip *s = &lu->tab.skipped.v[k];
      if (!lu->tab.files.n) continue;
      int fi = cov_file_index(c, lu->tab.files.v[s->file], lu->tables_path);
      if (listed(c, fi, s->line, s->name)) continue;
      unsigned end = s->end_line >= s->line ? s->end_line : s->line;
      PPCovUninst u = { s->name, s->why, fi, s->line, end, mark_lines(&c->files.v[fi], s->line, end) };
      VEC_PUSH(c->uninst, u);
    }
  }
}
