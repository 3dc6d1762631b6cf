/* source.c: the sources a coverage report reads: each file found from the tables, its lines, and
   which lines hold statements (comments, strings and inert declarations left out). */
#include "covint.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- source files ---- */

static bool is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where a file named in a unit's tables is: absolute, from here, or from the tables' directory
   and the directories above it (tables sit next to the object, the name is relative to the
   compiler's working directory). */
static char *locate(const char *name, const char *tables_path) {
  char buf[PATH_MAX];
  if (name[0] == '/') return is_file(name) && realpath(name, buf) ? pp_xstrdup(buf) : NULL;
  if (is_file(name) && realpath(name, buf)) return pp_xstrdup(buf);
  char *dir = pp_xstrdup(tables_path ? tables_path : ".");
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0; else strcpy(dir, ".");
  for (int up = 0; up < 6; up++) {
    char *p = pp_xasprintf("%s/%s", dir, name);
    bool ok = is_file(p) && realpath(p, buf);
    free(p);
    if (ok) { free(dir); return pp_xstrdup(buf); }
    slash = strrchr(dir, '/');
    if (!slash || slash == dir) break;
    *slash = 0;
  }
  free(dir);
  return NULL;
}

static void load_text(PPCovFile *f) {
  size_t len;
  if (!f->path || !(f->text = pp_read_file(f->path, &len))) return;
  unsigned n = 1;
  for (size_t i = 0; i < len; i++) n += f->text[i] == '\n';
  f->src = pp_xcalloc(n + 2, sizeof(char *));
  char *p = f->text;
  f->nsrc = 0;
  while (*p || (p == f->text && len)) {
    f->src[++f->nsrc] = p;
    char *nl = strchr(p, '\n');
    if (!nl) break;
    *nl = 0;
    if (nl > p && nl[-1] == '\r') nl[-1] = 0;
    p = nl + 1;
    if (!*p) break;
  }
}

/* A hash table from (name, tables path) pointers to file indexes: a report asks once per block
   line range, and finding a file on disk takes several system calls. */
struct cov_memo {
  struct { const char *name, *tables; int file; } *slot;
  size_t cap, n;
};

static size_t memo_hash(const char *name, const char *tables, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)tables * 0xc2b2ae3d27d4eb4fULL;
  return (size_t)(h >> 17) & (cap - 1);
}

static int *memo_slot(PPCoverage *c, const char *name, const char *tables) {
  struct cov_memo *m = c->memo;
  if (!m) m = c->memo = pp_xcalloc(1, sizeof *m);
  if (2 * (m->n + 1) > m->cap) {  /* grow to keep it at most half full */
    struct cov_memo g = { NULL, m->cap ? 2 * m->cap : 256, 0 };
    g.slot = pp_xcalloc(g.cap, sizeof *g.slot);
    for (size_t i = 0; i < m->cap; i++)
      if (m->slot[i].name) {
        size_t k = memo_hash(m->slot[i].name, m->slot[i].tables, g.cap);
        while (g.slot[k].name) k = (k + 1) & (g.cap - 1);
        g.slot[k] = m->slot[i];
        g.n++;
      }
    free(m->slot);
    *m = g;
  }
  size_t k = memo_hash(name, tables, m->cap);
  while (m->slot[k].name && (m->slot[k].name != name || m->slot[k].tables != tables)) k = (k + 1) & (m->cap - 1);
  if (!m->slot[k].name) {
    m->slot[k].name = name, m->slot[k].tables = tables, m->slot[k].file = -1;
    m->n++;
  }
  return &m->slot[k].file;
}

void cov_memo_free(struct cov_memo *m) {
  if (m) free(m->slot);
  free(m);
}

static int find_file_index(PPCoverage *c, const char *name, const char *tables_path);

int cov_file_index(PPCoverage *c, const char *name, const char *tables_path) {
  int *memo = memo_slot(c, name, tables_path);
  if (*memo < 0) *memo = find_file_index(c, name, tables_path);
  return *memo;
}

static int find_file_index(PPCoverage *c, const char *name, const char *tables_path) {
  char *path = locate(name, tables_path);
  const char *key = path ? path : name;
  for (size_t i = 0; i < c->files.n; i++)
    if (!strcmp(c->files.v[i].path ? c->files.v[i].path : c->files.v[i].name, key)) { free(path); return (int)i; }
  PPCovFile f;
  memset(&f, 0, sizeof f);
  f.name = pp_xstrdup(name);
  f.path = path;
  load_text(&f);
  VEC_PUSH(c->files, f);
  return (int)c->files.n - 1;
}

int pp_coverage_file_of(const PPCoverage *c, const char *name) {
  for (size_t i = 0; i < c->files.n; i++)
    if (!strcmp(c->files.v[i].name, name) || (c->files.v[i].path && !strcmp(c->files.v[i].path, name))) return (int)i;
  return -1;
}

void cov_grow_lines(PPCovFile *f, unsigned line) {
  if (line <= f->nlines) return;
  unsigned n = line + 16;
  f->lines = pp_xrealloc(f->lines, sizeof *f->lines * (n + 1));
  memset(f->lines + f->nlines + 1, 0, sizeof *f->lines * (n - f->nlines));
  f->nlines = n;
}

/* ---- statements in the source text ---- */

/* Text of line ln with comments and string contents blanked (state carried across lines for
   block comments is approximated: a line inside a comment that started earlier is not seen). */
char *cov_code_of(const PPCovFile *f, unsigned ln) {
  if (!f->src || ln < 1 || ln > f->nsrc) return NULL;
  const char *s = f->src[ln];
  char *o = pp_xstrdup(s);
  bool in_c = false;
  for (size_t i = 0; o[i]; i++) {
    if (in_c) {
      if (o[i] == '*' && o[i + 1] == '/') { o[i] = o[i + 1] = ' '; i++; in_c = false; }
      else o[i] = ' ';
    } else if (o[i] == '/' && o[i + 1] == '*') { o[i] = o[i + 1] = ' '; i++; in_c = true; }
    else if (o[i] == '/' && o[i + 1] == '/') { o[i] = 0; break; }
    else if (o[i] == '"' || o[i] == '\'') {
      char q = o[i];
      for (i++; o[i] && o[i] != q; i++) {
        if (o[i] == '\\' && o[i + 1]) { o[i] = 'x'; i++; }
        o[i] = 'x';
      }
      if (!o[i]) break;
    }
  }
  return o;
}

bool cov_blank(const char *s) {
  for (; *s; s++)
    if (!isspace((unsigned char)*s)) return false;
  return true;
}

static char last_char(const char *s) {
  char c = 0;
  for (; *s; s++)
    if (!isspace((unsigned char)*s)) c = *s;
  return c;
}

bool cov_word_is(const char *w, size_t n, const char *kw) { return strlen(kw) == n && !strncmp(w, kw, n); }

static bool in_list(const char *w, size_t n, const char *const *list) {
  for (int i = 0; list[i]; i++)
    if (cov_word_is(w, n, list[i])) return true;
  return false;
}

/* A declaration that executes nothing: no initializer, or static/extern/typedef. The text is
   one statement from its start up to its ';'. VLAs with a lower-case size run code. */
static bool inert_decl(const char *s) {
  static const char *const stmt_kw[] = { "return", "goto", "break", "continue", "if", "while", "for", "do", "switch",
    "case", "default", "sizeof", "else", "asm", "__asm__", "__asm", 0 };
  static const char *const spec[] = { "const", "volatile", "register", "auto", "signed", "unsigned", "short", "long",
    "int", "char", "float", "double", "void", "_Bool", "_Complex", "restrict", "__restrict", "inline", "__extension__",
    "_Atomic", "__thread", "_Thread_local", 0 };
  const char *p = s;
  bool type = false;
  while (isspace((unsigned char)*p)) p++;
  for (;;) {
    if (!(isalpha((unsigned char)*p) || *p == '_')) break;
    const char *w = p;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    size_t n = (size_t)(p - w);
    if (!type && (cov_word_is(w, n, "static") || cov_word_is(w, n, "extern") || cov_word_is(w, n, "typedef") ||
                  cov_word_is(w, n, "_Static_assert") || cov_word_is(w, n, "static_assert")))
      return true;
    if (!type && in_list(w, n, stmt_kw)) return false;
    if (in_list(w, n, spec)) { type |= !cov_word_is(w, n, "const") && !cov_word_is(w, n, "volatile"); while (isspace((unsigned char)*p)) p++; continue; }
    if (cov_word_is(w, n, "struct") || cov_word_is(w, n, "union") || cov_word_is(w, n, "enum")) {
      bool is_enum = cov_word_is(w, n, "enum");
      while (isspace((unsigned char)*p)) p++;
      while (isalnum((unsigned char)*p) || *p == '_') p++;
      type = true;
      while (isspace((unsigned char)*p)) p++;
      if (*p == '{' && is_enum) {  /* an enum's constants are no initializers (a struct's VLA member runs code) */
        int depth = 0;
        for (; *p; p++)
          if (*p == '{') depth++;
          else if (*p == '}' && !--depth) { p++; break; }
        while (isspace((unsigned char)*p)) p++;
        if (*p == ';' || !*p) return true;  /* a type and no variable */
      }
      break;
    }
    if (!type) {  /* a typedef name must be followed by a declarator: a name or '*' */
      const char *q = p;
      while (isspace((unsigned char)*q)) q++;
      if (q == p && *q != '*') return false;
      if (!(isalpha((unsigned char)*q) || *q == '_' || *q == '*')) return false;
      type = true;
      p = q;
      break;
    }
    p = w;  /* the declarator's name */
    break;
  }
  if (!type) return false;
  while (isspace((unsigned char)*p) || *p == '*' || *p == '(') p++;
  while (!strncmp(p, "const", 5) || !strncmp(p, "volatile", 8) || !strncmp(p, "restrict", 8)) {
    p += !strncmp(p, "const", 5) ? 5 : 8;
    while (isspace((unsigned char)*p) || *p == '*') p++;
  }
  if (!(isalpha((unsigned char)*p) || *p == '_')) return false;
  /* a declarator: now look for an initializer or a variable length */
  int depth = 0;
  for (; *p && *p != ';'; p++) {
    if (*p == '=' && depth == 0) return false;
    if (*p == '[') depth++;
    else if (*p == ']') depth--;
    else if (depth > 0 && islower((unsigned char)*p)) {
      const char *w = p;
      while (isalnum((unsigned char)*p) || *p == '_') p++;
      if (cov_word_is(w, (size_t)(p - w), "sizeof")) {  /* a constant size: skip to the ']' */
        while (*p && *p != ']') p++;
        depth--;
        if (!*p) break;
        continue;
      }
      return false;
    }
  }
  return true;
}

/* Does line ln hold code: some statement starting on it that is not an inert declaration? */
bool cov_line_has_code(const PPCovFile *f, unsigned ln) {
  char *t = cov_code_of(f, ln);
  if (!t) return true;
  bool code = false, any = false;
  char *p = t;
  while (*p && !code) {
    while (*p && (isspace((unsigned char)*p) || *p == ';' || *p == '{' || *p == '}')) p++;
    if (!*p) break;
    any = true;
    /* the statement's text up to its ';', continued on the next lines when needed */
    char *semi = strchr(p, ';');
    if (semi) {
      char save = semi[1];
      semi[1] = 0;
      code = !inert_decl(p);
      semi[1] = save;
      p = semi + 1;
    } else {
      PPStr s = {0};
      pp_str_add(&s, p);
      for (unsigned k = ln + 1; k <= f->nsrc && k < ln + 20 && !strchr(s.s, ';'); k++) {
        char *more = cov_code_of(f, k);
        pp_str_add(&s, " ");
        pp_str_add(&s, more);
        free(more);
      }
      code = !inert_decl(s.s);
      free(s.s);
      break;
    }
  }
  free(t);
  return any ? code : false;
}

/* Does line ln end with a label: case X:, default:, name:? */
static bool label_line(const PPCovFile *f, unsigned ln) {
  char *t = cov_code_of(f, ln);
  if (!t) return false;
  char *p = t;
  while (isspace((unsigned char)*p) || *p == '}' || *p == '{' || *p == ';') p++;
  char *w = p;
  while (isalnum((unsigned char)*p) || *p == '_') p++;
  size_t n = (size_t)(p - w);
  bool yes = cov_word_is(w, n, "case") || cov_word_is(w, n, "default");
  if (!yes && n) {
    while (isspace((unsigned char)*p)) p++;
    yes = *p == ':' && p[1] != ':';
  }
  free(t);
  return yes;
}

/* Does a statement start on line ln (inside a range that started earlier)? It does when the
   previous line with code ends a statement, a block or a label. */
bool cov_starts_statement(const PPCovFile *f, unsigned first, unsigned ln) {
  char *t = cov_code_of(f, ln);
  if (!t) return true;
  bool b = cov_blank(t) || t[strspn(t, " \t")] == '#';
  free(t);
  if (b) return false;
  for (unsigned p = ln - 1; p >= first && p > 0; p--) {
    char *u = cov_code_of(f, p);
    if (!u) return true;
    char c = cov_blank(u) || u[strspn(u, " \t")] == '#' ? 0 : last_char(u);
    char before = 0;
    if (c == '{') {  /* an initializer's brace is no block: what precedes it is '=', ',', '(' or '{' */
      char *q = strrchr(u, '{');
      while (q > u && isspace((unsigned char)q[-1])) q--;
      before = q > u ? q[-1] : 0;
    }
    free(u);
    if (!c) continue;
    if (c == '{') return !(before == '=' || before == ',' || before == '(' || before == '{');
    if (c == ':') return label_line(f, p);  /* not the ':' of a ?: that goes on */
    return c == ';' || c == '}';
  }
  return true;
}

/* Does the line call a function (a name followed by '(' that is no keyword)? */
bool cov_has_call(const PPCovFile *f, unsigned ln) {
  static const char *const kw[] = { "if", "while", "for", "switch", "return", "sizeof", "_Alignof", "__typeof__", "typeof",
    "__attribute__", "__extension__", "_Generic", 0 };
  char *t = cov_code_of(f, ln);
  bool yes = false;
  for (char *p = t; p && *p && !yes; p++) {
    if (!(isalpha((unsigned char)*p) || *p == '_') || (p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) continue;
    char *w = p;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    size_t n = (size_t)(p - w);
    char *q = p;
    while (isspace((unsigned char)*q)) q++;
    yes = *q == '(' && !in_list(w, n, kw);
    p--;
  }
  free(t);
  return yes;
}


void cov_push_line(LRefs *v, int file, unsigned line) {
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i].file == file && v->v[i].line == line) return;  /* GCC lists a line once per block */
  LRef r = { file, line };
  VEC_PUSH(*v, r);
}
