/* tests.c: per-test counts in the profile model (TEST records, doc/formats.md section 2): test
   names, tests added up by name when profiles merge, a run's counts filed under its test, and a
   profile reduced to one test's counts. */
#include "profile_int.h"
#include <stdlib.h>
#include <string.h>

int pp_test_name_ok(const char *name)
{
  size_t n = 0;
  if (!name)
    return 0;
  for (; name[n]; n++)
    if ((unsigned char)name[n] < 0x20 || (unsigned char)name[n] > 0x7e)
      return 0;
  return n >= 1 && n <= TEST_NAME_MAX;
}

void ppf_free_tests(struct pp_test *t, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++) {
    free(t[i].name);
    ppf_free_units(t[i].units, t[i].nunits);
  }
  free(t);
}

/* A copy of test src: its name and units. */
static int copy_test(struct pp_test *dst, const struct pp_test *src)
{
  size_t i;
  memset(dst, 0, sizeof *dst);
  dst->name = malloc(strlen(src->name) + 1);
  dst->units = ppf_alloc_array((unsigned long long)src->nunits, sizeof *dst->units);
  if (!dst->name || !dst->units) {
    free(dst->name);
    free(dst->units);
    return -1;
  }
  strcpy(dst->name, src->name);
  for (i = 0; i < src->nunits; i++)
    if (ppf_copy_unit(&dst->units[i], &src->units[i]) != 0) {
      ppf_free_units(dst->units, i);
      free(dst->name);
      return -1;
    }
  dst->nunits = src->nunits;
  return 0;
}

static int cmp_test(const void *a, const void *b)
{
  return strcmp(((const struct pp_test *)a)->name, ((const struct pp_test *)b)->name);
}

/* Adds test b's units into a (both owned and canonical; b is consumed). */
static int join_test(struct pp_test *a, struct pp_test *b, char *err, size_t errlen)
{
  struct pp_unitrec *all = ppf_alloc_array((unsigned long long)a->nunits + b->nunits, sizeof *all);
  struct pp_profile folded;
  if (!all) {
    free(b->name);
    ppf_free_units(b->units, b->nunits);
    return ppf_fail(err, errlen, "out of memory");
  }
  if (a->nunits)
    memcpy(all, a->units, a->nunits * sizeof *all);
  if (b->nunits)
    memcpy(all + a->nunits, b->units, b->nunits * sizeof *all);
  free(a->units);
  free(b->units);
  free(b->name);
  memset(&folded, 0, sizeof folded);
  if (ppf_fold(all, a->nunits + b->nunits, &folded, err, errlen) != 0) {
    a->units = 0;
    a->nunits = 0;
    return -1;
  }
  a->units = folded.units;
  a->nunits = folded.nunits;
  return 0;
}

int ppf_fold_tests(struct pp_test *v, size_t n, struct pp_profile *out, char *err, size_t errlen)
{
  size_t i, m = 0;
  out->ntests = 0;
  out->tests = 0;
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_test);
  for (i = 0; i < n; i++) {
    if (m == 0 || strcmp(v[m - 1].name, v[i].name)) {
      v[m++] = v[i];
      continue;
    }
    if (join_test(&v[m - 1], &v[i], err, errlen) != 0) { /* v[i] is consumed */
      size_t k;
      for (k = i + 1; k < n; k++) {
        free(v[k].name);
        ppf_free_units(v[k].units, v[k].nunits);
      }
      ppf_free_tests(v, m);
      return -1;
    }
  }
  if (!m) {
    free(v);
    return 0;
  }
  out->ntests = m;
  out->tests = v;
  return 0;
}

int ppf_copy_tests(const struct pp_profile *a, const struct pp_profile *b, struct pp_profile *out,
                   char *err, size_t errlen)
{
  size_t na = a->ntests, nb = b ? b->ntests : 0, i;
  struct pp_test *v;
  if (na + nb == 0) {
    out->ntests = 0;
    out->tests = 0;
    return 0;
  }
  v = ppf_alloc_array((unsigned long long)na + nb, sizeof *v);
  if (!v)
    return ppf_fail(err, errlen, "out of memory");
  for (i = 0; i < na + nb; i++)
    if (copy_test(&v[i], i < na ? &a->tests[i] : &b->tests[i - na]) != 0) {
      ppf_free_tests(v, i);
      return ppf_fail(err, errlen, "out of memory");
    }
  return ppf_fold_tests(v, na + nb, out, err, errlen);
}

int ppf_check_tests(const struct pp_profile *p, char *err, size_t errlen)
{
  size_t t, i;
  for (t = 0; t < p->ntests; t++)
    for (i = 0; i < p->tests[t].nunits; i++) {
      const struct pp_unitrec *u = &p->tests[t].units[i];
      int found;
      size_t at = ppf_find_unit(p, u->checksum, &found);
      if (!found || p->units[at].ncounters != u->ncounters)
        return ppf_fail(err, errlen, "test '%s' has counts of unit %016llx, which the profile's totals %s", p->tests[t].name,
                        u->checksum, found ? "count with another number of counters" : "lack");
    }
  return 0;
}

int pp_profile_set_test(struct pp_profile *p, const char *name, char *err, size_t errlen)
{
  struct pp_test all, *one;
  if (!pp_test_name_ok(name))
    return ppf_fail(err, errlen, "bad test name (1 to %d printable characters)", TEST_NAME_MAX);
  all.name = (char *)name;
  all.nunits = p->nunits;
  all.units = p->units;
  one = malloc(sizeof *one);
  if (!one || copy_test(one, &all) != 0) {
    free(one);
    return ppf_fail(err, errlen, "out of memory");
  }
  ppf_free_tests(p->tests, p->ntests);
  p->tests = one;
  p->ntests = 1;
  return 0;
}

/* u's counts replaced by a copy of t's, or by zeros when t is 0; into c, u untouched. */
static int counts_of(const struct pp_unitrec *u, const struct pp_unitrec *t, struct pp_unitrec *c)
{
  if (t)
    return ppf_copy_unit(c, t);
  memset(c, 0, sizeof *c);
  c->checksum = u->checksum;
  c->ncounters = u->ncounters;
  c->name = malloc(strlen(u->name) + 1);
  c->counters = ppf_alloc_array(u->ncounters, sizeof *c->counters);
  c->hash = ppf_alloc_array(0, sizeof *c->hash);
  if (!c->name || !c->counters || !c->hash) {
    ppf_free_unit(c);
    return -1;
  }
  strcpy(c->name, u->name);
  memset(c->counters, 0, (size_t)u->ncounters * sizeof *c->counters);
  return 0;
}

int pp_profile_only_test(struct pp_profile *p, const char *name, char *err, size_t errlen)
{
  struct pp_profile view, kept;
  struct pp_unitrec *units;
  size_t t, i;
  for (t = 0; t < p->ntests && strcmp(p->tests[t].name, name); t++) {}
  if (t == p->ntests)
    return ppf_fail(err, errlen, "no test named '%s'", name);
  memset(&view, 0, sizeof view);
  view.nunits = p->tests[t].nunits;
  view.units = p->tests[t].units;
  units = ppf_alloc_array((unsigned long long)p->nunits, sizeof *units);
  if (!units)
    return ppf_fail(err, errlen, "out of memory");
  for (i = 0; i < p->nunits; i++) { /* the totals' units, each with the test's counts or none */
    int found;
    size_t at = ppf_find_unit(&view, p->units[i].checksum, &found);
    if (counts_of(&p->units[i], found ? &view.units[at] : 0, &units[i]) != 0) {
      ppf_free_units(units, i);
      return ppf_fail(err, errlen, "out of memory");
    }
  }
  memset(&kept, 0, sizeof kept);
  kept.nunits = p->nunits;
  kept.units = units;
  pp_profile_free(p);
  *p = kept;
  return 0;
}

int ppf_fold_testlist(struct ppf_testlist *tl, struct pp_profile *out, char *msg, size_t msglen)
{
  struct pp_test *v = ppf_alloc_array((unsigned long long)tl->n, sizeof *v);
  struct pp_profile f;
  size_t i, k = 0;
  int rc = v ? 0 : ppf_fail(msg, msglen, "out of memory");
  for (i = 0; i < tl->n; i++) {
    int tried = rc == 0;
    memset(&f, 0, sizeof f);
    if (tried && (rc = ppf_fold(tl->v[i].recs.v, tl->v[i].recs.n, &f, msg, msglen)) == 0) {
      v[k].name = tl->v[i].name;
      v[k].nunits = f.nunits;
      v[k++].units = f.units;
      continue;
    }
    if (tried) { /* ppf_fold consumed them, also on failure */
      tl->v[i].recs.v = 0;
      tl->v[i].recs.n = 0;
    }
    ppf_free_units(tl->v[i].recs.v, tl->v[i].recs.n);
    free(tl->v[i].name);
  }
  free(tl->v);
  if (rc != 0) {
    ppf_free_tests(v, k);
    return -1;
  }
  return ppf_fold_tests(v, k, out, msg, msglen);
}
