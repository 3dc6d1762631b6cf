/* snapshot.c: the counts of one write: every unit's nonzero counters as (index, count) pairs, its
   hash entries, its partial paths and the k-slab forests, copied at the start of the write; once
   they are saved, exactly these counts are taken out of the live tables (counts made meanwhile
   stay). */
#include "posix.h"
#include "profile/profile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing memory buffer, the sink of the forests' dump. */
struct membuf {
  unsigned char *p;
  size_t n, cap;
};

/* Appends len bytes to the buffer; -1 when out of memory. */
static int mem_write(void *ctx, const void *buf, unsigned long len)
{
  struct membuf *m = ctx;
  unsigned char *grown;
  size_t cap = m->cap ? m->cap : 4096;

  while (cap - m->n < len)
    cap *= 2;
  if (cap != m->cap) {
    if (!(grown = realloc(m->p, cap)))
      return -1;
    m->p = grown;
    m->cap = cap;
  }
  memcpy(m->p + m->n, buf, len);
  m->n += len;
  return 0;
}

/* Frees a snapshot. */
void __pathprof_snapshot_free(struct __pathprof_snapshot *ss)
{
  size_t i;
  for (i = 0; i < ss->n; i++) {
    free(ss->s[i].idx);
    free(ss->s[i].val);
    free(ss->s[i].hash);
    free(ss->s[i].slot);
    free(ss->s[i].part);
    free(ss->s[i].taken);
    free(ss->s[i].fs);
  }
  free(ss->s);
  free(ss->units);
  pp_profile_free(&ss->forests);
  memset(ss, 0, sizeof *ss);
}

/* Appends (i, v) to s's pairs, doubling them; -1 when out of memory. */
static int push_pair(struct __pathprof_snap *s, unsigned long long i, unsigned long long v, size_t *cap)
{
  unsigned long long *a, *b;
  if (s->nset == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    a = realloc(s->idx, *cap * sizeof *a);
    if (a)
      s->idx = a;
    b = a ? realloc(s->val, *cap * sizeof *b) : 0;
    if (!b)
      return -1;
    s->val = b;
  }
  s->idx[s->nset] = i;
  s->val[s->nset++] = v;
  return 0;
}

/* The nonzero array counters of s->u: one read of each counter, nothing copied but them. */
static int snap_counters(struct __pathprof_snap *s)
{
  const struct __pathprof_unit *u = s->u;
  unsigned long i;
  unsigned long long v;
  size_t cap = 0;

  for (i = 0; i < u->ncounters; i++) {
    v = u->counters ? __atomic_load_n(&u->counters[i], __ATOMIC_RELAXED) : __pathprof_counter_get(u, i);
    if (v && push_pair(s, i, v, &cap) != 0)
      return -1;
  }
  return 0;
}

/* One hash entry with the slot it came from, sorted together. */
struct slotted {
  struct pp_hent e;
  unsigned long slot;
};

/* Orders slotted entries by (fn, id). */
static int cmp_slotted(const void *a, const void *b)
{
  const struct slotted *x = a, *y = b;
  if (x->e.fn != y->e.fn)
    return x->e.fn < y->e.fn ? -1 : 1;
  return x->e.id < y->e.id ? -1 : x->e.id > y->e.id;
}

/* The used hash entries of s->u (key set, count > 0) sorted by (fn, id), with their slots. */
static int snap_hash(struct __pathprof_snap *s)
{
  const struct __pathprof_unit *u = s->u;
  unsigned long i, n = 0;
  const unsigned long long *e;
  struct slotted *v;

  for (i = 0; u->hash && i < u->hash_cap; i++)
    n += PATHPROF_ENTRY_USED(u->hash + 3 * i);
  v = malloc((n ? n : 1) * sizeof *v);
  s->hash = malloc((n ? n : 1) * sizeof *s->hash);
  s->slot = malloc((n ? n : 1) * sizeof *s->slot);
  if (!v || !s->hash || !s->slot) {
    free(v);
    return -1;
  }
  for (i = 0; u->hash && i < u->hash_cap && s->nhash < n; i++) {
    e = u->hash + 3 * i;
    if (!PATHPROF_ENTRY_USED(e))
      continue;
    v[s->nhash].e.fn = e[0] - 1;
    v[s->nhash].e.id = e[1];
    v[s->nhash].e.count = e[2];
    v[s->nhash++].slot = i;
  }
  qsort(v, s->nhash, sizeof *v, cmp_slotted);
  for (i = 0; i < s->nhash; i++) {
    s->hash[i] = v[i].e;
    s->slot[i] = v[i].slot;
  }
  free(v);
  return 0;
}

/* The forests in memory as a profile, their counts taken out of memory (a write that then
   fails loses them; the counters of the units are kept for a later write instead). */
static int take_forests(struct pp_profile *f)
{
  struct membuf m = {0, 0, 0};
  char err[256];
  int rc = -1;

  if (__pathprof_dump_extra(mem_write, &m, 1) == 0)
    rc = pp_profile_parse(m.p, m.n, "the forests in memory", f, err, sizeof err);
  free(m.p);
  return rc;
}

/* __pathprof_partials_each's callback: a partial path of a snapshotted unit joins its record. */
static void snap_part(void *ctx, struct __pathprof_unit *u, unsigned long fs, unsigned long long r, long long n)
{
  struct __pathprof_snapshot *ss = ctx;
  struct __pathprof_snap *s;
  struct pp_part *p;
  long long *t;
  unsigned long *f;
  size_t i;

  for (i = 0; i < ss->n && ss->s[i].u != u; i++)
    ;
  if (i == ss->n || ss->failed)
    return;
  s = &ss->s[i];
  p = realloc(s->part, (size_t)(s->npart + 1) * sizeof *p);
  if (p)
    s->part = p;
  t = p ? realloc(s->taken, (size_t)(s->npart + 1) * sizeof *t) : 0;
  if (t)
    s->taken = t;
  f = t ? realloc(s->fs, (size_t)(s->npart + 1) * sizeof *f) : 0;
  if (!f) {
    ss->failed = 1;
    return;
  }
  s->fs = f;
  p[s->npart].fn = fs >> PATHPROF_SITE_BITS;
  p[s->npart].site = fs & PATHPROF_SITE_MASK;
  p[s->npart].r = r;
  p[s->npart].count = n;
  t[s->npart] = n;
  f[s->npart++] = fs;
}

/* Orders sparse units by checksum. */
static int cmp_sparse(const void *a, const void *b)
{
  const struct pp_sparse *x = a, *y = b;
  return x->checksum < y->checksum ? -1 : x->checksum > y->checksum;
}

/* The sparse view of the units, sorted by checksum; unique says no checksum comes twice. */
static int make_view(struct __pathprof_snapshot *ss)
{
  struct pp_sparse *v = malloc((ss->n ? ss->n : 1) * sizeof *v);
  size_t i;
  if (!v)
    return -1;
  for (i = 0; i < ss->n; i++) {
    const struct __pathprof_snap *s = &ss->s[i];
    v[i].checksum = s->u->checksum;
    v[i].ncounters = s->u->ncounters;
    v[i].nset = s->nset;
    v[i].nhash = s->nhash;
    v[i].dropped = s->dropped;
    v[i].name = s->u->tables ? s->u->tables : "";
    v[i].idx = s->idx;
    v[i].val = s->val;
    v[i].hash = s->hash;
    v[i].npart = s->npart;
    v[i].part = s->part;
    v[i].part_dropped = i ? 0 : ss->part_dropped;
  }
  qsort(v, ss->n, sizeof *v, cmp_sparse);
  ss->unique = 1;
  for (i = 1; i < ss->n; i++)
    if (v[i - 1].checksum == v[i].checksum)
      ss->unique = 0;
  ss->units = v;
  return 0;
}

/* Copies the counts of every registered unit that keep accepts (all for 0), and the forests;
   0, or -1 when out of memory. */
int __pathprof_snapshot_take(struct __pathprof_snapshot *ss, int (*keep)(const struct __pathprof_unit *))
{
  struct __pathprof_unit *u;
  struct __pathprof_snap *grown;

  memset(ss, 0, sizeof *ss);
  for (u = __pathprof_first(); u; u = __pathprof_next(u)) {
    if (keep && !keep(u))
      continue;
    grown = realloc(ss->s, (ss->n + 1) * sizeof *grown);
    if (!grown)
      break;
    ss->s = grown;
    memset(&ss->s[ss->n], 0, sizeof *grown);
    ss->s[ss->n].u = u;
    ss->s[ss->n].dropped = u->hash_dropped;
    if (snap_counters(&ss->s[ss->n]) != 0 || snap_hash(&ss->s[ss->n++]) != 0)
      break;
  }
  if (!u)
    ss->part_dropped = __pathprof_partials_each(snap_part, ss);
  if (!u && !ss->failed && make_view(ss) == 0 && take_forests(&ss->forests) == 0)
    return 0;
  __pathprof_snapshot_free(ss);
  return -1;
}

/* The dense canonical profile of the snapshot, forests included, and under a test name its
   units filed under the test too (a TEST record). 0, or -1 with err set. */
int __pathprof_snapshot_profile(const struct __pathprof_snapshot *ss, struct pp_profile *p, char *err,
                                size_t errlen)
{
  if (pp_profile_from_sparse(ss->units, ss->n, p, err, errlen) != 0)
    return -1;
  if ((ss->forests.nforests && pp_profile_merge(p, &ss->forests, err, errlen) != 0) ||
      (__pathprof_test_name() && pp_profile_set_test(p, __pathprof_test_name(), err, errlen) != 0)) {
    pp_profile_free(p);
    return -1;
  }
  return 0;
}

/* live - written, never below zero. */
static unsigned long long minus(unsigned long long live, unsigned long long written)
{
  return live >= written ? live - written : 0;
}

/* *live -= written, never below zero (a reset may have run in between), atomically: other
   threads may be counting into *live meanwhile (pathcc --update=atomic, shards folding). */
static void take(unsigned long long *live, unsigned long long written)
{
  unsigned long long v = __atomic_load_n(live, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(live, &v, v >= written ? v - written : 0, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED))
    ;
}

/* Takes one unit's snapshotted counts out of its live tables. */
static void subtract_snap(const struct __pathprof_snap *s)
{
  unsigned long long *e, k, i;

  for (k = 0; k < s->nset; k++) {
    i = s->idx[k];
    if (s->u->counters) /* 64-bit: atomically, threads may be counting */
      take(&s->u->counters[i], s->val[k]);
    else /* 32-bit saturating counters (single updates only) */
      __pathprof_counter_set(s->u, (unsigned long)i, minus(__pathprof_counter_get(s->u, (unsigned long)i), s->val[k]));
  }
  for (k = 0; s->u->hash && k < s->nhash; k++) {
    if (s->slot[k] >= s->u->hash_cap)
      continue;
    e = s->u->hash + 3 * s->slot[k];
    if (e[0] == s->hash[k].fn + 1 && e[1] == s->hash[k].id)
      take(&e[2], s->hash[k].count);
  }
  take(&s->u->hash_dropped, s->dropped);
}

/* Takes the snapshotted counts out of the live tables once they are safely on disk, so a later
   write adds only what was counted since, while counts made meanwhile are kept. */
void __pathprof_snapshot_subtract(const struct __pathprof_snapshot *ss)
{
  size_t i;
  unsigned long long k;
  for (i = 0; i < ss->n; i++) {
    subtract_snap(&ss->s[i]);
    for (k = 0; k < ss->s[i].npart; k++) /* the pool's leave it; live frames' prefixes are taken back */
      __pathprof_partial_add(ss->s[i].u, ss->s[i].fs[k], ss->s[i].part[k].r, -ss->s[i].taken[k]);
  }
  __pathprof_partials_take_dropped(ss->part_dropped);
}
