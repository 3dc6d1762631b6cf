/* snapshot.c: the counts of one write: every unit's nonzero counters as (index, count) pairs, its
   hash entries, its partial paths and the k-slab forests, copied at the start of the write; once
   they are saved, exactly these counts are taken out of the live tables (counts made meanwhile
   stay). */
#include "posix.h"
#include "profile/profile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

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

/* Which pages of the process were never written, from Linux's /proc/self/pagemap (an entry per
   page: bit 63 present, bit 62 swapped): a page neither present nor swapped holds what it was
   loaded with, zeros for counters, so its counters need not be read (nor faulted in). A window
   of entries is read at a time; without the file (or where it is not to be trusted) every page
   counts as written. */
struct pagemap {
  int fd;
  unsigned long page, first, n; /* page size; the window: entries of pages first..first+n-1 */
  unsigned long lo, end;        /* the addresses of the units' counters to read: from the
                                   first counter to after the last */
  unsigned long long e[512];
};

/* Counters below this many bytes in all are just read: the pagemap costs a few syscalls. */
#define PAGEMAP_MIN 65536

#if defined(__linux__)
static volatile unsigned long pagemap_probe; /* written just before the check that it is present */

/* Reads the window of pages p..last (at most the buffer's worth: the kernel walks what it is
   asked for); 0, or -1 (then the pagemap is given up). */
static int pagemap_window(struct pagemap *pm, unsigned long p, unsigned long last)
{
  size_t want = last - p < sizeof pm->e / sizeof pm->e[0] ? (size_t)(last - p + 1) : sizeof pm->e / sizeof pm->e[0];
  ssize_t r = pread(pm->fd, pm->e, want * sizeof pm->e[0], (off_t)p * (off_t)sizeof pm->e[0]);
  if (r < (ssize_t)sizeof pm->e[0]) {
    close(pm->fd);
    pm->fd = -1;
    return -1;
  }
  pm->first = p;
  pm->n = (unsigned long)r / sizeof pm->e[0];
  return 0;
}

/* Opens the pagemap, and keeps it only if it says that a page just written is present (read
   with the units' pages when they are near it: one read for both). */
static void pagemap_open(struct pagemap *pm)
{
  long pg = sysconf(_SC_PAGESIZE);
  unsigned long p, lo, hi, max = sizeof pm->e / sizeof pm->e[0];
  pm->fd = pg > 0 ? open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC) : -1;
  pm->page = pg > 0 ? (unsigned long)pg : 4096;
  pm->n = 0;
  pagemap_probe++;
  p = (unsigned long)&pagemap_probe / pm->page;
  lo = pm->lo / pm->page < p ? pm->lo / pm->page : p;
  hi = (pm->end - 1) / pm->page > p ? (pm->end - 1) / pm->page : p;
  if (hi - lo >= max)
    lo = hi = p;
  if (pm->fd >= 0 && (pagemap_window(pm, lo, hi) != 0 || p - pm->first >= pm->n || !(pm->e[p - pm->first] >> 63))) {
    if (pm->fd >= 0)
      close(pm->fd);
    pm->fd = -1;
  }
}

static void pagemap_close(struct pagemap *pm)
{
  if (pm->fd >= 0)
    close(pm->fd);
  pm->fd = -1;
}
#else
static void pagemap_open(struct pagemap *pm)
{
  pm->fd = -1;
  pm->page = 4096;
}
static void pagemap_close(struct pagemap *pm)
{
  (void)pm;
}
#endif

/* Whether the page holding address a was never written (0 when unknown). */
static int untouched(struct pagemap *pm, unsigned long a)
{
#if defined(__linux__)
  unsigned long p = a / pm->page, lo, hi;
  if (pm->fd >= 0 && p - pm->first < pm->n) /* in the window read last (the common case) */
    return !(pm->e[p - pm->first] >> 62);
  lo = pm->lo / pm->page;
  hi = (pm->end - 1) / pm->page;
  if (a < pm->lo || a >= pm->end)
    lo = hi = p;
  else if (hi - lo >= sizeof pm->e / sizeof pm->e[0]) /* one window from p on */
    lo = p;
  if (pm->fd < 0 || ((p < pm->first || p - pm->first >= pm->n) && pagemap_window(pm, lo, hi) != 0) ||
      p < pm->first || p - pm->first >= pm->n)
    return 0;
  return !(pm->e[p - pm->first] >> 62);
#else
  (void)pm;
  (void)a;
  return 0;
#endif
}

/* The nonzero 64-bit counters c[i..end) into s. Blocks of zeros (the common case) are passed
   over by memcmp; in the others each counter is read once, atomically (a count made meanwhile
   is either read or left in memory for a later write). */
#define ZBLOCK 64
static const unsigned long long zeros[ZBLOCK];
static int scan_range(struct __pathprof_snap *s, const unsigned long long *c, unsigned long i,
                      unsigned long end, size_t *cap)
{
  unsigned long long v;
  unsigned long k, n;

  for (; i < end; i += n) {
    n = end - i < ZBLOCK ? end - i : ZBLOCK;
    if (!memcmp(c + i, zeros, n * sizeof *c))
      continue;
    for (k = 0; k < n; k++)
      if ((v = __atomic_load_n(&c[i + k], __ATOMIC_RELAXED)) && push_pair(s, i + k, v, cap) != 0)
        return -1;
  }
  return 0;
}

/* The nonzero array counters of s->u: one read of each counter on a page that was ever written,
   nothing copied but them. A counter belongs to the page of its first byte (any store to it
   writes that byte). */
static int snap_counters(struct __pathprof_snap *s, struct pagemap *pm)
{
  const struct __pathprof_unit *u = s->u;
  const unsigned long long *c = u->counters;
  unsigned long i, end, a, left;
  unsigned long long v;
  size_t cap = 0;

  if (!c) { /* 32-bit counters */
    for (i = 0; i < u->ncounters; i++)
      if ((v = __pathprof_counter_get(u, i)) && push_pair(s, i, v, &cap) != 0)
        return -1;
    return 0;
  }
  for (i = 0; i < u->ncounters; i = end) {
    a = (unsigned long)(c + i);
    left = pm->page - a % pm->page; /* bytes to the page's end */
    end = i + (left + sizeof *c - 1) / sizeof *c;
    if (end > u->ncounters)
      end = u->ncounters;
    if (!untouched(pm, a) && scan_range(s, c, i, end, &cap) != 0)
      return -1;
  }
  return 0;
}

/* See posix.h: the runs of c[0..n) on pages ever written, a page at a time, runs of written
   pages joined. */
void __pathprof_written_runs(unsigned long long *c, unsigned long n,
                             void (*fn)(void *ctx, unsigned long i, unsigned long end), void *ctx)
{
  struct pagemap pm;
  unsigned long i, end, from = 0, a;
  int in = 0;

  pm.fd = -1;
  pm.page = 4096;
  pm.lo = (unsigned long)c;
  pm.end = (unsigned long)(c + n);
  if (n * sizeof *c >= PAGEMAP_MIN)
    pagemap_open(&pm);
  for (i = 0; i < n; i = end) {
    a = (unsigned long)(c + i);
    end = i + (pm.page - a % pm.page + sizeof *c - 1) / sizeof *c;
    if (end > n)
      end = n;
    if (untouched(&pm, a)) {
      if (in)
        fn(ctx, from, i);
      in = 0;
    } else if (!in) {
      from = i;
      in = 1;
    }
  }
  if (in)
    fn(ctx, from, n);
  pagemap_close(&pm);
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

/* The used hash entries gathered so far, and the pagemap that says which pages to pass over. */
struct hash_gather {
  struct pagemap *pm;
  struct slotted *v;
  unsigned long n, cap;
  int failed;
};

/* __pathprof_hash_runs's callback: the used entries of n at t (slots from first on); the slots
   on pages never written are passed over (an entry belongs to the page of its key's first byte:
   a used entry had its key written). */
static void gather_run(void *ctx, unsigned long long *t, unsigned long n, unsigned long first)
{
  struct hash_gather *g = ctx;
  unsigned long i, k, end, a, page = g->pm->page;
  const unsigned long long *e;
  struct slotted *grown;

  for (i = 0; i < n && !g->failed; i = end) {
    a = (unsigned long)(t + 3 * i);
    end = i + (page - a % page + 3 * sizeof *t - 1) / (3 * sizeof *t);
    if (end > n)
      end = n;
    if (untouched(g->pm, a))
      continue;
    for (k = i; k < end; k++) {
      e = t + 3 * k;
      if (!PATHPROF_ENTRY_USED(e))
        continue;
      if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        if (!(grown = realloc(g->v, g->cap * sizeof *g->v))) {
          g->failed = 1;
          return;
        }
        g->v = grown;
      }
      g->v[g->n].e.fn = e[0] - 1;
      g->v[g->n].e.id = e[1];
      g->v[g->n].e.count = e[2];
      g->v[g->n++].slot = first + k;
    }
  }
}

/* The used hash entries of s->u (key set, count > 0), its extra tables' too, sorted by
   (fn, id), with their slots (__pathprof_hash_entry's numbering). */
static int snap_hash(struct __pathprof_snap *s, struct pagemap *pm)
{
  struct hash_gather g = {pm, 0, 0, 0, 0};
  unsigned long i;

  __pathprof_hash_runs(s->u, gather_run, &g);
  s->hash = malloc((g.n ? g.n : 1) * sizeof *s->hash);
  s->slot = malloc((g.n ? g.n : 1) * sizeof *s->slot);
  if (g.failed || !s->hash || !s->slot) {
    free(g.v);
    return -1;
  }
  if (g.n)
    qsort(g.v, g.n, sizeof *g.v, cmp_slotted);
  for (i = 0; i < g.n; i++) {
    s->hash[i] = g.v[i].e;
    s->slot[i] = g.v[i].slot;
  }
  s->nhash = g.n;
  free(g.v);
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

/* Widens pm's range to the n 64-bit words at p; their size in bytes. */
static unsigned long long span(struct pagemap *pm, const unsigned long long *p, unsigned long n)
{
  if ((unsigned long)p < pm->lo)
    pm->lo = (unsigned long)p;
  if ((unsigned long)(p + n) > pm->end)
    pm->end = (unsigned long)(p + n);
  return (unsigned long long)n * sizeof *p;
}

/* Copies the counts of every registered unit that keep accepts (all for 0), and the forests;
   0, or -1 when out of memory. */
int __pathprof_snapshot_take(struct __pathprof_snapshot *ss, int (*keep)(const struct __pathprof_unit *))
{
  struct __pathprof_unit *u;
  struct __pathprof_snap *grown;
  struct pagemap pm;
  unsigned long long bytes = 0;

  memset(ss, 0, sizeof *ss);
  pm.fd = -1;
  pm.page = 4096;
  pm.lo = (unsigned long)-1;
  pm.end = 0;
  for (u = __pathprof_first(); u; u = __pathprof_next(u)) {
    if (keep && !keep(u))
      continue;
    if (u->counters && u->ncounters)
      bytes += span(&pm, u->counters, u->ncounters);
    if (u->hash && u->hash_cap)
      bytes += span(&pm, u->hash, 3 * u->hash_cap);
  }
  if (bytes >= PAGEMAP_MIN)
    pagemap_open(&pm);
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
    if (snap_counters(&ss->s[ss->n], &pm) != 0 || snap_hash(&ss->s[ss->n++], &pm) != 0)
      break;
  }
  pagemap_close(&pm);
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
    e = __pathprof_hash_entry(s->u, s->slot[k]);
    if (e && e[0] == s->hash[k].fn + 1 && e[1] == s->hash[k].id)
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
  if (ss->n) /* the dropped count rides on the first unit's record: none written, none taken */
    __pathprof_partials_take_dropped(ss->part_dropped);
}
