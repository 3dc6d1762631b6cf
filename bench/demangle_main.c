/* bench workload "demangle": libiberty's C++ demangler (cp-demangle.c from Debian's
   binutils-source, unpacked by bench/binutils.sh) on generated mangled names. A recursive-descent
   parser of some 200 small functions that print through a callback (a call through a pointer,
   which every caller's frame marks): the small, call-heavy code of interpreters and parsers,
   where a cost paid per activation shows. The names come from a fixed-seed generator (nested
   namespaces, templates, pointers, references, cv-qualifiers, function types), so the input is
   the same everywhere; each demangled name goes into an FNV-1a hash, printed with PASS.
   Usage: demangle [SCALE]  (rounds of 4000 names, default 8) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "demangle.h"

#define NAMES 4000

static unsigned long long seed = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return (unsigned)(seed % n); }

static const char *const ids[] = { "vector", "map", "basic_string", "allocator", "pair", "node", "iterator",
                                   "tree", "parse", "emit", "visit", "buffer", "value", "key", "detail", "impl" };

/* Appends a <source-name> (length, identifier) to p. */
static char *source_name(char *p)
{
  const char *id = ids[rnd(sizeof ids / sizeof ids[0])];
  return p + sprintf(p, "%u%s", (unsigned)strlen(id), id);
}

static char *type(char *p, int depth);

/* Appends a template argument list of one to three types. */
static char *template_args(char *p, int depth)
{
  unsigned n = 1 + rnd(3);
  *p++ = 'I';
  while (n--)
    p = type(p, depth + 1);
  *p++ = 'E';
  return p;
}

/* Appends a <nested-name>: N, up to three scopes, the last maybe a template (*templ says), E. */
static char *nested_name(char *p, int depth, int *templ)
{
  unsigned n = 1 + rnd(3);
  *p++ = 'N';
  while (n--)
    p = source_name(p);
  if ((*templ = depth < 3 && rnd(2)))
    p = template_args(p, depth);
  *p++ = 'E';
  return p;
}

/* Appends a class type: a name, or a nested one. */
static char *class_type(char *p, int depth)
{
  int templ;
  return depth < 3 && rnd(2) ? nested_name(p, depth, &templ) : source_name(p);
}

/* Appends a <type>: a builtin, a class, a pointer to a type, a reference to a const class, a
   const class, or a pointer to a function; depth bounds the nesting. */
static char *type(char *p, int depth)
{
  static const char builtin[] = "icdlmbjfhst";
  unsigned k = depth > 3 ? 0 : rnd(8);
  switch (k) {
  case 0: case 1:
    *p++ = builtin[rnd(sizeof builtin - 1)];
    return p;
  case 2: case 3:
    return class_type(p, depth);
  case 4:
    *p++ = 'P';
    return type(p, depth + 1);
  case 5:
    *p++ = 'R';
    *p++ = 'K';
    return class_type(p, depth + 1);
  case 6:
    *p++ = 'P';
    *p++ = 'F';
    p = type(p, depth + 1);
    p = type(p, depth + 1);
    *p++ = 'E';
    return p;
  default:
    *p++ = 'K';
    return source_name(p);
  }
}

/* One mangled function name: _Z, a nested name, the return type of a template, one to four
   parameter types. */
static void mangled(char *p)
{
  unsigned n = 1 + rnd(4);
  int templ;
  *p++ = '_';
  *p++ = 'Z';
  p = nested_name(p, 1, &templ);
  if (templ)
    p = type(p, 1);
  while (n--)
    p = type(p, 1);
  *p = 0;
}

int main(int argc, char **argv)
{
  static char names[NAMES][512];
  int rounds = argc > 1 ? atoi(argv[1]) : 8, r, i, bad = 0;
  unsigned long long h = 0xcbf29ce484222325ULL, bytes = 0;

  for (i = 0; i < NAMES; i++)
    mangled(names[i]);
  for (r = 0; r < rounds; r++)
    for (i = 0; i < NAMES; i++) {
      char *d = cplus_demangle_v3(names[i], DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES), *q;
      if (!d) {
        bad++;
        continue;
      }
      for (q = d; *q; q++)
        h = (h ^ (unsigned char)*q) * 0x100000001b3ULL;
      bytes += (unsigned long long)(q - d);
      free(d);
    }
  printf("%llu bytes, %d not demangled, hash %016llx\n", bytes, bad, h);
  printf(bad < rounds * NAMES / 10 ? "PASS\n" : "FAIL\n");
  return 0;
}
