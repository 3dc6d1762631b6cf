/* bench workload "objects": an interpreter-like run over the object model of objects.h, whose
   header helpers (type tests, reference counts, item access) are most of its calls, as in
   CPython: values made and released, counted in dictionaries, sorted, walked through nested lists.
   Checks its own results (sorted order, counts, every object released) and prints a checksum.
   Usage: objects [SCALE]  (rounds of 4,000 values, default 100) */
#include "objects.h"
#include <stdio.h>
#include <stdlib.h>

static unsigned long long seed = 88172645463325252ULL;
static unsigned next_rand(void) {
  seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
  return (unsigned)(seed >> 16);
}

/* A value: mostly small integers, some strings from a small vocabulary. */
static object *make_value(void) {
  unsigned r = next_rand();
  if (r % 4 == 0) {
    char buf[16];
    snprintf(buf, sizeof buf, "k%u", (r >> 8) % 97);
    return new_str(buf);
  }
  return new_int((long)((r >> 4) % 500) - 100);
}

/* The sum of a nested list's integers and of its strings' lengths, by type dispatch. */
static long walk(object *o) {
  if (is_int(o)) return int_value(o);
  if (is_str(o)) return (long)str_len(o);
  long s = 0;
  if (is_list(o))
    for (size_t i = 0; i < list_len(o); i++) s += walk(list_item(o, i));
  return s;
}

static int fail(const char *what) {
  printf("FAIL: %s\n", what);
  return 1;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 100;
  unsigned long long check = 0;
  for (long r = 0; r < rounds; r++) {
    object *values = new_list(), *counts = new_dict(), *nested = new_list();
    for (int i = 0; i < 4000; i++) {
      object *v = make_value();
      list_append(values, v);
      object *c = dict_get(counts, v);
      object *n = new_int(c ? int_value(c) + 1 : 1);
      dict_set(counts, v, n);
      decref(n);
      if (i % 8 == 0) {
        object *inner = new_list();
        list_append(inner, v);
        list_append(nested, inner);
        decref(inner);
      }
      decref(v);
    }
    long total = 0;
    for (size_t i = 0; i < list_len(values); i++) {
      object *c = dict_get(counts, list_item(values, i));
      if (!c) return fail("a value missing from its dictionary");
      total += int_value(c) > 0;
    }
    if (total != 4000) return fail("dictionary counts");
    list_sort(values);
    for (size_t i = 1; i < list_len(values); i++)
      if (compare(list_item(values, i - 1), list_item(values, i)) > 0) return fail("sorted order");
    check = check * 31 + (unsigned long long)walk(values) + (unsigned long long)walk(nested) * 7 +
            ((dictobj *)counts)->used;
    decref(values);
    decref(counts);
    decref(nested);
  }
  if (live_objects != 0) return fail("objects left alive");
  printf("objects: %ld rounds, checksum %llu\nPASS\n", rounds, check);
  return 0;
}
