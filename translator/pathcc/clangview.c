/* clangview: the .i as libclang should see it where clang 14 refuses C that GCC compiles. */
#include "clangview.h"
#include "model/util.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The offset of the last non-blank byte before off (blanks: white space), or n when none. */
static size_t before(const char *t, size_t off, size_t n) {
  while (off > 0 && isspace((unsigned char)t[off - 1])) off--;
  return off > 0 ? off - 1 : n;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Whether the colon at c ends "case EXPR:": the word case starts the statement it is in. */
static bool case_label(const char *t, size_t c) {
  size_t s = c;
  while (s > 0 && t[s - 1] != ';' && t[s - 1] != '{' && t[s - 1] != '}' && t[s - 1] != '?') s--;
  if (s > 0 && t[s - 1] == '?') return false;  /* a conditional's colon */
  while (s < c && isspace((unsigned char)t[s])) s++;
  return c - s > 4 && !memcmp(t + s, "case", 4) && !ident_char(t[s + 4]);
}

/* A label before the declaration clang stopped at (off): the colon ends "name:", "default:" or
   "case ...:" (not "a ? b :", which clang would have parsed). The colon's offset, or 0. */
static size_t label_colon(const char *t, size_t n, size_t off) {
  size_t c = before(t, off, n);
  if (c == n || t[c] != ':') return 0;
  if (c > 0 && t[c - 1] == ':') return 0;  /* "::" is no label */
  size_t w = before(t, c, n);
  if (w == n || !ident_char(t[w])) return 0;
  size_t s = w;
  while (s > 0 && ident_char(t[s - 1])) s--;
  /* a statement starts before the label: a ';', '{', '}' or another label's colon */
  size_t p = before(t, s, n);
  bool starts = p == n || t[p] == ';' || t[p] == '{' || t[p] == '}' || t[p] == ':';
  bool plain = starts && !isdigit((unsigned char)t[s]);
  bool dflt = w + 1 - s == 7 && !memcmp(t + s, "default", 7);
  return plain || dflt || case_label(t, c) ? c : 0;
}

/* The static assertion around off: [start, end] from its keyword to its closing parenthesis
   and the ';' after it, false when off is in none. */
static bool static_assertion(const char *t, size_t n, size_t off, size_t *start, size_t *end) {
  static const char *const kw[] = { "_Static_assert", "static_assert" };
  size_t best = n;
  const char *which = NULL;
  for (int k = 0; k < 2; k++) {
    size_t len = strlen(kw[k]);
    for (size_t s = off < n ? off : n; s-- > 0;) {
      if (s + len <= n && !memcmp(t + s, kw[k], len) && (s == 0 || !ident_char(t[s - 1])) && !ident_char(t[s + len])) {
        if (best == n || s > best) best = s, which = kw[k];
        break;
      }
      if (t[s] == ';' || t[s] == '{' || t[s] == '}') break;  /* the assertion holds no such character before off */
    }
  }
  if (!which) return false;
  size_t i = best + strlen(which);
  while (i < n && isspace((unsigned char)t[i])) i++;
  if (i >= n || t[i] != '(') return false;
  int depth = 0;
  for (; i < n; i++) {
    if (t[i] == '"' || t[i] == '\'') {  /* a literal may hold parentheses */
      char q = t[i];
      for (i++; i < n && t[i] != q; i++)
        if (t[i] == '\\') i++;
      continue;
    }
    if (t[i] == '(') depth++;
    if (t[i] == ')' && --depth == 0) break;
  }
  if (i >= n || best > off || off > i) return false;
  size_t semi = i + 1;  /* its ';' too: a null statement there would take the code before the next one */
  while (semi < n && isspace((unsigned char)t[semi])) semi++;
  *start = best, *end = semi < n && t[semi] == ';' ? semi : i;
  return true;
}

char *pp_clang_view(const char *text, size_t n, const PPClangErrors *errors) {
  char *view = NULL;
  for (size_t k = 0; k < errors->n; k++) {
    const PPClangError *e = &errors->v[k];
    if (!e->off || e->off >= n) continue;
    size_t colon = 0, start, end;
    bool assertion = strstr(e->text, "static_assert") || strstr(e->text, "static assertion");
    if (!strcmp(e->text, "expected expression")) colon = label_colon(text, n, e->off);
    size_t blank = colon + 1;  /* where the null statement goes: a blank other than a newline */
    while (colon && blank < e->off && (text[blank] == '\n' || !isspace((unsigned char)text[blank]))) blank++;
    if (colon && blank >= e->off) colon = 0;
    if (!colon && !(assertion && static_assertion(text, n, e->off, &start, &end))) continue;
    if (!view) {
      view = pp_xmalloc(n + 1);
      memcpy(view, text, n);
      view[n] = 0;
    }
    if (colon) view[blank] = ';';
    else
      for (size_t i = start; i <= end; i++)
        if (view[i] != '\n') view[i] = ' ';  /* newlines stay: lines are where they were */
  }
  return view;
}
