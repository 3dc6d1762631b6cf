/* profile.c: the hosted profile model: strict parser, saturating merge, canonical writer, safe save. */
#include "profile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNIT_TAG 0x54494E55UL /* "UNIT" */
#define KSLB_TAG 0x424C534BUL /* "KSLB" */
#define KSLB_FIXED 40
#define KMAX 64
#define END_TAG 0x00444E45UL  /* "END\0" */
#define OSPH_TAG 0x4850534FUL /* "OSPH" */
#define OSPH_FIXED 80         /* tag to resamples */
#define FNV_BASIS 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#define HEADER_LEN 16
#define UNIT_FIXED 40
#define TRAILER_LEN 16
#define CHUNK 256
#define MAX_COUNT 0xffffffffffffffffULL
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

#if defined(__GNUC__)
static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#endif

/* Formats an error message into err (if there is room for one). */
static int fail(char *err, size_t errlen, const char *fmt, ...)
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

/* FNV-1a 64 of n bytes, continuing from h. */
static unsigned long long fnv(unsigned long long h, const unsigned char *p, size_t n)
{
  while (n--)
    h = (h ^ *p++) * FNV_PRIME;
  return h;
}

/* Little-endian u32 at p. */
static unsigned long get_u32(const unsigned char *p)
{
  return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
         (unsigned long)p[3] << 24;
}

/* Little-endian u64 at p. */
static unsigned long long get_u64(const unsigned char *p)
{
  unsigned long long v = 0;
  int i;
  for (i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* malloc for n elements of size sz, failing cleanly on overflow; never returns 0 for n == 0. */
static void *alloc_array(unsigned long long n, size_t sz)
{
  if (n > (unsigned long long)((size_t)-1 / sz))
    return 0;
  return malloc(n ? (size_t)n * sz : 1);
}

/* Frees what one unit record owns. */
static void free_unit(struct pp_unitrec *u)
{
  free(u->name);
  free(u->counters);
  free(u->hash);
  memset(u, 0, sizeof *u);
}

/* Frees an OSPH record. */
static void free_osph(struct pp_osph *o)
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
    c->entries = alloc_array(o->nentries, sizeof *c->entries);
    c->blocks = alloc_array(o->nblocks, sizeof *c->blocks);
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
    free_unit(&p->units[i]);
  free(p->units);
  free_osph(p->osp);
  p->units = 0;
  p->nunits = 0;
  p->osp = 0;
  for (i = 0; i < p->nforests; i++)
    free(p->forests[i].nodes);
  free(p->forests);
  p->forests = 0;
  p->nforests = 0;
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
static void canon_hash(struct pp_unitrec *u)
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

/* Deep copy of src into dst, with a canonical hash; 0 or -1 (no memory, dst left empty). */
static int copy_unit(struct pp_unitrec *dst, const struct pp_unitrec *src)
{
  const char *name = src->name ? src->name : "";
  memset(dst, 0, sizeof *dst);
  dst->checksum = src->checksum;
  dst->ncounters = src->ncounters;
  dst->nhash = src->hash ? src->nhash : 0;
  dst->dropped = src->dropped;
  dst->name = malloc(strlen(name) + 1);
  dst->counters = alloc_array(src->ncounters, sizeof *dst->counters);
  dst->hash = alloc_array(dst->nhash, sizeof *dst->hash);
  if (!dst->name || !dst->counters || !dst->hash) {
    free_unit(dst);
    return -1;
  }
  strcpy(dst->name, name);
  if (src->ncounters && src->counters)
    memcpy(dst->counters, src->counters, (size_t)src->ncounters * sizeof *dst->counters);
  else if (src->ncounters)
    memset(dst->counters, 0, (size_t)src->ncounters * sizeof *dst->counters);
  if (dst->nhash)
    memcpy(dst->hash, src->hash, (size_t)dst->nhash * sizeof *dst->hash);
  canon_hash(dst);
  return 0;
}

/* Index of the unit with this checksum in canonical p, or where it would be inserted. */
static size_t find_unit(const struct pp_profile *p, unsigned long long checksum, int *found)
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
  struct pp_hent *h = alloc_array(a->nhash + b->nhash, sizeof *h);
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

/* Adds canonical src into canonical dst of the same checksum; on error dst is unchanged.
   Of two names the smaller is kept, so merging stays commutative. */
static int merge_unit(struct pp_unitrec *dst, const struct pp_unitrec *src, char *err,
                      size_t errlen)
{
  struct pp_hent *h;
  unsigned long long n, i;
  char *name = 0;

  if (dst->ncounters != src->ncounters)
    return fail(err, errlen, "unit %016llx (%s): %llu counters in one profile, %llu in the other",
                dst->checksum, dst->name, dst->ncounters, src->ncounters);
  if (strcmp(src->name, dst->name) < 0 && !(name = malloc(strlen(src->name) + 1)))
    return fail(err, errlen, "out of memory");
  if (join_hash(dst, src, &h, &n) != 0) {
    free(name);
    return fail(err, errlen, "out of memory");
  }
  for (i = 0; i < dst->ncounters; i++)
    dst->counters[i] = sat_add(dst->counters[i], src->counters[i]);
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

/* Adds canonical rec (owned: always consumed) into canonical p; p unchanged on error. */
static int absorb(struct pp_profile *p, struct pp_unitrec *rec, char *err, size_t errlen)
{
  int found, rc = 0;
  size_t at = find_unit(p, rec->checksum, &found);
  struct pp_unitrec *grown;

  if (found) {
    rc = merge_unit(&p->units[at], rec, err, errlen);
    free_unit(rec);
    return rc;
  }
  grown = alloc_array((unsigned long long)p->nunits + 1, sizeof *grown);
  if (!grown) {
    free_unit(rec);
    return fail(err, errlen, "out of memory");
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
  if (copy_unit(&copy, u) != 0)
    return fail(err, errlen, "out of memory");
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
static void free_units(struct pp_unitrec *recs, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    free_unit(&recs[i]);
  free(recs);
}

/* Turns n owned records with canonical hashes into canonical *out: sorts them by checksum and
   adds up records with equal checksums (O(n log n)). Consumes recs, also on error. */
static int fold(struct pp_unitrec *recs, size_t n, struct pp_profile *out, char *err,
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
        free_units(recs, n);
        return -1;
      }
      free_unit(&recs[i]);
    } else {
      recs[m++] = recs[i];
    }
  }
  out->nunits = m;
  out->units = recs;
  return 0;
}


/* ---- k-slab forests (KSLB records) ---- */

/* A growing list of forests. */
struct forests {
  struct pp_forest *v;
  size_t n, cap;
};

/* Room for one more element of size sz in the array *v of *cap (n in use), doubling it;
   0 or -1 (no memory, *v unchanged). */
static int reserve(void **v, size_t *cap, size_t n, size_t sz)
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
static int push_forest(struct forests *l, struct pp_forest *f)
{
  void *v = l->v;
  int rc = reserve(&v, &l->cap, l->n, sizeof *l->v);
  l->v = v;
  if (rc != 0) {
    free(f->nodes);
    return -1;
  }
  l->v[l->n++] = *f;
  return 0;
}

/* Frees n owned forests and their array. */
static void free_forests(struct pp_forest *v, size_t n)
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
  size_t *par = alloc_array(n, sizeof *par), *last = alloc_array(2 * KMAX, sizeof *last), i;
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
static int canon_forest(struct pp_forest *f, size_t *dup)
{
  size_t n = (size_t)f->nnodes, i, *par = parents(f->nodes, n), *first;
  struct sibkey *keys = alloc_array(n, sizeof *keys);
  struct pp_knode *out = alloc_array(n, sizeof *out);
  int rc = 0;

  first = alloc_array((unsigned long long)n + 2, sizeof *first);
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
    return fail(err, errlen, "unit %016llx function %llu: k-slab forests for k = %lu and k = %lu",
                dst->checksum, dst->fn, dst->k, src->k);
  out = alloc_array(dst->nnodes + src->nnodes, sizeof *out);
  if (!out)
    return fail(err, errlen, "out of memory");
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
static int fold_forests(struct pp_forest *v, size_t n, struct pp_profile *out, char *err,
                        size_t errlen)
{
  size_t i, m = 0;
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_forest);
  for (i = 0; i < n; i++) {
    if (m > 0 && cmp_forest(&v[m - 1], &v[i]) == 0) {
      if (merge_forest(&v[m - 1], &v[i], err, errlen) != 0) {
        free_forests(v, n);
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
  dst->nodes = alloc_array(src->nnodes, sizeof *dst->nodes);
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
  struct pp_forest *fs = alloc_array((unsigned long long)fa + fb, sizeof *fs);
  struct pp_profile forests;

  memset(&forests, 0, sizeof forests);
  if (!fs)
    return fail(err, errlen, "out of memory");
  for (i = 0; i < fa + fb; i++)
    if (copy_forest(&fs[i], i < fa ? &a->forests[i] : &b->forests[i - fa]) != 0) {
      free_forests(fs, i);
      return fail(err, errlen, "out of memory");
    }
  if (fold_forests(fs, fa + fb, &forests, err, errlen) != 0)
    return -1;
  out->nforests = forests.nforests;
  out->forests = forests.forests;
  return 0;
}

/* Canonical *out holding the counts of a plus those of b (b may be 0); a and b are untouched. */
static int copy_all(const struct pp_profile *a, const struct pp_profile *b, struct pp_profile *out,
                    char *err, size_t errlen)
{
  size_t na = a->nunits, nb = b ? b->nunits : 0, i;
  struct pp_unitrec *recs;
  struct pp_osph *osp;
  int bad = 0;

  out->nunits = 0;
  out->units = 0;
  out->osp = 0;
  if (a->osp && b && b->osp)
    return fail(err, errlen, "two OSP snapshots (OSPH records) cannot be merged: each is a random sample "
                "at its own rate");
  osp = copy_osph(a->osp ? a->osp : b ? b->osp : 0, &bad);
  recs = alloc_array((unsigned long long)na + nb, sizeof *recs);
  if (!recs || bad) {
    free(recs);
    free_osph(osp);
    return fail(err, errlen, "out of memory");
  }
  for (i = 0; i < na + nb; i++)
    if (copy_unit(&recs[i], i < na ? &a->units[i] : &b->units[i - na]) != 0) {
      free_units(recs, i);
      free_osph(osp);
      return fail(err, errlen, "out of memory");
    }
  if (fold(recs, na + nb, out, err, errlen) != 0) {
    free_osph(osp);
    return -1;
  }
  out->osp = osp;
  if (copy_forests(a, b, out, err, errlen) != 0) {
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
  if (copy_all(into, from, &sum, err, errlen) != 0)
    return -1;
  pp_profile_free(into);
  *into = sum;
  return 0;
}

/* The parser's view of its input, for bounds checks and messages. */
struct in {
  const unsigned char *b;
  size_t len;
  const char *fname;
  char *err;
  size_t errlen;
};

/* Checks the fixed header: magic, version, flags. */
static int parse_header(const struct in *in)
{
  size_t n = in->len < 8 ? in->len : 8;
  if (in->len == 0)
    return fail(in->err, in->errlen, "%s: empty file, not a profile", in->fname);
  if (memcmp(in->b, "PATHPROF", n) != 0)
    return fail(in->err, in->errlen, "%s: bad magic at byte 0 (not a pathprof profile)",
                in->fname);
  if (in->len < HEADER_LEN)
    return fail(in->err, in->errlen, "%s: truncated header at byte 0 (file ends at byte %zu)",
                in->fname, in->len);
  if (get_u32(in->b + 8) != 1)
    return fail(in->err, in->errlen, "%s: unknown format version %lu at byte 8", in->fname,
                get_u32(in->b + 8));
  if (get_u32(in->b + 12) != 0)
    return fail(in->err, in->errlen, "%s: unknown flags 0x%lx at byte 12", in->fname,
                get_u32(in->b + 12));
  return 0;
}

/* Message for a unit record that runs past the end of the input. */
static int truncated(const struct in *in, size_t at)
{
  return fail(in->err, in->errlen, "%s: truncated unit record at byte %zu (file ends at byte %zu)",
              in->fname, at, in->len);
}

/* Reads and checks the padded name of the record at `at`; name bytes start at *pos. */
static int parse_name(const struct in *in, size_t at, size_t *pos, unsigned long len, char **name)
{
  size_t i, pad = (8 - len % 8) % 8;
  if (len > in->len - *pos || pad > in->len - *pos - len)
    return truncated(in, at);
  for (i = 0; i < len; i++)
    if (in->b[*pos + i] == 0)
      return fail(in->err, in->errlen, "%s: NUL byte in unit name at byte %zu", in->fname,
                  *pos + i);
  for (; i < len + pad; i++)
    if (in->b[*pos + i] != 0)
      return fail(in->err, in->errlen, "%s: nonzero name padding at byte %zu", in->fname,
                  *pos + i);
  if (!(*name = malloc(len + 1)))
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  memcpy(*name, in->b + *pos, len);
  (*name)[len] = 0;
  *pos += len + pad;
  return 0;
}

/* Decodes the counters and hash entries of the record at `at` into u; *pos moves past them. */
static int parse_counts(const struct in *in, size_t at, size_t *pos, struct pp_unitrec *u)
{
  unsigned long long i;
  const unsigned char *p;
  if (u->ncounters > (in->len - *pos) / 8 || u->nhash > (in->len - *pos - u->ncounters * 8) / 24)
    return truncated(in, at);
  u->counters = alloc_array(u->ncounters, sizeof *u->counters);
  u->hash = alloc_array(u->nhash, sizeof *u->hash);
  if (!u->counters || !u->hash)
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  for (p = in->b + *pos, i = 0; i < u->ncounters; i++, p += 8)
    u->counters[i] = get_u64(p);
  for (i = 0; i < u->nhash; i++, p += 24) {
    u->hash[i].fn = get_u64(p);
    u->hash[i].id = get_u64(p + 8);
    u->hash[i].count = get_u64(p + 16);
  }
  *pos = (size_t)(p - in->b);
  return 0;
}

/* Records parsed so far, in file order. */
struct recs {
  struct pp_unitrec *v;
  size_t n, cap;
};

/* Appends an owned record to the list (growing it by doubling); consumes u, also on error. */
static int push(struct recs *l, struct pp_unitrec *u)
{
  void *v = l->v;
  int rc = reserve(&v, &l->cap, l->n, sizeof *l->v);
  l->v = v;
  if (rc != 0) {
    free_unit(u);
    return -1;
  }
  l->v[l->n++] = *u;
  return 0;
}

/* Parses the unit record at *pos (its tag already seen) and appends it to l. */
static int parse_unit(const struct in *in, size_t *pos, struct recs *l)
{
  size_t at = *pos, q = at + UNIT_FIXED;
  struct pp_unitrec u;

  memset(&u, 0, sizeof u);
  if (in->len - at < UNIT_FIXED)
    return truncated(in, at);
  u.checksum = get_u64(in->b + at + 8);
  u.ncounters = get_u64(in->b + at + 16);
  u.nhash = get_u64(in->b + at + 24);
  u.dropped = get_u64(in->b + at + 32);
  if (parse_name(in, at, &q, get_u32(in->b + at + 4), &u.name) != 0 ||
      parse_counts(in, at, &q, &u) != 0) {
    free_unit(&u);
    return -1;
  }
  canon_hash(&u);
  if (push(l, &u) != 0)
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *pos = q;
  return 0;
}

/* Checks the OSPH fixed part at `at` into o: version, rate, lengths and their weights. */
static int parse_osph_head(const struct in *in, size_t at, struct pp_osph *o, size_t *pos)
{
  unsigned long n, sum = 0, pad;
  const unsigned char *p = in->b + at;
  if (in->len - at < OSPH_FIXED + 8)
    return fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  if (get_u32(p + 4) != 1)
    return fail(in->err, in->errlen, "%s: unknown OSPH version %lu at byte %zu", in->fname, get_u32(p + 4), at + 4);
  o->rate = get_u64(p + 8);
  o->seed = get_u64(p + 16);
  o->memory = get_u64(p + 24);
  o->used = get_u64(p + 32);
  o->peak = get_u64(p + 40);
  o->started = get_u64(p + 48);
  o->dropped = get_u64(p + 56);
  o->resamples = get_u64(p + 64);
  o->maxlog = get_u32(p + 72);
  o->lengths = get_u32(p + 76);
  if (o->rate == 0 || o->maxlog < 1 || o->maxlog > 16 || o->lengths > 2)
    return fail(in->err, in->errlen, "%s: OSPH record at byte %zu: bad rate, length limit or distribution",
                in->fname, at);
  pad = o->maxlog % 2;
  if ((in->len - at - OSPH_FIXED) / 4 < o->maxlog + pad + 4)
    return fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  for (n = 1; n <= o->maxlog; n++)
    sum += o->weight[n] = get_u32(p + OSPH_FIXED + 4 * (n - 1));
  if (sum != 65536 || (pad && get_u32(p + OSPH_FIXED + 4 * o->maxlog) != 0))
    return fail(in->err, in->errlen, "%s: OSPH record at byte %zu: length weights do not add up to 65536",
                in->fname, at);
  *pos = at + OSPH_FIXED + 4 * (o->maxlog + pad);
  o->nentries = get_u64(in->b + *pos);
  o->nblocks = get_u64(in->b + *pos + 8);
  *pos += 16;
  return 0;
}

/* Reads the entries and blocks of an OSPH record; unit fields hold record numbers for now. */
static int parse_osph_body(const struct in *in, size_t at, struct pp_osph *o, size_t *pos)
{
  unsigned long long i, j, total = 0;
  size_t q = *pos, pad = (size_t)(o->nblocks % 2) * 4;
  if (o->nentries > (in->len - q) / 24 || o->nblocks > (in->len - q - o->nentries * 24) / 12 ||
      pad > in->len - q - o->nentries * 24 - o->nblocks * 12)
    return fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  o->entries = alloc_array(o->nentries, sizeof *o->entries);
  o->blocks = alloc_array(o->nblocks, sizeof *o->blocks);
  if (!o->entries || !o->blocks)
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  for (i = 0; i < o->nentries; i++, q += 24) {
    unsigned long len = get_u32(in->b + q + 16), flags = get_u32(in->b + q + 20);
    o->entries[i].id = get_u64(in->b + q);
    o->entries[i].count = get_u64(in->b + q + 8);
    o->entries[i].len = len;
    if (len < 2 || len > (1UL << o->maxlog) || (len & (len - 1)) || flags > 1 || o->entries[i].count == 0 ||
        (flags && len > o->nblocks - total))
      return fail(in->err, in->errlen, "%s: OSPH entry %llu at byte %zu: bad length, flags or count", in->fname, i, q);
    o->entries[i].blocks = flags ? o->blocks + total : 0;
    total += flags ? len : 0;
  }
  if (total != o->nblocks)
    return fail(in->err, in->errlen, "%s: OSPH record at byte %zu: entries hold %llu blocks, not %llu",
                in->fname, at, total, o->nblocks);
  for (j = 0; j < o->nblocks; j++, q += 12) {
    o->blocks[j].unit = get_u32(in->b + q);
    o->blocks[j].fn = get_u32(in->b + q + 4);
    o->blocks[j].block = get_u32(in->b + q + 8);
  }
  if (pad && get_u32(in->b + q) != 0)
    return fail(in->err, in->errlen, "%s: nonzero OSPH padding at byte %zu", in->fname, q);
  *pos = q + pad;
  return 0;
}

/* Parses the OSPH record at *pos (at most one per file) into *out. */
static int parse_osph(const struct in *in, size_t *pos, struct pp_osph **out)
{
  size_t at = *pos, q = at;
  struct pp_osph *o;
  if (*out)
    return fail(in->err, in->errlen, "%s: second OSPH record at byte %zu", in->fname, at);
  o = calloc(1, sizeof *o);
  if (!o)
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *out = o;
  if (parse_osph_head(in, at, o, &q) != 0 || parse_osph_body(in, at, o, &q) != 0)
    return -1;
  *pos = q;
  return 0;
}

/* Replaces the OSPH blocks' record numbers by the checksums of those unit records. */
static int resolve_osph(const struct in *in, struct pp_osph *o, const struct recs *l)
{
  unsigned long long j;
  for (j = 0; o && j < o->nblocks; j++) {
    if (o->blocks[j].unit >= l->n)
      return fail(in->err, in->errlen, "%s: OSPH block %llu names unit record %llu of %zu", in->fname, j,
                  o->blocks[j].unit, l->n);
    o->blocks[j].unit = l->v[o->blocks[j].unit].checksum;
  }
  return 0;
}

/* Reads the nodes of the forest record at `at` into f and checks they form a preorder of at
   most 2k-2 levels (k >= 2) with no label twice among siblings; the siblings are then sorted. */
static int parse_nodes(const struct in *in, size_t at, struct pp_forest *f)
{
  const unsigned char *p = in->b + at + KSLB_FIXED;
  unsigned long long i, prev = 0;
  size_t dup = 0;
  int rc;

  if (!(f->nodes = alloc_array(f->nnodes, sizeof *f->nodes)))
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  for (i = 0; i < f->nnodes; i++, p += 24) {
    f->nodes[i].label = get_u64(p);
    f->nodes[i].count = get_u64(p + 8);
    f->nodes[i].depth = get_u64(p + 16);
    if (f->nodes[i].depth > (i ? prev + 1 : 0) || f->nodes[i].depth > 2 * (unsigned long long)f->k - 3)
      return fail(in->err, in->errlen, "%s: bad node depth %llu at byte %zu (k = %lu, previous depth %llu)",
                  in->fname, f->nodes[i].depth, (size_t)(p + 16 - in->b), f->k, prev);
    prev = f->nodes[i].depth;
  }
  rc = canon_forest(f, &dup);
  if (rc < 0)
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  if (rc > 0)
    return fail(in->err, in->errlen, "%s: label %llu twice among siblings at byte %zu", in->fname,
                f->nodes[dup].label, at + KSLB_FIXED + 24 * dup);
  return 0;
}

/* Parses the k-slab forest record at *pos (its tag already seen) and appends it to l. */
static int parse_kslb(const struct in *in, size_t *pos, struct forests *l)
{
  size_t at = *pos;
  struct pp_forest f;

  if (in->len - at < KSLB_FIXED)
    return fail(in->err, in->errlen, "%s: truncated forest record at byte %zu (file ends at byte %zu)",
                in->fname, at, in->len);
  f.k = get_u32(in->b + at + 4);
  f.checksum = get_u64(in->b + at + 8);
  f.fn = get_u64(in->b + at + 16);
  f.nnodes = get_u64(in->b + at + 24);
  f.dropped = get_u64(in->b + at + 32);
  f.nodes = 0;
  if (f.k == 0 ? f.checksum || f.fn || f.nnodes : f.k < 2 || f.k > KMAX)
    return fail(in->err, in->errlen, "%s: bad k %lu in forest record at byte %zu (2 to %d)", in->fname,
                f.k, at + 4, KMAX);
  if (f.nnodes > (in->len - at - KSLB_FIXED) / 24)
    return fail(in->err, in->errlen, "%s: truncated forest record at byte %zu (file ends at byte %zu)",
                in->fname, at, in->len);
  if (parse_nodes(in, at, &f) != 0) {
    free(f.nodes);
    return -1;
  }
  if (push_forest(l, &f) != 0)
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *pos = at + KSLB_FIXED + 24 * (size_t)f.nnodes;
  return 0;
}

/* Checks the trailer at pos: unit count, checksum of all bytes before it, nothing after it. */
static int parse_trailer(const struct in *in, size_t pos, unsigned long nunits)
{
  unsigned long long sum;
  if (in->len - pos < TRAILER_LEN)
    return fail(in->err, in->errlen, "%s: truncated trailer at byte %zu (file ends at byte %zu)",
                in->fname, pos, in->len);
  if (get_u32(in->b + pos + 4) != nunits)
    return fail(in->err, in->errlen, "%s: wrong unit count %lu at byte %zu (found %lu records)",
                in->fname, get_u32(in->b + pos + 4), pos + 4, nunits);
  sum = fnv(FNV_BASIS, in->b, pos + 8);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  sum = get_u64(in->b + pos + 8); /* fuzz builds reach the checks after it with any checksum */
#endif
  if (get_u64(in->b + pos + 8) != sum)
    return fail(in->err, in->errlen, "%s: checksum mismatch at byte %zu (the data is corrupt)",
                in->fname, pos + 8);
  if (in->len != pos + TRAILER_LEN)
    return fail(in->err, in->errlen, "%s: %zu stray bytes after the trailer at byte %zu",
                in->fname, in->len - pos - TRAILER_LEN, pos + TRAILER_LEN);
  return 0;
}

/* Walks the records after the header up to and including the trailer. */
static int parse_body(const struct in *in, struct recs *l, struct pp_osph **osp, struct forests *fl)
{
  size_t pos = HEADER_LEN;
  unsigned long nunits = 0, tag;
  for (;;) {
    if (in->len - pos < 4)
      return fail(in->err, in->errlen, "%s: missing trailer at byte %zu (file ends at byte %zu)",
                  in->fname, pos, in->len);
    tag = get_u32(in->b + pos);
    if (tag == END_TAG)
      return parse_trailer(in, pos, nunits);
    if (tag == KSLB_TAG) {
      if (parse_kslb(in, &pos, fl) != 0)
        return -1;
      continue;
    }
    if (tag == OSPH_TAG) {
      if (parse_osph(in, &pos, osp) != 0)
        return -1;
      continue;
    }
    if (tag != UNIT_TAG)
      return fail(in->err, in->errlen, "%s: unknown tag 0x%08lx at byte %zu", in->fname, tag, pos);
    if (parse_unit(in, &pos, l) != 0)
      return -1;
    nunits++;
  }
}

/* ---- Continuous profiles (doc/formats.md section 2, "Continuous mode") ---- */

/* Checks the continuous file header; returns its page size, or 0 after setting err. */
static size_t parse_cont_header(const struct in *in)
{
  unsigned long page;
  if (in->len < PP_CONT_HEADER) {
    truncated(in, 0);
    return 0;
  }
  page = get_u32(in->b + 12);
  if (get_u32(in->b + 8) != 1)
    fail(in->err, in->errlen, "%s: unknown continuous format version %lu at byte 8", in->fname,
         get_u32(in->b + 8));
  else if (page < 64 || page > (1UL << 24) || (page & (page - 1)) != 0)
    fail(in->err, in->errlen, "%s: bad page size %lu at byte 12", in->fname, page);
  else if (get_u32(in->b + 16) != PP_CONT_BOM || get_u32(in->b + 20) != 0)
    fail(in->err, in->errlen, "%s: byte order or flags at byte 16 not those of a little-endian "
         "host's continuous profile", in->fname);
  else
    return page;
  return 0;
}

/* Copies the used slots of a mapped hash table (key, id, count; key 0 empty, all ones busy). */
static int cont_hash(const unsigned char *h, unsigned long long cap, struct pp_unitrec *u)
{
  unsigned long long i, key;
  u->hash = alloc_array(cap ? cap : 1, sizeof *u->hash);
  if (!u->hash)
    return -1;
  for (i = 0; i < cap; i++, h += 24) {
    key = get_u64(h);
    if (key == 0 || key == ~0ULL || get_u64(h + 16) == 0)
      continue;
    u->hash[u->nhash].fn = key - 1;
    u->hash[u->nhash].id = get_u64(h + 8);
    u->hash[u->nhash++].count = get_u64(h + 16);
  }
  canon_hash(u);
  return 0;
}

/* Parses the region at pos (page size page) into u; *size gets its length. */
static int parse_region(const struct in *in, size_t pos, size_t page, struct pp_unitrec *u,
                        size_t *size)
{
  const unsigned char *r = in->b + pos;
  unsigned long long nc, cap, data, s, i, left = in->len - pos;
  unsigned long len;

  if (left < PP_CONT_REGION || get_u32(r) != PP_CONT_TAG)
    return fail(in->err, in->errlen, "%s: no region header at byte %zu", in->fname, pos);
  len = get_u32(r + 4);
  nc = get_u64(r + 16);
  cap = get_u64(r + 24);
  data = get_u64(r + 40);
  s = get_u64(r + 48);
  if (data % page || s % page || data < PP_CONT_REGION + len || s < data || s > left ||
      nc > (s - data) / 8 || cap > (s - data - 8 * nc) / 24)
    return fail(in->err, in->errlen, "%s: region at byte %zu does not fit its sizes", in->fname, pos);
  memset(u, 0, sizeof *u);
  u->checksum = get_u64(r + 8);
  u->ncounters = nc;
  u->dropped = get_u64(r + 32);
  u->name = malloc(len + 1);
  u->counters = alloc_array(nc ? nc : 1, sizeof *u->counters);
  if (!u->name || !u->counters || cont_hash(r + data + 8 * nc, cap, u) != 0)
    return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  memcpy(u->name, r + PP_CONT_REGION, len);
  u->name[len] = 0;
  if (strlen(u->name) != len)
    return fail(in->err, in->errlen, "%s: NUL in the name at byte %zu", in->fname, pos + PP_CONT_REGION);
  for (i = 0; i < nc; i++)
    u->counters[i] = get_u64(r + data + 8 * i);
  *size = (size_t)s;
  return 0;
}

/* Walks the regions of a continuous profile (pages of counters the program mapped). */
static int parse_continuous(const struct in *in, struct recs *l)
{
  size_t page = parse_cont_header(in), pos, size = 0;
  struct pp_unitrec u;

  if (!page)
    return -1;
  for (pos = page; pos < in->len; pos += size) {
    memset(&u, 0, sizeof u);
    if (parse_region(in, pos, page, &u, &size) != 0) {
      free_unit(&u);
      return -1;
    }
    if (push(l, &u) != 0)
      return fail(in->err, in->errlen, "%s: out of memory", in->fname);
  }
  return 0;
}

/* Parses and strictly validates a whole profile; *out is empty on error. */
int pp_profile_parse(const unsigned char *buf, size_t len, const char *fname,
                     struct pp_profile *out, char *err, size_t errlen)
{
  struct in in;
  struct recs l = {0, 0, 0};
  struct pp_osph *osp = 0;
  struct forests fl = {0, 0, 0};
  struct pp_profile forests;
  char msg[256];

  in.b = buf;
  in.len = buf ? len : 0;
  in.fname = fname ? fname : "<profile>";
  in.err = err;
  in.errlen = errlen;
  memset(out, 0, sizeof *out);
  memset(&forests, 0, sizeof forests);
  if (len >= 8 && buf && !memcmp(buf, PP_CONT_MAGIC, 8) ? parse_continuous(&in, &l) != 0
      : parse_header(&in) != 0 || parse_body(&in, &l, &osp, &fl) != 0 || resolve_osph(&in, osp, &l) != 0) {
    free_units(l.v, l.n);
    free_forests(fl.v, fl.n);
    free_osph(osp);
    return -1;
  }
  if (fold_forests(fl.v, fl.n, &forests, msg, sizeof msg) != 0) {
    free_units(l.v, l.n);
    free_osph(osp);
    return fail(err, errlen, "%s: %s", in.fname, msg);
  }
  if (fold(l.v, l.n, out, msg, sizeof msg) != 0) {
    pp_profile_free(&forests);
    free_osph(osp);
    return fail(err, errlen, "%s: %s", in.fname, msg);
  }
  out->osp = osp;
  out->nforests = forests.nforests;
  out->forests = forests.forests;
  return 0;
}

/* Reads all of fd into a malloc'd buffer; 0, or -1 with errno set. */
static int slurp(int fd, unsigned char **buf, size_t *len)
{
  size_t cap = 4096, n = 0;
  unsigned char *b = malloc(cap), *nb;
  ssize_t r;

  while (b) {
    if (n == cap) {
      nb = cap > (size_t)-1 / 2 ? 0 : realloc(b, cap * 2);
      if (!nb)
        break;
      b = nb;
      cap *= 2;
    }
    r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      free(b);
      return -1;
    }
    if (r == 0) {
      *buf = b;
      *len = n;
      return 0;
    }
    n += (size_t)r;
  }
  free(b);
  errno = ENOMEM;
  return -1;
}

/* Reads fd from its current offset to the end and parses what it holds. */
int pp_profile_read_fd(int fd, const char *fname, struct pp_profile *out, char *err,
                       size_t errlen)
{
  unsigned char *buf;
  size_t len;
  int rc;

  out->nunits = 0;
  out->units = 0;
  out->osp = 0;
  if (slurp(fd, &buf, &len) != 0)
    return fail(err, errlen, "%s: cannot read: %s", fname, strerror(errno));
  rc = pp_profile_parse(buf, len, fname, out, err, errlen);
  free(buf);
  return rc;
}

/* Whether name is "<base>.crash.<digits>": a crash dump of the profile base (doc/formats.md
   section 2, "Crash dumps"); temporaries ("....tmp") are not. */
static int is_crash_of(const char *name, const char *base)
{
  size_t n = strlen(base);
  const char *d;
  if (strncmp(name, base, n) != 0 || strncmp(name + n, ".crash.", 7) != 0 || !name[n + 7])
    return 0;
  for (d = name + n + 7; *d; d++)
    if (*d < '0' || *d > '9')
      return 0;
  return 1;
}

/* Adds the crash dumps beside path into p (see profile.h). */
int pp_profile_add_crashes(const char *path, struct pp_profile *p, char ***names, size_t *nnames,
                           int strict, char *err, size_t errlen)
{
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  char *dir = slash ? malloc((size_t)(slash - path) + 2) : 0, *full, **grown;
  struct pp_profile one;
  struct dirent *e;
  DIR *d;
  int rc = 0;

  if (slash && !dir)
    return fail(err, errlen, "%s: out of memory", path);
  if (dir) {
    memcpy(dir, path, (size_t)(slash - path));
    strcpy(dir + (slash - path), slash == path ? "/" : "");
  }
  d = opendir(dir ? dir : ".");
  while (d && rc == 0 && (e = readdir(d))) {
    if (!is_crash_of(e->d_name, base))
      continue;
    full = malloc(strlen(path) + strlen(e->d_name) + 2);
    if (!full) {
      rc = fail(err, errlen, "%s: out of memory", path);
      break;
    }
    sprintf(full, "%.*s%s", (int)(base - path), path, e->d_name);
    if (pp_profile_read_one(full, &one, err, errlen) != 0 || pp_profile_merge(p, &one, err, errlen) != 0) {
      pp_profile_free(&one);
      free(full);
      if (strict)
        rc = -1;
      continue;
    }
    pp_profile_free(&one);
    grown = names ? realloc(*names, (*nnames + 1) * sizeof *grown) : 0;
    if (grown) {
      *names = grown;
      grown[(*nnames)++] = full;
    } else {
      free(full);
    }
  }
  if (d)
    closedir(d);
  free(dir);
  return rc;
}

/* Reads and parses the profile in the file at path, without its crash dumps. */
int pp_profile_read_one(const char *path, struct pp_profile *out, char *err, size_t errlen)
{
  int fd, rc;

  out->nunits = 0;
  out->units = 0;
  out->osp = 0;
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
  rc = pp_profile_read_fd(fd, path, out, err, errlen);
  close(fd);
  return rc;
}

/* Reads the profile at path and adds its crash dumps; a missing file with crash dumps beside
   it reads as their sum. */
int pp_profile_read(const char *path, struct pp_profile *out, char *err, size_t errlen)
{
  char **names = 0;
  size_t n = 0, i;
  int missing = access(path, F_OK) != 0 && errno == ENOENT;
  int rc = pp_profile_read_one(path, out, err, errlen);

  if (rc != 0 && !missing)
    return rc;
  if (pp_profile_add_crashes(path, out, &names, &n, 1, err, errlen) != 0) {
    pp_profile_free(out);
    rc = -1;
  } else if (missing && n > 0) {
    rc = 0;
  } else if (missing) {
    fail(err, errlen, "%s: cannot open: %s", path, strerror(ENOENT));
  }
  for (i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return rc;
}

/* The writer's state: chunk buffer, running FNV-1a, sink. */
struct out {
  pathprof_write_fn fn;
  void *ctx;
  unsigned long long fnv;
  size_t n;
  int failed;
  unsigned char buf[CHUNK];
};

/* Hands the buffered bytes to the sink; after one failure the sink is not called again. */
static void flush(struct out *o)
{
  if (o->n && !o->failed && o->fn(o->ctx, o->buf, (unsigned long)o->n) != 0)
    o->failed = 1;
  o->n = 0;
}

/* Appends n bytes to the chunk buffer and the running checksum. */
static void put_bytes(struct out *o, const void *p, size_t n)
{
  const unsigned char *c = p;
  while (n--) {
    o->fnv = (o->fnv ^ *c) * FNV_PRIME;
    o->buf[o->n++] = *c++;
    if (o->n == CHUNK)
      flush(o);
  }
}

/* Appends a little-endian u32. */
static void put_u32(struct out *o, unsigned long v)
{
  unsigned char b[4];
  int i;
  for (i = 0; i < 4; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  put_bytes(o, b, 4);
}

/* Appends a little-endian u64. */
static void put_u64(struct out *o, unsigned long long v)
{
  unsigned char b[8];
  int i;
  for (i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  put_bytes(o, b, 8);
}

/* Appends one unit record of a canonical profile. */
static void put_unit(struct out *o, const struct pp_unitrec *u)
{
  static const unsigned char zeros[8];
  size_t len = strlen(u->name);
  unsigned long long i;

  put_u32(o, UNIT_TAG);
  put_u32(o, (unsigned long)len);
  put_u64(o, u->checksum);
  put_u64(o, u->ncounters);
  put_u64(o, u->nhash);
  put_u64(o, u->dropped);
  put_bytes(o, u->name, len);
  put_bytes(o, zeros, (8 - len % 8) % 8);
  for (i = 0; i < u->ncounters && !o->failed; i++)
    put_u64(o, u->counters[i]);
  for (i = 0; i < u->nhash && !o->failed; i++) {
    put_u64(o, u->hash[i].fn);
    put_u64(o, u->hash[i].id);
    put_u64(o, u->hash[i].count);
  }
}

/* Appends the OSPH record of canonical profile c: blocks name unit records by their position. */
static int put_osph(struct out *o, const struct pp_profile *c)
{
  const struct pp_osph *s = c->osp;
  unsigned long long i, j;
  unsigned long n;
  put_u32(o, OSPH_TAG);
  put_u32(o, 1);
  put_u64(o, s->rate);
  put_u64(o, s->seed);
  put_u64(o, s->memory);
  put_u64(o, s->used);
  put_u64(o, s->peak);
  put_u64(o, s->started);
  put_u64(o, s->dropped);
  put_u64(o, s->resamples);
  put_u32(o, s->maxlog);
  put_u32(o, s->lengths);
  for (n = 1; n <= s->maxlog; n++)
    put_u32(o, s->weight[n]);
  if (s->maxlog % 2)
    put_u32(o, 0);
  put_u64(o, s->nentries);
  put_u64(o, s->nblocks);
  for (i = 0; i < s->nentries; i++) {
    put_u64(o, s->entries[i].id);
    put_u64(o, s->entries[i].count);
    put_u32(o, s->entries[i].len);
    put_u32(o, s->entries[i].blocks != 0);
  }
  for (j = 0; j < s->nblocks; j++) {
    int found;
    size_t k = find_unit(c, s->blocks[j].unit, &found);
    if (!found)
      return -1;
    put_u32(o, (unsigned long)k);
    put_u32(o, s->blocks[j].fn);
    put_u32(o, s->blocks[j].block);
  }
  if (s->nblocks % 2)
    put_u32(o, 0);
  return 0;
}

/* Appends one KSLB record of a canonical profile. */
static void put_forest(struct out *o, const struct pp_forest *f)
{
  unsigned long long i;

  put_u32(o, KSLB_TAG);
  put_u32(o, f->k);
  put_u64(o, f->checksum);
  put_u64(o, f->fn);
  put_u64(o, f->nnodes);
  put_u64(o, f->dropped);
  for (i = 0; i < f->nnodes && !o->failed; i++) {
    put_u64(o, f->nodes[i].label);
    put_u64(o, f->nodes[i].count);
    put_u64(o, f->nodes[i].depth);
  }
}

/* Streams a canonical copy of p through fn in the profile format. */
int pp_profile_write(const struct pp_profile *p, pathprof_write_fn fn, void *ctx)
{
  struct pp_profile c;
  struct out o;
  size_t i;

  if (copy_all(p, 0, &c, 0, 0) != 0)
    return -1;
  o.fn = fn;
  o.ctx = ctx;
  o.fnv = FNV_BASIS;
  o.n = 0;
  o.failed = 0;
  put_bytes(&o, "PATHPROF", 8);
  put_u32(&o, 1);
  put_u32(&o, 0);
  for (i = 0; i < c.nunits && !o.failed; i++)
    put_unit(&o, &c.units[i]);
  if (c.osp && put_osph(&o, &c) != 0)
    o.failed = 1;
  for (i = 0; i < c.nforests && !o.failed; i++)
    put_forest(&o, &c.forests[i]);
  put_u32(&o, END_TAG);
  put_u32(&o, (unsigned long)c.nunits);
  put_u64(&o, o.fnv);
  flush(&o);
  pp_profile_free(&c);
  return o.failed ? -1 : 0;
}

/* A file descriptor sink; keeps the first errno. */
struct fdsink {
  int fd;
  int err;
};

/* Writes all of buf to the sink's fd, retrying short writes and EINTR. */
static int fd_write(void *ctx, const void *buf, unsigned long len)
{
  struct fdsink *s = ctx;
  const char *p = buf;
  ssize_t r;
  while (len > 0) {
    r = write(s->fd, p, len);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      s->err = r < 0 ? errno : EIO;
      return -1;
    }
    p += r;
    len -= (unsigned long)r;
  }
  return 0;
}

/* Flushes the directory holding path, so the rename itself survives a crash (best effort). */
static void sync_dir(const char *path)
{
  const char *slash = strrchr(path, '/');
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *dir;
  int fd;
  if (!slash) {
    fd = open(".", O_RDONLY);
  } else {
    if (!(dir = malloc(n + 1)))
      return;
    memcpy(dir, path, n);
    dir[n] = 0;
    fd = open(dir, O_RDONLY);
    free(dir);
  }
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

/* Writes p into the already open temporary fd, syncs and closes it; 0 or an errno-style code
   with *what naming the failed step. */
static int fill_temp(const struct pp_profile *p, int fd, const char **what)
{
  struct fdsink s;
  int e;
  s.fd = fd;
  s.err = 0;
  *what = "cannot write";
  if (pp_profile_write(p, fd_write, &s) != 0) {
    close(fd);
    return s.err ? s.err : ENOMEM;
  }
  *what = "cannot sync";
  if (fsync(fd) != 0) {
    e = errno;
    close(fd);
    return e;
  }
  *what = "cannot close";
  return close(fd) != 0 ? errno : 0;
}

/* Writes p to "<path>.tmp.<pid>", syncs it and renames it over path; the old file stays on error. */
/* Writes p straight to the device or pipe at path (never replaced by a regular file). */
static int save_device(const struct pp_profile *p, const char *path, char *err, size_t errlen)
{
  struct fdsink s;
  int rc;
  s.fd = open(path, O_WRONLY | O_CLOEXEC);
  s.err = 0;
  if (s.fd < 0)
    return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
  rc = pp_profile_write(p, fd_write, &s);
  if (close(s.fd) != 0 && rc == 0) {
    rc = -1;
    s.err = errno;
  }
  if (rc != 0)
    return fail(err, errlen, "%s: cannot write: %s", path, strerror(s.err ? s.err : ENOMEM));
  return 0;
}

int pp_profile_save(const struct pp_profile *p, const char *path, char *err, size_t errlen)
{
  size_t n = strlen(path) + 32;
  char *tmp;
  const char *what = "cannot create";
  int fd, e;
  struct stat st;

  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    return save_device(p, path, err, errlen);
  tmp = malloc(n);
  if (!tmp)
    return fail(err, errlen, "%s: out of memory", path);
  snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  e = fd < 0 ? errno : fill_temp(p, fd, &what);
  if (e == 0 && rename(tmp, path) != 0) {
    e = errno;
    what = "cannot rename temporary";
  }
  if (e != 0) {
    if (fd >= 0)
      unlink(tmp);
    fail(err, errlen, "%s: %s %s: %s", path, what, tmp, strerror(e));
    free(tmp);
    return -1;
  }
  free(tmp);
  sync_dir(path);
  return 0;
}
