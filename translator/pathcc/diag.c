/* Compiler diagnostics as comparable lines: what pathcc checks the instrumented compile's words against. */
#include "diag.h"
#include "model/util.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef VEC(char *) Keys;

/* A copy of line without colour escapes (-fdiagnostics-color=always). */
static char *plain_text(const char *line) {
  PPStr s = {0};
  for (const char *c = line; *c; c++) {
    if (*c == '\033' && c[1] == '[') {
      c += 2;
      while (*c && !isalpha((unsigned char)*c)) c++;
      if (!*c) break;
      continue;
    }
    pp_str_addn(&s, c, 1);
  }
  return pp_str_take(&s);
}

/* Drops a trailing ":digits" (the column) from the location text [l, e). */
static const char *without_column(const char *l, const char *e) {
  const char *p = e;
  while (p > l && isdigit((unsigned char)p[-1])) p--;
  if (p == e || p == l || p[-1] != ':') return e;
  const char *q = p - 1;  /* the colon before the column; a line number must precede it */
  const char *r = q;
  while (r > l && isdigit((unsigned char)r[-1])) r--;
  return r < q && r > l && r[-1] == ':' ? q : e;
}

/* Does the location text [l, e) end in a line number ("f.c:12", columns already dropped)? */
static bool has_line(const char *l, const char *e) {
  const char *p = e;
  while (p > l && isdigit((unsigned char)p[-1])) p--;
  return p < e && p > l && p[-1] == ':';
}

char *pp_diag_key(const char *raw) {
  static const char *const kinds[] = { ": fatal error: ", ": error: ", ": warning: ", 0 };
  char *line = plain_text(raw), *key = NULL;
  for (int i = 0; kinds[i] && !key; i++) {
    const char *k = strstr(line, kinds[i]);
    if (!k || k == line) continue;
    const char *loc_end = without_column(line, k);
    if (has_line(line, loc_end)) key = pp_xasprintf("%.*s%s", (int)(loc_end - line), line, k);
    else break;  /* "clang: warning: argument unused", "cc1: warning: ...": about the command line */
  }
  free(line);
  return key;
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The distinct keys of a file's diagnostic lines, added to *keys. */
static void add_keys(Keys *keys, const char *path) {
  char *text = pp_read_file(path, NULL), *save = NULL;
  for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
    char *k = pp_diag_key(l);
    if (k) VEC_PUSH(*keys, k);
  }
  free(text);
}

/* Sorts the keys and drops repeats (inlined code may warn twice). */
static void unique(Keys *k) {
  if (!k->n) return;
  pp_sort(k->v, k->n, sizeof(char *), by_text);
  size_t n = 1;
  for (size_t i = 1; i < k->n; i++) {
    if (strcmp(k->v[i], k->v[n - 1])) k->v[n++] = k->v[i];
    else free(k->v[i]);
  }
  k->n = n;
}

bool pp_diag_any(const char *const *a, size_t na) {
  Keys x = {0};
  for (size_t i = 0; i < na; i++) add_keys(&x, a[i]);
  bool any = x.n > 0;
  for (size_t i = 0; i < x.n; i++) free(x.v[i]);
  VEC_FREE(x);
  return any;
}

bool pp_diag_same(const char *const *a, size_t na, const char *b) {
  Keys x = {0}, y = {0};
  for (size_t i = 0; i < na; i++) add_keys(&x, a[i]);
  add_keys(&y, b);
  unique(&x);
  unique(&y);
  bool same = x.n == y.n;
  for (size_t i = 0; same && i < x.n; i++) same = !strcmp(x.v[i], y.v[i]);
  for (size_t i = 0; i < x.n; i++) free(x.v[i]);
  for (size_t i = 0; i < y.n; i++) free(y.v[i]);
  VEC_FREE(x);
  VEC_FREE(y);
  return same;
}
