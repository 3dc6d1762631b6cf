/* Small helpers shared by the host tools: checked allocation, strings, hashing, file reading. */
#include "util.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Out of memory is not recoverable in a compiler wrapper; say so and stop. */
static void oom(void) {
  fputs("pathprof: out of memory\n", stderr);
  exit(70);
}

void *pp_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom();
  return p;
}

void *pp_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) oom();
  return p;
}

void *pp_xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) oom();
  return p;
}

char *pp_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(pp_xmalloc(n), s, n);
}

/* vsnprintf into a fresh buffer of the right size. */
static char *vformat(const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *s = pp_xmalloc((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

char *pp_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

void pp_str_addn(PPStr *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->s = pp_xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

void pp_str_add(PPStr *b, const char *s) { pp_str_addn(b, s, strlen(s)); }

void pp_str_addf(PPStr *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *tmp = vformat(fmt, ap);
  va_end(ap);
  pp_str_add(b, tmp);
  free(tmp);
}

/* Hands the buffer to the caller (never NULL) and resets the builder. */
char *pp_str_take(PPStr *b) {
  char *s = b->s ? b->s : pp_xstrdup("");
  b->s = NULL;
  b->n = b->cap = 0;
  return s;
}

uint64_t pp_fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ULL;
  return h;
}

char *pp_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  PPStr b = {0};
  char buf[65536];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) pp_str_addn(&b, buf, k);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b.s);
    errno = EIO;
    return NULL;
  }
  if (len) *len = b.n;
  return pp_str_take(&b);
}

/* Runs without a character to escape go out in one fwrite (reports write whole source files). */
void pp_fputs_xml(FILE *o, const char *s) {
  for (;;) {
    size_t n = strcspn(s, "&<>\"");
    if (n) fwrite(s, 1, n, o);
    s += n;
    switch (*s) {
    case '&': fputs("&amp;", o); break;
    case '<': fputs("&lt;", o); break;
    case '>': fputs("&gt;", o); break;
    case '"': fputs("&quot;", o); break;
    default: return;
    }
    s++;
  }
}

static bool is_pragma(const char *t) { return !strncmp(t, "#pragma", 7) || !strncmp(t, "# pragma", 8); }

unsigned pp_pragma_top(const char *text, unsigned off, bool *found) {
  unsigned at = off, top = off;
  *found = is_pragma(text + off);
  while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t')) at--;
  if (at > 0 && text[at - 1] != '\n') return off;            /* something precedes on this line */
  if (*found) top = at;
  while (at > 0) {                                            /* walk up blank, marker, pragma lines */
    unsigned prev = at - 1, q;
    while (prev > 0 && text[prev - 1] != '\n') prev--;
    for (q = prev; text[q] == ' ' || text[q] == '\t'; q++) {}
    bool blank = text[q] == '\n', marker = text[q] == '#' && text[q + 1] == ' ' && isdigit((unsigned char)text[q + 2]);
    bool pragma = is_pragma(text + q);
    if (!blank && !marker && !pragma) break;
    if (pragma) {
      top = prev;
      *found = true;
    }
    at = prev;
  }
  return top;
}

/* The last '/' ends the directories; a name without one is its own base (util.h). */
const char *pp_base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

bool pp_ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

bool pp_is_stream(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

const char *pp_profile_name(const char *arg) {
  if (arg) return arg;
  const char *e = getenv("PATHPROF_FILE");
  return e && *e && !strchr(e, '%') ? e : "pathprof.out";
}
