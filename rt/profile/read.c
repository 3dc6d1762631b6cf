/* read.c: strict parsing and validation of profiles (binary and continuous), from memory, an fd
   or a file with the crash dumps beside it. */
#include "profile_int.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
/* The parser's view of its input, for bounds checks and messages. */
struct in {
  const unsigned char *b;
  size_t len;
  const char *fname;
  char *err;
  size_t errlen;
  int sparse;             /* PP_READ_SPARSE: sparse records stay sparse in memory */
};

/* Checks the fixed header of the stream at `at`: magic, version, flags. */
static int parse_header(const struct in *in, size_t at)
{
  size_t left = in->len - at, n = left < 8 ? left : 8;
  if (in->len == 0)
    return ppf_fail(in->err, in->errlen, "%s: empty file, not a profile", in->fname);
  if (memcmp(in->b + at, "PATHPROF", n) != 0)
    return ppf_fail(in->err, in->errlen, at ? "%s: stray bytes after the trailer at byte %zu"
                    : "%s: bad magic at byte %zu (not a pathprof profile)", in->fname, at);
  if (left < HEADER_LEN)
    return ppf_fail(in->err, in->errlen, "%s: truncated header at byte %zu (file ends at byte %zu)",
                in->fname, at, in->len);
  if (get_u32(in->b + at + 8) != 1 && get_u32(in->b + at + 8) != 2)
    return ppf_fail(in->err, in->errlen, "%s: unknown format version %lu at byte %zu", in->fname,
                get_u32(in->b + at + 8), at + 8);
  if (get_u32(in->b + at + 12) != 0)
    return ppf_fail(in->err, in->errlen, "%s: unknown flags 0x%lx at byte %zu", in->fname,
                get_u32(in->b + at + 12), at + 12);
  return 0;
}

/* Message for a unit record that runs past the end of the input. */
static int truncated(const struct in *in, size_t at)
{
  return ppf_fail(in->err, in->errlen, "%s: truncated unit record at byte %zu (file ends at byte %zu)",
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
      return ppf_fail(in->err, in->errlen, "%s: NUL byte in unit name at byte %zu", in->fname,
                  *pos + i);
  for (; i < len + pad; i++)
    if (in->b[*pos + i] != 0)
      return ppf_fail(in->err, in->errlen, "%s: nonzero name padding at byte %zu", in->fname,
                  *pos + i);
  if (!(*name = malloc(len + 1)))
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
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
  u->counters = ppf_alloc_array(u->ncounters, sizeof *u->counters);
  u->hash = ppf_alloc_array(u->nhash, sizeof *u->hash);
  if (!u->counters || !u->hash)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
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


/* Appends an owned record to the list (growing it by doubling); consumes u, also on error. */
static int push(struct ppf_recs *l, struct pp_unitrec *u)
{
  void *v = l->v;
  int rc = ppf_reserve(&v, &l->cap, l->n, sizeof *l->v);
  l->v = v;
  if (rc != 0) {
    ppf_free_unit(u);
    return -1;
  }
  l->v[l->n++] = *u;
  return 0;
}

/* The slot of l's index where checksum c is, or the empty slot where it would go. */
static size_t rec_slot(const struct ppf_recs *l, unsigned long long c)
{
  size_t h = (size_t)((c * 0x9E3779B97F4A7C15ULL) >> 17) & (l->icap - 1);
  while (l->idx[h] && l->v[l->idx[h] - 1].checksum != c)
    h = (h + 1) & (l->icap - 1);
  return h;
}

/* The position in l of the first record of checksum c, or l->n when there is none (or no
   index). */
static size_t rec_find(const struct ppf_recs *l, unsigned long long c)
{
  size_t h;
  if (!l->icap)
    return l->n;
  h = rec_slot(l, c);
  return l->idx[h] ? l->idx[h] - 1 : l->n;
}

/* Notes the last record of l in its index (the first record of a checksum stays the one
   found); 0, or -1 when out of memory. */
static int rec_index(struct ppf_recs *l)
{
  size_t *old = l->idx, n = l->icap, i, h;
  if (2 * (l->nidx + 1) > l->icap) {
    l->icap = n ? 2 * n : 16;
    if (!(l->idx = calloc(l->icap, sizeof *l->idx))) {
      l->idx = old;
      l->icap = n;
      return -1;
    }
    for (i = 0; i < n; i++)
      if (old[i])
        l->idx[rec_slot(l, l->v[old[i] - 1].checksum)] = old[i];
    free(old);
  }
  h = rec_slot(l, l->v[l->n - 1].checksum);
  if (!l->idx[h]) {
    l->idx[h] = l->n;
    l->nidx++;
  }
  return 0;
}

/* Notes checksum c as the next record of the current stream of l; 0, or -1 (no memory). */
static int rec_sum(struct ppf_recs *l, unsigned long long c)
{
  void *v = l->sums;
  if (ppf_reserve(&v, &l->scap, l->nsums, sizeof *l->sums) != 0)
    return -1;
  l->sums = v;
  l->sums[l->nsums++] = c;
  return 0;
}

/* Frees l's index and stream checksums. */
static void rec_index_free(struct ppf_recs *l)
{
  free(l->idx);
  free(l->sums);
  l->idx = 0;
  l->sums = 0;
  l->icap = l->nidx = l->nsums = l->scap = 0;
}

/* Appends u to l as push does; for the totals (indexed) list, notes it in the index too. */
static int push_indexed(struct ppf_recs *l, struct pp_unitrec *u, int indexed)
{
  if (push(l, u) != 0)
    return -1;
  return indexed && rec_index(l) != 0 ? -1 : 0;
}

/* Parses the unit record at *pos (its tag already seen) and appends it to l. */
static int parse_unit(const struct in *in, size_t *pos, struct ppf_recs *l, int indexed)
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
    ppf_free_unit(&u);
    return -1;
  }
  ppf_canon_hash(&u);
  if (push_indexed(l, &u, indexed) != 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *pos = q;
  return 0;
}

/* Checks the nset (index, count) pairs of the sparse record at `at` that start at p: indices
   ascending and below nc, counts nonzero. */
static int check_pairs(const struct in *in, size_t at, const unsigned char *p, unsigned long long nset,
                       unsigned long long nc)
{
  unsigned long long i, idx, prev = 0;
  (void)at;
  for (i = 0; i < nset; i++, p += 16) {
    idx = get_u64(p);
    if (idx >= nc || (i && idx <= prev) || get_u64(p + 8) == 0)
      return ppf_fail(in->err, in->errlen, "%s: sparse counter %llu at byte %zu: index %llu out of "
                      "order or range, or count 0", in->fname, i, (size_t)(p - in->b), idx);
    prev = idx;
  }
  return 0;
}

/* Parses the sparse unit record (SPRS) at *pos: added into the record of its unit that l has
   already (indexed: the totals, whose sizes agree), else appended to l, dense unless the reader
   keeps sparse records sparse. Added, it costs what its pairs and hash entries cost, not its
   unit's size, when the record there is dense or the pairs are few. */
static int parse_sparse(const struct in *in, size_t *pos, struct ppf_recs *l, int indexed)
{
  size_t at = *pos, q = at + SPRS_FIXED, e;
  unsigned long long nset, i;
  struct pp_unitrec u, *d;
  const unsigned char *p;
  char msg[256] = "";

  memset(&u, 0, sizeof u);
  if (in->len - at < SPRS_FIXED)
    return truncated(in, at);
  u.checksum = get_u64(in->b + at + 8);
  u.ncounters = get_u64(in->b + at + 16);
  nset = get_u64(in->b + at + 24);
  u.nhash = get_u64(in->b + at + 32);
  u.dropped = get_u64(in->b + at + 40);
  if (u.ncounters > SPRS_MAX_COUNTERS || nset > u.ncounters)
    return ppf_fail(in->err, in->errlen, "%s: sparse unit record at byte %zu: %llu of %llu counters "
                    "(at most %llu)", in->fname, at, nset, u.ncounters, SPRS_MAX_COUNTERS);
  if (parse_name(in, at, &q, get_u32(in->b + at + 4), &u.name) != 0)
    return -1;
  if (nset > (in->len - q) / 16 || check_pairs(in, at, in->b + q, nset, u.ncounters) != 0) {
    if (nset > (in->len - q) / 16)
      truncated(in, at);
    ppf_free_unit(&u);
    return -1;
  }
  u.nset = nset;
  u.idx = ppf_alloc_array(nset, sizeof *u.idx);
  u.counters = ppf_alloc_array(nset, sizeof *u.counters);
  for (p = in->b + q, i = 0; u.idx && u.counters && i < nset; i++, p += 16) {
    u.idx[i] = get_u64(p);
    u.counters[i] = get_u64(p + 8);
  }
  q += (size_t)nset * 16;
  if (!u.idx || !u.counters || u.nhash > (in->len - q) / 24 || !(u.hash = ppf_alloc_array(u.nhash, sizeof *u.hash))) {
    if (u.idx && u.counters && u.nhash > (in->len - q) / 24)
      truncated(in, at);
    else
      ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
    ppf_free_unit(&u);
    return -1;
  }
  for (p = in->b + q, i = 0; i < u.nhash; i++, p += 24) {
    u.hash[i].fn = get_u64(p);
    u.hash[i].id = get_u64(p + 8);
    u.hash[i].count = get_u64(p + 16);
  }
  *pos = (size_t)(p - in->b);
  ppf_canon_hash(&u);
  e = indexed ? rec_find(l, u.checksum) : l->n;
  if (e < l->n && l->v[e].ncounters == u.ncounters) { /* added into the unit's record */
    d = &l->v[e];
    if (ppf_merge_rest(d, &u, msg, sizeof msg) != 0 || ppf_add_counters(d, &u) != 0) {
      ppf_free_unit(&u);
      return ppf_fail(in->err, in->errlen, "%s: %s", in->fname, msg[0] ? msg : "out of memory");
    }
    ppf_free_unit(&u);
    return 0;
  }
  if (!in->sparse && pp_unit_dense(&u) != 0) {
    ppf_free_unit(&u);
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  }
  if (push_indexed(l, &u, indexed) != 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  return 0;
}

/* Checks the OSPH fixed part at `at` into o: version, rate, lengths and their weights. */
static int parse_osph_head(const struct in *in, size_t at, struct pp_osph *o, size_t *pos)
{
  unsigned long n, sum = 0, pad;
  const unsigned char *p = in->b + at;
  if (in->len - at < OSPH_FIXED + 8)
    return ppf_fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  if (get_u32(p + 4) != 1)
    return ppf_fail(in->err, in->errlen, "%s: unknown OSPH version %lu at byte %zu", in->fname, get_u32(p + 4), at + 4);
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
    return ppf_fail(in->err, in->errlen, "%s: OSPH record at byte %zu: bad rate, length limit or distribution",
                in->fname, at);
  pad = o->maxlog % 2;
  if ((in->len - at - OSPH_FIXED) / 4 < o->maxlog + pad + 4)
    return ppf_fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  for (n = 1; n <= o->maxlog; n++)
    sum += o->weight[n] = get_u32(p + OSPH_FIXED + 4 * (n - 1));
  if (sum != 65536 || (pad && get_u32(p + OSPH_FIXED + 4 * o->maxlog) != 0))
    return ppf_fail(in->err, in->errlen, "%s: OSPH record at byte %zu: length weights do not add up to 65536",
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
    return ppf_fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  o->entries = ppf_alloc_array(o->nentries, sizeof *o->entries);
  o->blocks = ppf_alloc_array(o->nblocks, sizeof *o->blocks);
  if (!o->entries || !o->blocks)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  for (i = 0; i < o->nentries; i++, q += 24) {
    unsigned long len = get_u32(in->b + q + 16), flags = get_u32(in->b + q + 20);
    o->entries[i].id = get_u64(in->b + q);
    o->entries[i].count = get_u64(in->b + q + 8);
    o->entries[i].len = len;
    if (len < 2 || len > (1UL << o->maxlog) || (len & (len - 1)) || flags > 1 || o->entries[i].count == 0 ||
        (flags && len > o->nblocks - total))
      return ppf_fail(in->err, in->errlen, "%s: OSPH entry %llu at byte %zu: bad length, flags or count", in->fname, i, q);
    o->entries[i].blocks = flags ? o->blocks + total : 0;
    total += flags ? len : 0;
  }
  if (total != o->nblocks)
    return ppf_fail(in->err, in->errlen, "%s: OSPH record at byte %zu: entries hold %llu blocks, not %llu",
                in->fname, at, total, o->nblocks);
  for (j = 0; j < o->nblocks; j++, q += 12) {
    o->blocks[j].unit = get_u32(in->b + q);
    o->blocks[j].fn = get_u32(in->b + q + 4);
    o->blocks[j].block = get_u32(in->b + q + 8);
  }
  if (pad && get_u32(in->b + q) != 0)
    return ppf_fail(in->err, in->errlen, "%s: nonzero OSPH padding at byte %zu", in->fname, q);
  *pos = q + pad;
  return 0;
}

/* Parses the OSPH record at *pos (at most one per file) into *out. */
static int parse_osph(const struct in *in, size_t *pos, struct pp_osph **out)
{
  size_t at = *pos, q = at;
  struct pp_osph *o;
  if (*out)
    return ppf_fail(in->err, in->errlen, "%s: second OSPH record at byte %zu", in->fname, at);
  o = calloc(1, sizeof *o);
  if (!o)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *out = o;
  if (parse_osph_head(in, at, o, &q) != 0 || parse_osph_body(in, at, o, &q) != 0)
    return -1;
  *pos = q;
  return 0;
}

/* Replaces the OSPH blocks' record numbers by the checksums of those unit records (the n of
   its stream, whose checksums are sums). */
static int resolve_osph(const struct in *in, struct pp_osph *o, const unsigned long long *sums, size_t n)
{
  unsigned long long j;
  for (j = 0; o && j < o->nblocks; j++) {
    if (o->blocks[j].unit >= n)
      return ppf_fail(in->err, in->errlen, "%s: OSPH block %llu names unit record %llu of %zu", in->fname, j,
                  o->blocks[j].unit, n);
    o->blocks[j].unit = sums[o->blocks[j].unit];
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

  if (!(f->nodes = ppf_alloc_array(f->nnodes, sizeof *f->nodes)))
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  for (i = 0; i < f->nnodes; i++, p += 24) {
    f->nodes[i].label = get_u64(p);
    f->nodes[i].count = get_u64(p + 8);
    f->nodes[i].depth = get_u64(p + 16);
    if (f->nodes[i].depth > (i ? prev + 1 : 0) || f->nodes[i].depth > 2 * (unsigned long long)f->k - 3)
      return ppf_fail(in->err, in->errlen, "%s: bad node depth %llu at byte %zu (k = %lu, previous depth %llu)",
                  in->fname, f->nodes[i].depth, (size_t)(p + 16 - in->b), f->k, prev);
    prev = f->nodes[i].depth;
  }
  rc = ppf_canon_forest(f, &dup);
  if (rc < 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  if (rc > 0)
    return ppf_fail(in->err, in->errlen, "%s: label %llu twice among siblings at byte %zu", in->fname,
                f->nodes[dup].label, at + KSLB_FIXED + 24 * dup);
  return 0;
}

/* Parses the k-slab forest record at *pos (its tag already seen) and appends it to l. */
static int parse_kslb(const struct in *in, size_t *pos, struct forests *l)
{
  size_t at = *pos;
  struct pp_forest f;

  if (in->len - at < KSLB_FIXED)
    return ppf_fail(in->err, in->errlen, "%s: truncated forest record at byte %zu (file ends at byte %zu)",
                in->fname, at, in->len);
  f.k = get_u32(in->b + at + 4);
  f.checksum = get_u64(in->b + at + 8);
  f.fn = get_u64(in->b + at + 16);
  f.nnodes = get_u64(in->b + at + 24);
  f.dropped = get_u64(in->b + at + 32);
  f.nodes = 0;
  if (f.k == 0 ? f.checksum || f.fn || f.nnodes : f.k < 2 || f.k > KMAX)
    return ppf_fail(in->err, in->errlen, "%s: bad k %lu in forest record at byte %zu (2 to %d)", in->fname,
                f.k, at + 4, KMAX);
  if (f.nnodes > (in->len - at - KSLB_FIXED) / 24)
    return ppf_fail(in->err, in->errlen, "%s: truncated forest record at byte %zu (file ends at byte %zu)",
                in->fname, at, in->len);
  if (parse_nodes(in, at, &f) != 0) {
    free(f.nodes);
    return -1;
  }
  if (ppf_push_forest(l, &f) != 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *pos = at + KSLB_FIXED + 24 * (size_t)f.nnodes;
  return 0;
}

/* Reads the head of the TEST record at *pos (its name) into a new entry of tl; *left gets the
   number of unit records that follow and belong to it. */
static int parse_test_head(const struct in *in, size_t *pos, struct ppf_testlist *tl, unsigned long long *left)
{
  size_t at = *pos, q = at + TEST_FIXED;
  unsigned long len;
  char *name;
  void *v = tl->v;
  if (in->len - at < TEST_FIXED)
    return ppf_fail(in->err, in->errlen, "%s: truncated test record at byte %zu", in->fname, at);
  len = get_u32(in->b + at + 4);
  if (len < 1 || len > TEST_NAME_MAX)
    return ppf_fail(in->err, in->errlen, "%s: test name of %lu bytes at byte %zu (1 to %d)", in->fname, len,
                    at + 4, TEST_NAME_MAX);
  if (parse_name(in, at, &q, len, &name) != 0)
    return -1;
  if (!pp_test_name_ok(name) || ppf_reserve(&v, &tl->cap, tl->n, sizeof *tl->v) != 0) {
    free(name);
    return ppf_fail(in->err, in->errlen, "%s: test name with a control character at byte %zu (or no memory)",
                    in->fname, at + TEST_FIXED);
  }
  tl->v = v;
  memset(&tl->v[tl->n], 0, sizeof *tl->v);
  tl->v[tl->n++].name = name;
  *left = get_u64(in->b + at + 8);
  *pos = q;
  return 0;
}

/* Parses the PART record at *pos (its tag already seen): entries with a count go to l. */
static int parse_part(const struct in *in, size_t *pos, struct parts *l)
{
  size_t at = *pos;
  unsigned long long n, i;
  const unsigned char *p;
  void *v;

  if (in->len - at < PART_FIXED)
    return ppf_fail(in->err, in->errlen, "%s: truncated partial path record at byte %zu (file ends at byte %zu)",
                    in->fname, at, in->len);
  if (get_u32(in->b + at + 4) != 1)
    return ppf_fail(in->err, in->errlen, "%s: unknown partial path record version %lu at byte %zu", in->fname,
                    get_u32(in->b + at + 4), at + 4);
  n = get_u64(in->b + at + 8);
  l->dropped += get_u64(in->b + at + 16); /* wraps only past 2^64 records' worth */
  if (n > (in->len - at - PART_FIXED) / PART_ENTRY)
    return ppf_fail(in->err, in->errlen, "%s: truncated partial path record at byte %zu (file ends at byte %zu)",
                    in->fname, at, in->len);
  for (p = in->b + at + PART_FIXED, i = 0; i < n; i++, p += PART_ENTRY) {
    if (get_u64(p + 32) == 0)
      continue; /* padding of a dump that raced with another thread */
    v = l->v;
    if (ppf_reserve(&v, &l->cap, l->n, sizeof *l->v) != 0)
      return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
    l->v = v;
    l->v[l->n].checksum = get_u64(p);
    l->v[l->n].p.fn = get_u64(p + 8);
    l->v[l->n].p.site = get_u64(p + 16);
    l->v[l->n].p.r = get_u64(p + 24);
    l->v[l->n].p.count = (long long)get_u64(p + 32);
    l->v[l->n++].at = (size_t)(p - in->b);
  }
  *pos = at + PART_FIXED + PART_ENTRY * (size_t)n;
  return 0;
}

/* Checks the trailer at pos of the stream that starts at `start`: unit count, checksum of the
   stream's bytes before it. */
static int parse_trailer(const struct in *in, size_t start, size_t pos, unsigned long nunits)
{
  unsigned long long sum;
  if (in->len - pos < TRAILER_LEN)
    return ppf_fail(in->err, in->errlen, "%s: truncated trailer at byte %zu (file ends at byte %zu)",
                in->fname, pos, in->len);
  if (get_u32(in->b + pos + 4) != nunits)
    return ppf_fail(in->err, in->errlen, "%s: wrong unit count %lu at byte %zu (found %lu records)",
                in->fname, get_u32(in->b + pos + 4), pos + 4, nunits);
  sum = fnv(FNV_BASIS, in->b + start, pos + 8 - start);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  sum = get_u64(in->b + pos + 8); /* fuzz builds reach the checks after it with any checksum */
#endif
  if (get_u64(in->b + pos + 8) != sum)
    return ppf_fail(in->err, in->errlen, "%s: checksum mismatch at byte %zu (the data is corrupt)",
                in->fname, pos + 8);
  return 0;
}

/* Walks the records of the stream that starts at *pos, up to and including its trailer; *pos
   moves past it. */
static int parse_stream(const struct in *in, size_t *pos, struct ppf_recs *l, struct pp_osph **osp,
                        struct forests *fl, struct ppf_testlist *tl, struct parts *pl)
{
  size_t start = *pos, q = start + HEADER_LEN;
  unsigned long nunits = 0, tag;
  unsigned long long left = 0; /* unit records the current test still has */
  int rc;
  if (parse_header(in, start) != 0)
    return -1;
  for (;;) {
    if (in->len - q < 4)
      return ppf_fail(in->err, in->errlen, "%s: missing trailer at byte %zu (file ends at byte %zu)",
                  in->fname, q, in->len);
    tag = get_u32(in->b + q);
    if (left && tag != UNIT_TAG && tag != SPRS_TAG)
      return ppf_fail(in->err, in->errlen, "%s: test '%s': %llu unit records missing at byte %zu", in->fname,
                      tl->v[tl->n - 1].name, left, q);
    if (tag == END_TAG) {
      if (parse_trailer(in, start, q, nunits) != 0)
        return -1;
      *pos = q + TRAILER_LEN;
      return 0;
    }
    if (tag == KSLB_TAG)
      rc = parse_kslb(in, &q, fl);
    else if (tag == OSPH_TAG)
      rc = parse_osph(in, &q, osp);
    else if (tag == PART_TAG)
      rc = parse_part(in, &q, pl);
    else if (tag == TEST_TAG && get_u32(in->b + start + 8) == 2)
      rc = parse_test_head(in, &q, tl, &left);
    else if (tag == UNIT_TAG || tag == SPRS_TAG) { /* the current test's, else the totals' */
      struct ppf_recs *dst = left ? &tl->v[tl->n - 1].recs : l;
      size_t at = q;
      rc = tag == UNIT_TAG ? parse_unit(in, &q, dst, !left) : parse_sparse(in, &q, dst, !left);
      if (rc == 0 && !left && rec_sum(l, get_u64(in->b + at + 8)) != 0)
        return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
      nunits += !left;
      left -= !!left;
    } else
      return ppf_fail(in->err, in->errlen, "%s: unknown tag 0x%08lx at byte %zu", in->fname, tag, q);
    if (rc != 0)
      return -1;
  }
}

/* A profile file is one or more streams, one after the other, whose counts add up (each writer
   under the lock appends its own; doc/formats.md section 2, "Appended streams"). The OSPH
   block numbers of a stream name that stream's unit records. */
static int parse_body(const struct in *in, struct ppf_recs *l, struct pp_osph **osp, struct forests *fl,
                      struct ppf_testlist *tl, struct parts *pl)
{
  size_t pos = 0;
  struct pp_osph *before;
  do {
    l->nsums = 0;
    before = *osp;
    if (parse_stream(in, &pos, l, osp, fl, tl, pl) != 0)
      return -1;
    if (*osp != before && resolve_osph(in, *osp, l->sums, l->nsums) != 0)
      return -1;
  } while (pos < in->len);
  return 0;
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
    ppf_fail(in->err, in->errlen, "%s: unknown continuous format version %lu at byte 8", in->fname,
         get_u32(in->b + 8));
  else if (page < 64 || page > (1UL << 24) || (page & (page - 1)) != 0)
    ppf_fail(in->err, in->errlen, "%s: bad page size %lu at byte 12", in->fname, page);
  else if (get_u32(in->b + 16) != PP_CONT_BOM || get_u32(in->b + 20) != 0)
    ppf_fail(in->err, in->errlen, "%s: byte order or flags at byte 16 not those of a little-endian "
         "host's continuous profile", in->fname);
  else
    return page;
  return 0;
}

/* Copies the used slots of a mapped hash table (key, id, count; key 0 empty, all ones busy). */
static int cont_hash(const unsigned char *h, unsigned long long cap, struct pp_unitrec *u)
{
  unsigned long long i, key;
  u->hash = ppf_alloc_array(cap ? cap : 1, sizeof *u->hash);
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
  ppf_canon_hash(u);
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
    return ppf_fail(in->err, in->errlen, "%s: no region header at byte %zu", in->fname, pos);
  len = get_u32(r + 4);
  nc = get_u64(r + 16);
  cap = get_u64(r + 24);
  data = get_u64(r + 40);
  s = get_u64(r + 48);
  if (data % page || s % page || data < PP_CONT_REGION + len || s < data || s > left ||
      nc > (s - data) / 8 || cap > (s - data - 8 * nc) / 24)
    return ppf_fail(in->err, in->errlen, "%s: region at byte %zu does not fit its sizes", in->fname, pos);
  memset(u, 0, sizeof *u);
  u->checksum = get_u64(r + 8);
  u->ncounters = nc;
  u->dropped = get_u64(r + 32);
  u->name = malloc(len + 1);
  u->counters = ppf_alloc_array(nc ? nc : 1, sizeof *u->counters);
  if (!u->name || !u->counters || cont_hash(r + data + 8 * nc, cap, u) != 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  memcpy(u->name, r + PP_CONT_REGION, len);
  u->name[len] = 0;
  if (strlen(u->name) != len)
    return ppf_fail(in->err, in->errlen, "%s: NUL in the name at byte %zu", in->fname, pos + PP_CONT_REGION);
  for (i = 0; i < nc; i++)
    u->counters[i] = get_u64(r + data + 8 * i);
  *size = (size_t)s;
  return 0;
}

/* Walks the regions of a continuous profile (pages of counters the program mapped). */
static int parse_continuous(const struct in *in, struct ppf_recs *l)
{
  size_t page = parse_cont_header(in), pos, size = 0;
  struct pp_unitrec u;

  if (!page)
    return -1;
  for (pos = page; pos < in->len; pos += size) {
    memset(&u, 0, sizeof u);
    if (parse_region(in, pos, page, &u, &size) != 0) {
      ppf_free_unit(&u);
      return -1;
    }
    if (push(l, &u) != 0)
      return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  }
  return 0;
}

/* Parses and strictly validates a whole profile; *out is empty on error. */
int pp_profile_parse(const unsigned char *buf, size_t len, const char *fname,
                     struct pp_profile *out, char *err, size_t errlen)
{
  return pp_profile_parse_flags(buf, len, fname, 0, out, err, errlen);
}

/* The same, with PP_READ_SPARSE keeping sparse records sparse. */
int pp_profile_parse_flags(const unsigned char *buf, size_t len, const char *fname, int flags,
                           struct pp_profile *out, char *err, size_t errlen)
{
  struct in in;
  struct ppf_recs l;
  struct pp_osph *osp = 0;
  struct forests fl = {0, 0, 0};
  struct pp_profile forests, tests;
  struct ppf_testlist tl = {0, 0, 0};
  struct parts pl = {0, 0, 0, 0};
  char msg[256];

  in.b = buf;
  in.len = buf ? len : 0;
  in.fname = fname ? fname : "<profile>";
  in.err = err;
  in.errlen = errlen;
  in.sparse = (flags & PP_READ_SPARSE) != 0;
  memset(&l, 0, sizeof l);
  memset(out, 0, sizeof *out);
  memset(&forests, 0, sizeof forests);
  memset(&tests, 0, sizeof tests);
  if (len >= 8 && buf && !memcmp(buf, PP_CONT_MAGIC, 8) ? parse_continuous(&in, &l) != 0
      : parse_body(&in, &l, &osp, &fl, &tl, &pl) != 0) {
    rec_index_free(&l);
    ppf_free_units(l.v, l.n);
    ppf_free_forests(fl.v, fl.n);
    ppf_free_osph(osp);
    ppf_fold_testlist(&tl, &tests, msg, sizeof msg); /* frees what the tests had */
    pp_profile_free(&tests);
    free(pl.v);
    return -1;
  }
  rec_index_free(&l);
  if (ppf_fold_testlist(&tl, &tests, msg, sizeof msg) != 0) {
    ppf_free_units(l.v, l.n);
    ppf_free_forests(fl.v, fl.n);
    ppf_free_osph(osp);
    free(pl.v);
    return ppf_fail(err, errlen, "%s: %s", in.fname, msg);
  }
  if (ppf_fold_forests(fl.v, fl.n, &forests, msg, sizeof msg) != 0) {
    ppf_free_units(l.v, l.n);
    ppf_free_osph(osp);
    pp_profile_free(&tests);
    free(pl.v);
    return ppf_fail(err, errlen, "%s: %s", in.fname, msg);
  }
  if (ppf_fold(l.v, l.n, out, msg, sizeof msg) != 0) {
    pp_profile_free(&forests);
    pp_profile_free(&tests);
    ppf_free_osph(osp);
    free(pl.v);
    return ppf_fail(err, errlen, "%s: %s", in.fname, msg);
  }
  out->osp = osp;
  out->nforests = forests.nforests;
  out->forests = forests.forests;
  out->ntests = tests.ntests;
  out->tests = tests.tests;
  if (ppf_check_tests(out, msg, sizeof msg) != 0) {
    pp_profile_free(out);
    free(pl.v);
    return ppf_fail(err, errlen, "%s: %s", in.fname, msg);
  }
  if (ppf_attach_parts(&pl, out, in.fname, err, errlen) != 0) {
    pp_profile_free(out);
    return -1;
  }
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
  return pp_profile_read_fd_flags(fd, fname, 0, out, err, errlen);
}

/* The same, with pp_profile_parse_flags's flags. */
int pp_profile_read_fd_flags(int fd, const char *fname, int flags, struct pp_profile *out, char *err,
                             size_t errlen)
{
  unsigned char *buf;
  size_t len;
  int rc;

  out->nunits = 0;
  out->units = 0;
  out->osp = 0;
  if (slurp(fd, &buf, &len) != 0)
    return ppf_fail(err, errlen, "%s: cannot read: %s", fname, strerror(errno));
  rc = pp_profile_parse_flags(buf, pp_profile_committed(buf, len), fname, flags, out, err, errlen);
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
    return ppf_fail(err, errlen, "%s: out of memory", path);
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
      rc = ppf_fail(err, errlen, "%s: out of memory", path);
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
    return ppf_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
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
    ppf_fail(err, errlen, "%s: cannot open: %s", path, strerror(ENOENT));
  }
  for (i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return rc;
}
