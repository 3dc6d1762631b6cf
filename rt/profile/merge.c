/* merge.c: the hosted profile model in memory: canonical form, saturating merge of counts and
   k-slab forests, freeing. */
#include "profile_int.h"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
/* Formats an error message into err (if there is room for one). */
int ppf_fail(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  if (err && errlen) {
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* a + b, stuck at 2^64-1 instead of wrapping, so merged counts never go down. */
static unsigned long long sat_add(unsigned long long a, unsigned long long b)
{
  return a > MAX_COUNT - b ? MAX_COUNT : a + b;
}

/* malloc for n elements of size sz, failing cleanly on overflow; never returns 0 for n == 0. */
void *ppf_alloc_array(unsigned long long n, size_t sz)
{
  if (n > (unsigned long long)((size_t)-1 / sz))
    return 0;
  return malloc(n ? (size_t)n * sz : 1);
}

/* Frees what one unit record owns. */
void ppf_free_unit(struct pp_unitrec *u)
{
  free(u->name);
  free(u->counters);
  free(u->idx);
  free(u->hash);
  free(u->part);
  memset(u, 0, sizeof *u);
}

/* Frees an OSPH record. */
void ppf_free_osph(struct pp_osph *o)
{
  if (!o)
    return;
  free(o->entries);
  free(o->blocks);
  free(o);
}

/* A deep copy of an OSPH record (0 for 0); *bad set when out of memory. */
static struct pp_osph *copy_osph(const struct pp_osph *o, int *bad)
{
  struct pp_osph *c;
  unsigned long long i, at = 0;
  if (!o)
    return 0;
  c = malloc(sizeof *c);
  if (c) {
    *c = *o;
    c->entries = ppf_alloc_array(o->nentries, sizeof *c->entries);
    c->blocks = ppf_alloc_array(o->nblocks, sizeof *c->blocks);
  }
  if (!c || !c->entries || !c->blocks) {
    if (c) {
      free(c->entries);
      free(c->blocks);
    }
    free(c);
    *bad = 1;
    return 0;
  }
  if (o->nblocks)
    memcpy(c->blocks, o->blocks, (size_t)o->nblocks * sizeof *c->blocks);
  for (i = 0; i < o->nentries; i++) {
    c->entries[i] = o->entries[i];
    c->entries[i].blocks = o->entries[i].blocks ? c->blocks + at : 0;
    at += o->entries[i].blocks ? o->entries[i].len : 0;
  }
  return c;
}

/* Frees everything p owns and leaves it empty. */
void pp_profile_free(struct pp_profile *p)
{
  size_t i;
  if (!p)
    return;
  for (i = 0; i < p->nunits; i++)
    ppf_free_unit(&p->units[i]);
  free(p->units);
  ppf_free_osph(p->osp);
  p->units = 0;
  p->nunits = 0;
  p->osp = 0;
  p->part_dropped = 0;
  for (i = 0; i < p->nforests; i++)
    free(p->forests[i].nodes);
  free(p->forests);
  p->forests = 0;
  p->nforests = 0;
  ppf_free_tests(p->tests, p->ntests);
  p->tests = 0;
  p->ntests = 0;
}

/* Orders hash entries by (fn, id) for qsort. */
static int cmp_hent(const void *a, const void *b)
{
  const struct pp_hent *x = a, *y = b;
  if (x->fn != y->fn)
    return x->fn < y->fn ? -1 : 1;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  return 0;
}

/* Makes a unit's hash canonical in place: sorted, each (fn, id) once, no zero counts. */
void ppf_canon_hash(struct pp_unitrec *u)
{
  unsigned long long i, n = 0;
  if (u->nhash > 1)
    qsort(u->hash, (size_t)u->nhash, sizeof *u->hash, cmp_hent);
  for (i = 0; i < u->nhash; i++) {
    if (u->hash[i].count == 0)
      continue;
    if (n > 0 && cmp_hent(&u->hash[n - 1], &u->hash[i]) == 0)
      u->hash[n - 1].count = sat_add(u->hash[n - 1].count, u->hash[i].count);
    else
      u->hash[n++] = u->hash[i];
  }
  u->nhash = n;
}

/* a + b for signed counts, stuck at the ends instead of wrapping. */
long long ppf_sadd(long long a, long long b)
{
  const long long max = (long long)(MAX_COUNT >> 1), min = -max - 1;
  if (b > 0 && a > max - b)
    return max;
  if (b < 0 && a < min - b)
    return min;
  return a + b;
}

/* Orders partial paths by (fn, site, r) for qsort. */
static int cmp_part(const void *a, const void *b)
{
  const struct pp_part *x = a, *y = b;
  if (x->fn != y->fn)
    return x->fn < y->fn ? -1 : 1;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  if (x->r != y->r)
    return x->r < y->r ? -1 : 1;
  return 0;
}

/* Makes a unit's partial paths canonical in place: sorted, each (fn, site, r) once, no zeros. */
void ppf_canon_part(struct pp_unitrec *u)
{
  unsigned long long i, n = 0;
  if (u->npart > 1)
    qsort(u->part, (size_t)u->npart, sizeof *u->part, cmp_part);
  for (i = 0; i < u->npart; i++) {
    if (n > 0 && cmp_part(&u->part[n - 1], &u->part[i]) == 0)
      u->part[n - 1].count = ppf_sadd(u->part[n - 1].count, u->part[i].count);
    else
      u->part[n++] = u->part[i];
    if (u->part[n - 1].count == 0)
      n--;
  }
  u->npart = n;
}

/* Merge-join of two canonical partial path lists into a new array; 0 or -1 (no memory). */
static int join_part(const struct pp_unitrec *a, const struct pp_unitrec *b, struct pp_part **out,
                     unsigned long long *nout)
{
  unsigned long long i = 0, j = 0, n = 0;
  struct pp_part *h = ppf_alloc_array(a->npart + b->npart, sizeof *h);
  int c;
  if (!h)
    return -1;
  while (i < a->npart || j < b->npart) {
    c = i == a->npart ? 1 : j == b->npart ? -1 : cmp_part(&a->part[i], &b->part[j]);
    if (c < 0)
      h[n++] = a->part[i++];
    else if (c > 0)
      h[n++] = b->part[j++];
    else {
      h[n] = a->part[i++];
      h[n].count = ppf_sadd(h[n].count, b->part[j++].count);
      n += h[n].count != 0;
    }
  }
  *out = h;
  *nout = n;
  return 0;
}

/* Hands the partial paths to their units in canonical out (each must name one); frees l. */
int ppf_attach_parts(struct parts *l, struct pp_profile *out, const char *fname, char *err, size_t errlen)
{
  size_t i, u;
  int found, rc = 0;
  struct pp_part *grown;

  for (i = 0; i < l->n && rc == 0; i++) {
    u = ppf_find_unit(out, l->v[i].checksum, &found);
    if (!found) {
      rc = ppf_fail(err, errlen, "%s: partial path at byte %zu names unit %016llx, which has no unit record",
                    fname, l->v[i].at, l->v[i].checksum);
      break;
    }
    grown = realloc(out->units[u].part, (size_t)(out->units[u].npart + 1) * sizeof *grown);
    if (!grown) {
      rc = ppf_fail(err, errlen, "%s: out of memory", fname);
      break;
    }
    out->units[u].part = grown;
    grown[out->units[u].npart++] = l->v[i].p;
  }
  for (u = 0; u < out->nunits && rc == 0; u++)
    ppf_canon_part(&out->units[u]);
  out->part_dropped = l->dropped;
  free(l->v);
  return rc;
}

/* Deep copy of src into dst, with a canonical hash; 0 or -1 (no memory, dst left empty). */
int ppf_copy_unit(struct pp_unitrec *dst, const struct pp_unitrec *src)
{
  const char *name = src->name ? src->name : "";
  unsigned long long n;
  memset(dst, 0, sizeof *dst);
  dst->checksum = src->checksum;
  dst->ncounters = src->ncounters;
  dst->nhash = src->hash ? src->nhash : 0;
  dst->dropped = src->dropped;
  dst->npart = src->part ? src->npart : 0;
  dst->nset = src->idx ? src->nset : 0;
  n = src->idx ? src->nset : src->ncounters;
  dst->name = malloc(strlen(name) + 1);
  dst->counters = ppf_alloc_array(n, sizeof *dst->counters);
  dst->idx = src->idx ? ppf_alloc_array(n, sizeof *dst->idx) : 0;
  dst->hash = ppf_alloc_array(dst->nhash, sizeof *dst->hash);
  dst->part = ppf_alloc_array(dst->npart, sizeof *dst->part);
  if (!dst->name || !dst->counters || (src->idx && !dst->idx) || !dst->hash || !dst->part) {
    ppf_free_unit(dst);
    return -1;
  }
  strcpy(dst->name, name);
  if (n && src->counters)
    memcpy(dst->counters, src->counters, (size_t)n * sizeof *dst->counters);
  else if (n)
    memset(dst->counters, 0, (size_t)n * sizeof *dst->counters);
  if (src->idx && n)
    memcpy(dst->idx, src->idx, (size_t)n * sizeof *dst->idx);
  if (dst->nhash)
    memcpy(dst->hash, src->hash, (size_t)dst->nhash * sizeof *dst->hash);
  if (dst->npart)
    memcpy(dst->part, src->part, (size_t)dst->npart * sizeof *dst->part);
  ppf_canon_hash(dst);
  ppf_canon_part(dst);
  return 0;
}

/* Index of the unit with this checksum in canonical p, or where it would be inserted. */
size_t ppf_find_unit(const struct pp_profile *p, unsigned long long checksum, int *found)
{
  size_t lo = 0, hi = p->nunits, mid;
  while (lo < hi) {
    mid = lo + (hi - lo) / 2;
    if (p->units[mid].checksum < checksum)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo < p->nunits && p->units[lo].checksum == checksum;
  return lo;
}

/* Merge-join of two canonical hash lists into a new array; 0 or -1 (no memory). */
static int join_hash(const struct pp_unitrec *a, const struct pp_unitrec *b, struct pp_hent **out,
                     unsigned long long *nout)
{
  unsigned long long i = 0, j = 0, n = 0;
  struct pp_hent *h = ppf_alloc_array(a->nhash + b->nhash, sizeof *h);
  int c;
  if (!h)
    return -1;
  while (i < a->nhash || j < b->nhash) {
    c = i == a->nhash ? 1 : j == b->nhash ? -1 : cmp_hent(&a->hash[i], &b->hash[j]);
    if (c < 0)
      h[n++] = a->hash[i++];
    else if (c > 0)
      h[n++] = b->hash[j++];
    else {
      h[n] = a->hash[i++];
      h[n].count = sat_add(h[n].count, b->hash[j++].count);
      n++;
    }
  }
  *out = h;
  *nout = n;
  return 0;
}

/* Adds all of canonical src but its counters into canonical dst of the same checksum: the
   sizes are checked, the hash entries joined, the dropped counts added, and of two names the
   smaller kept (so merging stays commutative). On error dst is unchanged. */
int ppf_merge_rest(struct pp_unitrec *dst, const struct pp_unitrec *src, char *err, size_t errlen)
{
  struct pp_hent *h;
  struct pp_part *pt;
  unsigned long long n, npt;
  char *name = 0;

  if (dst->ncounters != src->ncounters)
    return ppf_fail(err, errlen, "unit %016llx (%s): %llu counters in one profile, %llu in the other",
                dst->checksum, dst->name, dst->ncounters, src->ncounters);
  if (strcmp(src->name, dst->name) < 0 && !(name = malloc(strlen(src->name) + 1)))
    return ppf_fail(err, errlen, "out of memory");
  if (join_hash(dst, src, &h, &n) != 0) {
    free(name);
    return ppf_fail(err, errlen, "out of memory");
  }
  if (join_part(dst, src, &pt, &npt) != 0) {
    free(name);
    free(h);
    return ppf_fail(err, errlen, "out of memory");
  }
  free(dst->part);
  dst->part = pt;
  dst->npart = npt;
  dst->dropped = sat_add(dst->dropped, src->dropped);
  free(dst->hash);
  dst->hash = h;
  dst->nhash = n;
  if (name) {
    free(dst->name);
    dst->name = strcpy(name, src->name);
  }
  return 0;
}

/* Adds count v into *c, saturating. */
void ppf_add_count(unsigned long long *c, unsigned long long v)
{
  *c = sat_add(*c, v);
}

/* Makes u's counters dense (see profile.h). */
int pp_unit_dense(struct pp_unitrec *u)
{
  unsigned long long *c, k;
  if (!u->idx)
    return 0;
  if (!(c = ppf_alloc_array(u->ncounters, sizeof *c)))
    return -1;
  memset(c, 0, (size_t)u->ncounters * sizeof *c);
  for (k = 0; k < u->nset; k++)
    c[u->idx[k]] = u->counters[k];
  free(u->counters);
  free(u->idx);
  u->counters = c;
  u->idx = 0;
  u->nset = 0;
  return 0;
}

/* pp_unit_dense of every unit of p and of its tests. */
int pp_profile_dense(struct pp_profile *p)
{
  size_t i, t;
  for (i = 0; i < p->nunits; i++)
    if (pp_unit_dense(&p->units[i]) != 0)
      return -1;
  for (t = 0; t < p->ntests; t++)
    for (i = 0; i < p->tests[t].nunits; i++)
      if (pp_unit_dense(&p->tests[t].units[i]) != 0)
        return -1;
  return 0;
}

/* Where index x is in the n ascending indices at v, or where it would go (binary search). */
static unsigned long long seek_idx(const unsigned long long *v, unsigned long long n, unsigned long long x)
{
  unsigned long long lo = 0, hi = n, mid;
  while (lo < hi) {
    mid = lo + (hi - lo) / 2;
    if (v[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Adds sparse src into sparse dst by a merge into new arrays of n entries (the union's size). */
static int join_sparse(struct pp_unitrec *dst, const struct pp_unitrec *src, unsigned long long n)
{
  unsigned long long *idx = ppf_alloc_array(n, sizeof *idx), *val = ppf_alloc_array(n, sizeof *val);
  unsigned long long i = 0, j = 0, k = 0;
  if (!idx || !val) {
    free(idx);
    free(val);
    return -1;
  }
  while (i < dst->nset || j < src->nset) {
    if (j == src->nset || (i < dst->nset && dst->idx[i] < src->idx[j])) {
      idx[k] = dst->idx[i];
      val[k++] = dst->counters[i++];
    } else if (i == dst->nset || src->idx[j] < dst->idx[i]) {
      idx[k] = src->idx[j];
      val[k++] = src->counters[j++];
    } else {
      idx[k] = dst->idx[i];
      val[k++] = sat_add(dst->counters[i++], src->counters[j++]);
    }
  }
  assert(k == n);
  free(dst->idx);
  free(dst->counters);
  dst->idx = idx;
  dst->counters = val;
  dst->nset = n;
  return 0;
}

/* Adds src's array counters into dst's (same ncounters), either form on either side: dense
   when either is, else sparse while that is the shorter. A run that touched only counters dst
   has already (a program run again) adds in place in O(m log n). 0, or -1 when out of memory
   with dst unchanged. */
int ppf_add_counters(struct pp_unitrec *dst, const struct pp_unitrec *src)
{
  unsigned long long k, at, fresh = 0;

  assert(dst->ncounters == src->ncounters);
  if (!src->idx) {
    if (pp_unit_dense(dst) != 0)
      return -1;
    for (k = 0; k < dst->ncounters; k++)
      dst->counters[k] = sat_add(dst->counters[k], src->counters[k]);
    return 0;
  }
  if (!dst->idx) {
    for (k = 0; k < src->nset; k++)
      dst->counters[src->idx[k]] = sat_add(dst->counters[src->idx[k]], src->counters[k]);
    return 0;
  }
  for (k = 0; k < src->nset; k++) {
    at = seek_idx(dst->idx, dst->nset, src->idx[k]);
    fresh += at == dst->nset || dst->idx[at] != src->idx[k];
  }
  if (fresh && !ppf_shorter_sparse(dst->ncounters, dst->nset + fresh))
    return pp_unit_dense(dst) != 0 ? -1 : ppf_add_counters(dst, src);
  if (fresh)
    return join_sparse(dst, src, dst->nset + fresh);
  for (k = 0; k < src->nset; k++) {
    at = seek_idx(dst->idx, dst->nset, src->idx[k]);
    dst->counters[at] = sat_add(dst->counters[at], src->counters[k]);
  }
  return 0;
}

/* Adds canonical src into canonical dst of the same checksum. On error dst is unchanged, but
   for an out-of-memory after the counters were added (callers drop dst then). */
static int merge_unit(struct pp_unitrec *dst, const struct pp_unitrec *src, char *err,
                      size_t errlen)
{
  if (dst->ncounters != src->ncounters)
    return ppf_merge_rest(dst, src, err, errlen); /* the message on the sizes */
  if (ppf_add_counters(dst, src) != 0)
    return ppf_fail(err, errlen, "out of memory");
  return ppf_merge_rest(dst, src, err, errlen);
}

/* Adds canonical rec (owned: always consumed) into canonical p; p unchanged on error. */
static int absorb(struct pp_profile *p, struct pp_unitrec *rec, char *err, size_t errlen)
{
  int found, rc = 0;
  size_t at = ppf_find_unit(p, rec->checksum, &found);
  struct pp_unitrec *grown;

  if (found) {
    rc = merge_unit(&p->units[at], rec, err, errlen);
    ppf_free_unit(rec);
    return rc;
  }
  grown = ppf_alloc_array((unsigned long long)p->nunits + 1, sizeof *grown);
  if (!grown) {
    ppf_free_unit(rec);
    return ppf_fail(err, errlen, "out of memory");
  }
  if (p->nunits)
    memcpy(grown, p->units, p->nunits * sizeof *grown);
  memmove(grown + at + 1, grown + at, (p->nunits - at) * sizeof *grown);
  grown[at] = *rec;
  free(p->units);
  p->units = grown;
  p->nunits++;
  return 0;
}

/* Adds a copy of u's counts into p, as a merge would; p unchanged on error. */
int pp_profile_add_unit(struct pp_profile *p, const struct pp_unitrec *u, char *err, size_t errlen)
{
  struct pp_unitrec copy;
  if (ppf_copy_unit(&copy, u) != 0)
    return ppf_fail(err, errlen, "out of memory");
  return absorb(p, &copy, err, errlen);
}

/* Orders unit records by checksum for qsort. */
static int cmp_unit(const void *a, const void *b)
{
  const struct pp_unitrec *x = a, *y = b;
  if (x->checksum != y->checksum)
    return x->checksum < y->checksum ? -1 : 1;
  return 0;
}

/* Frees n owned records and their array. */
void ppf_free_units(struct pp_unitrec *recs, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    ppf_free_unit(&recs[i]);
  free(recs);
}

/* Turns n owned records with canonical hashes into canonical *out: sorts them by checksum and
   adds up records with equal checksums (O(n log n)). Consumes recs, also on error. */
int ppf_fold(struct pp_unitrec *recs, size_t n, struct pp_profile *out, char *err,
                size_t errlen)
{
  size_t i, m = 0;
  out->nunits = 0;
  out->units = 0;
  if (n > 1)
    qsort(recs, n, sizeof *recs, cmp_unit);
  for (i = 0; i < n; i++) {
    if (m > 0 && recs[m - 1].checksum == recs[i].checksum) {
      if (merge_unit(&recs[m - 1], &recs[i], err, errlen) != 0) {
        /* recs[m..i) may still alias records moved below m: free the rest, then the kept */
        for (; i < n; i++)
          ppf_free_unit(&recs[i]);
        ppf_free_units(recs, m);
        return -1;
      }
      ppf_free_unit(&recs[i]);
    } else {
      recs[m++] = recs[i];
    }
  }
  out->nunits = m;
  out->units = recs;
  return 0;
}


/* ---- k-slab forests (KSLB records) ---- */

/* Room for one more element of size sz in the array *v of *cap (n in use), doubling it;
   0 or -1 (no memory, *v unchanged). */
int ppf_reserve(void **v, size_t *cap, size_t n, size_t sz)
{
  size_t c = *cap ? *cap * 2 : 16;
  void *grown;
  if (n < *cap)
    return 0;
  grown = c > (size_t)-1 / sz ? 0 : realloc(*v, c * sz);
  if (!grown)
    return -1;
  *v = grown;
  *cap = c;
  return 0;
}

/* Appends an owned forest (consumed, also on error); 0 or -1 (no memory). */
int ppf_push_forest(struct forests *l, struct pp_forest *f)
{
  void *v = l->v;
  int rc = ppf_reserve(&v, &l->cap, l->n, sizeof *l->v);
  l->v = v;
  if (rc != 0) {
    free(f->nodes);
    return -1;
  }
  l->v[l->n++] = *f;
  return 0;
}

/* Frees n owned forests and their array. */
void ppf_free_forests(struct pp_forest *v, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    free(v[i].nodes);
  free(v);
}

/* A node's place among its siblings while sorting: parent index + 1 (0 for roots), label. */
struct sibkey {
  size_t parent, idx;
  unsigned long long label;
};

/* Orders sibling keys by parent, then label. */
static int cmp_sibkey(const void *a, const void *b)
{
  const struct sibkey *x = a, *y = b;
  if (x->parent != y->parent)
    return x->parent < y->parent ? -1 : 1;
  if (x->label != y->label)
    return x->label < y->label ? -1 : 1;
  return 0;
}

/* Parent (index + 1, 0 for a root) of every node of a valid preorder; 0 or -1 (no memory). */
static size_t *parents(const struct pp_knode *v, size_t n)
{
  size_t *par = ppf_alloc_array(n, sizeof *par), *last = ppf_alloc_array(2 * KMAX, sizeof *last), i;
  if (!par || !last) {
    free(par);
    free(last);
    return 0;
  }
  for (i = 0; i < n; i++) {
    par[i] = v[i].depth ? last[v[i].depth - 1] + 1 : 0;
    last[v[i].depth] = i;
  }
  free(last);
  return par;
}

/* Emits the subtrees of the sorted keys in preorder: the children of node p (index + 1, 0 for
   the roots) are keys[first[p]] up to keys[first[p + 1]]. */
static void emit_sorted(const struct pp_knode *v, const struct sibkey *keys, const size_t *first,
                        size_t p, unsigned long long depth, struct pp_knode *out, size_t *n)
{
  size_t k;
  for (k = first[p]; k < first[p + 1]; k++) {
    out[*n] = v[keys[k].idx];
    out[(*n)++].depth = depth;
    emit_sorted(v, keys, first, keys[k].idx + 1, depth + 1, out, n);
  }
}

/* Sorts the siblings of f's valid preorder by label. Returns 0, 1 when two siblings share a
   label (*dup gets the node's index), or -1 when out of memory. */
int ppf_canon_forest(struct pp_forest *f, size_t *dup)
{
  size_t n = (size_t)f->nnodes, i, *par = parents(f->nodes, n), *first;
  struct sibkey *keys = ppf_alloc_array(n, sizeof *keys);
  struct pp_knode *out = ppf_alloc_array(n, sizeof *out);
  int rc = 0;

  first = ppf_alloc_array((unsigned long long)n + 2, sizeof *first);
  if (!par || !keys || !out || !first) {
    free(par); free(keys); free(out); free(first);
    return -1;
  }
  for (i = 0; i < n; i++) {
    keys[i].parent = par[i];
    keys[i].idx = i;
    keys[i].label = f->nodes[i].label;
  }
  qsort(keys, n, sizeof *keys, cmp_sibkey);
  for (i = 0; i < n + 2; i++)
    first[i] = 0;
  for (i = 0; i < n; i++) { /* counts per parent, then their running sums */
    first[keys[i].parent + 1]++;
    if (i + 1 < n && cmp_sibkey(&keys[i], &keys[i + 1]) == 0) {
      *dup = keys[i + 1].idx;
      rc = 1;
    }
  }
  for (i = 1; i < n + 2; i++)
    first[i] += first[i - 1];
  if (rc == 0) {
    i = 0;
    emit_sorted(f->nodes, keys, first, 0, 0, out, &i);
    free(f->nodes);
    f->nodes = out;
    out = 0;
  }
  free(par); free(keys); free(out); free(first);
  return rc;
}

/* Copies the subtree at a[*i] (depth d) to out, moving *i past it. */
static void copy_subtree(const struct pp_knode *a, size_t *i, size_t na, struct pp_knode *out,
                         size_t *n)
{
  unsigned long long d = a[*i].depth;
  out[(*n)++] = a[(*i)++];
  while (*i < na && a[*i].depth > d)
    out[(*n)++] = a[(*i)++];
}

/* Merge-join of the sibling lists at depth d of two canonical preorders: equal labels become
   one node with the counters added and their children joined the same way. */
static void join_level(const struct pp_knode *a, size_t *i, size_t na, const struct pp_knode *b,
                       size_t *j, size_t nb, unsigned long long d, struct pp_knode *out, size_t *n)
{
  for (;;) {
    int ha = *i < na && a[*i].depth == d, hb = *j < nb && b[*j].depth == d;
    if (!ha && !hb)
      return;
    if (ha && (!hb || a[*i].label < b[*j].label)) {
      copy_subtree(a, i, na, out, n);
    } else if (!ha || b[*j].label < a[*i].label) {
      copy_subtree(b, j, nb, out, n);
    } else {
      out[*n] = a[(*i)++];
      out[(*n)++].count = sat_add(a[*i - 1].count, b[(*j)++].count);
      join_level(a, i, na, b, j, nb, d + 1, out, n);
    }
  }
}

/* Adds canonical forest src into canonical dst of the same function; dst unchanged on error. */
static int merge_forest(struct pp_forest *dst, const struct pp_forest *src, char *err, size_t errlen)
{
  struct pp_knode *out;
  size_t i = 0, j = 0, n = 0;

  if (dst->k != src->k)
    return ppf_fail(err, errlen, "unit %016llx function %llu: k-slab forests for k = %lu and k = %lu",
                dst->checksum, dst->fn, dst->k, src->k);
  out = ppf_alloc_array(dst->nnodes + src->nnodes, sizeof *out);
  if (!out)
    return ppf_fail(err, errlen, "out of memory");
  join_level(dst->nodes, &i, (size_t)dst->nnodes, src->nodes, &j, (size_t)src->nnodes, 0, out, &n);
  free(dst->nodes);
  dst->nodes = out;
  dst->nnodes = n;
  dst->dropped = sat_add(dst->dropped, src->dropped);
  return 0;
}

/* Orders forests by (checksum, fn). */
static int cmp_forest(const void *a, const void *b)
{
  const struct pp_forest *x = a, *y = b;
  if (x->checksum != y->checksum)
    return x->checksum < y->checksum ? -1 : 1;
  if (x->fn != y->fn)
    return x->fn < y->fn ? -1 : 1;
  return 0;
}

/* Sorts n owned canonical forests and joins those of one function; consumes v, also on error. */
int ppf_fold_forests(struct pp_forest *v, size_t n, struct pp_profile *out, char *err,
                        size_t errlen)
{
  size_t i, m = 0;
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_forest);
  for (i = 0; i < n; i++) {
    if (m > 0 && cmp_forest(&v[m - 1], &v[i]) == 0) {
      if (merge_forest(&v[m - 1], &v[i], err, errlen) != 0) {
        /* v[m..i) may still alias forests moved below m: free the rest, then the kept */
        for (; i < n; i++)
          free(v[i].nodes);
        ppf_free_forests(v, m);
        return -1;
      }
      free(v[i].nodes);
    } else {
      v[m++] = v[i];
    }
  }
  out->nforests = m;
  out->forests = v;
  return 0;
}

/* Deep copy of a canonical forest; 0 or -1 (no memory, dst left without nodes). */
static int copy_forest(struct pp_forest *dst, const struct pp_forest *src)
{
  *dst = *src;
  dst->nodes = ppf_alloc_array(src->nnodes, sizeof *dst->nodes);
  if (!dst->nodes)
    return -1;
  if (src->nnodes)
    memcpy(dst->nodes, src->nodes, (size_t)src->nnodes * sizeof *dst->nodes);
  return 0;
}

/* The forest of (checksum, fn) in canonical p, by binary search. */
const struct pp_forest *pp_profile_forest(const struct pp_profile *p, unsigned long long checksum,
                                          unsigned long long fn)
{
  struct pp_forest key;
  key.checksum = checksum;
  key.fn = fn;
  if (!p->nforests)
    return 0;
  return bsearch(&key, p->forests, p->nforests, sizeof key, cmp_forest);
}

/* The forests of a and b (b may be 0), copied and joined into out's forest list. */
static int copy_forests(const struct pp_profile *a, const struct pp_profile *b, struct pp_profile *out,
                        char *err, size_t errlen)
{
  size_t fa = a->nforests, fb = b ? b->nforests : 0, i;
  struct pp_forest *fs = ppf_alloc_array((unsigned long long)fa + fb, sizeof *fs);
  struct pp_profile forests;

  memset(&forests, 0, sizeof forests);
  if (!fs)
    return ppf_fail(err, errlen, "out of memory");
  for (i = 0; i < fa + fb; i++)
    if (copy_forest(&fs[i], i < fa ? &a->forests[i] : &b->forests[i - fa]) != 0) {
      ppf_free_forests(fs, i);
      return ppf_fail(err, errlen, "out of memory");
    }
  if (ppf_fold_forests(fs, fa + fb, &forests, err, errlen) != 0)
    return -1;
  out->nforests = forests.nforests;
  out->forests = forests.forests;
  return 0;
}

/* Copies the (index, count) pairs of u into r's sparse arrays (room for u->nset made). */
static void fill(struct pp_unitrec *r, const struct pp_sparse *u)
{
  if (u->nset) {
    memcpy(r->idx, u->idx, (size_t)u->nset * sizeof *r->idx);
    memcpy(r->counters, u->val, (size_t)u->nset * sizeof *r->counters);
  }
}

/* The canonical profile of n sparse units: copies, sparse while that is the shorter (so a big
   unit costs what the run touched), folded (equal checksums added up). */
int pp_profile_from_sparse(const struct pp_sparse *u, size_t n, struct pp_profile *out, char *err,
                           size_t errlen)
{
  struct pp_unitrec *recs = ppf_alloc_array(n, sizeof *recs);
  unsigned long long dropped = 0;
  size_t i;

  memset(out, 0, sizeof *out);
  if (!recs)
    return ppf_fail(err, errlen, "out of memory");
  if (n)
    memset(recs, 0, n * sizeof *recs);
  for (i = 0; i < n; i++) {
    recs[i].checksum = u[i].checksum;
    recs[i].ncounters = u[i].ncounters;
    recs[i].nhash = u[i].nhash;
    recs[i].dropped = u[i].dropped;
    recs[i].nset = u[i].nset;
    recs[i].name = malloc(strlen(u[i].name) + 1);
    recs[i].counters = ppf_alloc_array(u[i].nset, sizeof *recs[i].counters);
    recs[i].idx = ppf_alloc_array(u[i].nset, sizeof *recs[i].idx);
    recs[i].hash = ppf_alloc_array(u[i].nhash, sizeof *recs[i].hash);
    if (recs[i].name && recs[i].counters && recs[i].idx && recs[i].hash) {
      strcpy(recs[i].name, u[i].name);
      fill(&recs[i], &u[i]);
    }
    if (!recs[i].name || !recs[i].counters || !recs[i].idx || !recs[i].hash ||
        (!ppf_shorter_sparse(u[i].ncounters, u[i].nset) && pp_unit_dense(&recs[i]) != 0)) {
      ppf_free_units(recs, i + 1);
      return ppf_fail(err, errlen, "out of memory");
    }
    if (u[i].nhash)
      memcpy(recs[i].hash, u[i].hash, (size_t)u[i].nhash * sizeof *recs[i].hash);
    ppf_canon_hash(&recs[i]);
    if (u[i].npart) {
      if (!(recs[i].part = ppf_alloc_array(u[i].npart, sizeof *recs[i].part))) {
        ppf_free_units(recs, i + 1);
        return ppf_fail(err, errlen, "out of memory");
      }
      memcpy(recs[i].part, u[i].part, (size_t)u[i].npart * sizeof *recs[i].part);
      recs[i].npart = u[i].npart;
      ppf_canon_part(&recs[i]);
    }
    dropped = sat_add(dropped, u[i].part_dropped);
  }
  if (ppf_fold(recs, n, out, err, errlen) != 0)
    return -1;
  out->part_dropped = dropped;
  return 0;
}

/* Whether p is canonical already, as far as a quick look can tell (units and hash entries in
   order, each once, counts nonzero; no forests or OSPH record, whose order takes more). */
int ppf_canonical(const struct pp_profile *p)
{
  size_t i;
  unsigned long long k;
  const struct pp_unitrec *u;
  if (p->osp || p->nforests || p->ntests)
    return 0;
  for (i = 0; i < p->nunits; i++) {
    u = &p->units[i];
    if (i && p->units[i - 1].checksum >= u->checksum)
      return 0;
    for (k = 0; k < u->nhash; k++)
      if (!u->hash[k].count || (k && cmp_hent(&u->hash[k - 1], &u->hash[k]) >= 0))
        return 0;
    for (k = 0; k < u->npart; k++)
      if (!u->part[k].count || (k && cmp_part(&u->part[k - 1], &u->part[k]) >= 0))
        return 0;
  }
  return 1;
}

/* Canonical *out holding the counts of a plus those of b (b may be 0); a and b are untouched. */
int ppf_copy_all(const struct pp_profile *a, const struct pp_profile *b, struct pp_profile *out,
                    char *err, size_t errlen)
{
  size_t na = a->nunits, nb = b ? b->nunits : 0, i;
  struct pp_unitrec *recs;
  struct pp_osph *osp;
  int bad = 0;

  out->nunits = 0;
  out->units = 0;
  out->osp = 0;
  out->nforests = 0;
  out->forests = 0;
  out->ntests = 0;
  out->tests = 0;
  if (a->osp && b && b->osp)
    return ppf_fail(err, errlen, "two OSP snapshots (OSPH records) cannot be merged: each is a random sample "
                "at its own rate");
  osp = copy_osph(a->osp ? a->osp : b ? b->osp : 0, &bad);
  recs = ppf_alloc_array((unsigned long long)na + nb, sizeof *recs);
  if (!recs || bad) {
    free(recs);
    ppf_free_osph(osp);
    return ppf_fail(err, errlen, "out of memory");
  }
  for (i = 0; i < na + nb; i++)
    if (ppf_copy_unit(&recs[i], i < na ? &a->units[i] : &b->units[i - na]) != 0) {
      ppf_free_units(recs, i);
      ppf_free_osph(osp);
      return ppf_fail(err, errlen, "out of memory");
    }
  if (ppf_fold(recs, na + nb, out, err, errlen) != 0) {
    ppf_free_osph(osp);
    return -1;
  }
  out->osp = osp;
  out->part_dropped = sat_add(a->part_dropped, b ? b->part_dropped : 0);
  if (copy_forests(a, b, out, err, errlen) != 0 || ppf_copy_tests(a, b, out, err, errlen) != 0) {
    pp_profile_free(out);
    return -1;
  }
  return 0;
}

/* Adds from into into; the result is built aside and swapped in, so into is unchanged on error. */
int pp_profile_merge(struct pp_profile *into, const struct pp_profile *from, char *err,
                     size_t errlen)
{
  struct pp_profile sum;
  if (ppf_copy_all(into, from, &sum, err, errlen) != 0)
    return -1;
  pp_profile_free(into);
  *into = sum;
  return 0;
}
