/* Small helpers shared by the host tools: checked allocation, growable arrays, strings, hashing. */
#ifndef PP_UTIL_H
#define PP_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void *pp_xmalloc(size_t n);
void *pp_xcalloc(size_t n, size_t size);
void *pp_xrealloc(void *p, size_t n);
char *pp_xstrdup(const char *s);
char *pp_xasprintf(const char *fmt, ...);
/* Whether s ends with suf. */
bool pp_ends_with(const char *s, const char *suf);
/* Whether path names a device, pipe or socket (-o /dev/null, /dev/stdout): an output there is
   written straight through, never removed or renamed over (as root, /dev/null would become a
   regular file). */
bool pp_is_stream(const char *path);
/* The file name of path p without its directories (a pointer into p): reports name sources
   and units by it. */
const char *pp_base_name(const char *p);
/* The profile a pathprof command reads or writes: arg, else $PATHPROF_FILE (unless it is a
   pattern, which only the runtime expands), else "pathprof.out". */
const char *pp_profile_name(const char *arg);

/* A growable array of T: `VEC(int) v = {0}; VEC_PUSH(v, 3);` */
#define VEC(T) struct { T *v; size_t n, cap; }
#define VEC_PUSH(a, x) do { \
    if ((a).n == (a).cap) { \
      (a).cap = (a).cap ? 2 * (a).cap : 8; \
      (a).v = pp_xrealloc((a).v, (a).cap * sizeof *(a).v); \
    } \
    (a).v[(a).n++] = (x); \
  } while (0)
#define VEC_FREE(a) do { free((a).v); (a).v = NULL; (a).n = (a).cap = 0; } while (0)

/* A string builder. */
typedef struct { char *s; size_t n, cap; } PPStr;
void pp_str_add(PPStr *b, const char *s);
void pp_str_addn(PPStr *b, const char *s, size_t n);
void pp_str_addf(PPStr *b, const char *fmt, ...);
char *pp_str_take(PPStr *b);

/* Writes s with &, <, > and " escaped for XML and HTML. */
void pp_fputs_xml(FILE *o, const char *s);

/* FNV-1a 64, continued from h (start with PP_FNV_BASIS). */
#define PP_FNV_BASIS 0xcbf29ce484222325ULL
uint64_t pp_fnv1a(uint64_t h, const void *p, size_t n);

/* Reads a whole file; returns NULL and sets errno on failure. */
char *pp_read_file(const char *path, size_t *len);

/* Where the #pragma lines (GCC unroll or ivdep, omp, also from _Pragma) that govern the
   statement at off in preprocessed text begin, past blank lines and line markers between them; a
   statement that starts at its pragma (libclang's attributed statement) counts as governed.
   *found says whether any does; when none, off is returned. */
unsigned pp_pragma_top(const char *text, unsigned off, bool *found);

/* qsort that accepts an empty array with a null pointer (a fresh VEC), which qsort itself
   may not be given (C99 7.20.5: the pointer must be valid even when n is 0). */
#include <stdlib.h>
static inline void pp_sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(v, n, size, cmp);
}

/* Saturating unsigned 64-bit addition. */
static inline uint64_t pp_sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
/* *x + n for a signed n, saturating above and never below 0 (partial paths take prefixes back). */
static inline void pp_sat_add_signed(uint64_t *x, int64_t n) {
  if (n >= 0) *x = pp_sat_add(*x, (uint64_t)n);
  else *x = *x > (uint64_t)0 - (uint64_t)n ? *x - ((uint64_t)0 - (uint64_t)n) : 0;
}
#endif
