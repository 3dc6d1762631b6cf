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
/* FNV-1a 64 of n bytes, continuing from h. */
unsigned long long ppf_fnv(unsigned long long h, const unsigned char *p, size_t n)
{
  while (n--)
    h = (h ^ *p++) * FNV_PRIME;
  return h;
}

/* Little-endian u64 at p. */
unsigned long long ppf_get_u64(const unsigned char *p)
{
  unsigned long long v = 0;
  int i;
  for (i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* Little-endian u32 at p. */
unsigned long ppf_get_u32(const unsigned char *p)
{
  return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
         (unsigned long)p[3] << 24;
}

/* The parser's view of its input, for bounds checks and messages. */
struct in {
  const unsigned char *b;
  size_t len;
  const char *fname;
  char *err;
  size_t errlen;
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
  if (ppf_get_u32(in->b + at + 8) != 1 && ppf_get_u32(in->b + at + 8) != 2)
    return ppf_fail(in->err, in->errlen, "%s: unknown format version %lu at byte %zu", in->fname,
                ppf_get_u32(in->b + at + 8), at + 8);
  if (ppf_get_u32(in->b + at + 12) != 0)
    return ppf_fail(in->err, in->errlen, "%s: unknown flags 0x%lx at byte %zu", in->fname,
                ppf_get_u32(in->b + at + 12), at + 12);
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
    u->counters[i] = ppf_get_u64(p);
  for (i = 0; i < u->nhash; i++, p += 24) {
    u->hash[i].fn = ppf_get_u64(p);
    u->hash[i].id = ppf_get_u64(p + 8);
    u->hash[i].count = ppf_get_u64(p + 16);
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

/* Parses the unit record at *pos (its tag already seen) and appends it to l. */
static int parse_unit(const struct in *in, size_t *pos, struct ppf_recs *l)
{
  size_t at = *pos, q = at + UNIT_FIXED;
  struct pp_unitrec u;

  memset(&u, 0, sizeof u);
  if (in->len - at < UNIT_FIXED)
    return truncated(in, at);
  u.checksum = ppf_get_u64(in->b + at + 8);
  u.ncounters = ppf_get_u64(in->b + at + 16);
  u.nhash = ppf_get_u64(in->b + at + 24);
  u.dropped = ppf_get_u64(in->b + at + 32);
  if (parse_name(in, at, &q, ppf_get_u32(in->b + at + 4), &u.name) != 0 ||
      parse_counts(in, at, &q, &u) != 0) {
    ppf_free_unit(&u);
    return -1;
  }
  ppf_canon_hash(&u);
  if (push(l, &u) != 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *pos = q;
  return 0;
}

/* Decodes the (index, count) pairs of the sparse record at `at` into u's dense counters: indices
   ascending and in range, counts nonzero. *pos moves past them. */
static int parse_set(const struct in *in, size_t at, size_t *pos, unsigned long long nset,
                     struct pp_unitrec *u)
{
  unsigned long long i, idx, prev = 0;
  const unsigned char *p = in->b + *pos;
  if (nset > (in->len - *pos) / 16)
    return truncated(in, at);
  if (!(u->counters = ppf_alloc_array(u->ncounters, sizeof *u->counters)))
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  memset(u->counters, 0, (size_t)u->ncounters * sizeof *u->counters);
  for (i = 0; i < nset; i++, p += 16) {
    idx = ppf_get_u64(p);
    if (idx >= u->ncounters || (i && idx <= prev) || ppf_get_u64(p + 8) == 0)
      return ppf_fail(in->err, in->errlen, "%s: sparse counter %llu at byte %zu: index %llu out of "
                      "order or range, or count 0", in->fname, i, (size_t)(p - in->b), idx);
    u->counters[idx] = ppf_get_u64(p + 8);
    prev = idx;
  }
  *pos = (size_t)(p - in->b);
  return 0;
}

/* Parses the sparse unit record (SPRS) at *pos and appends it to l as a dense one. */
static int parse_sparse(const struct in *in, size_t *pos, struct ppf_recs *l)
{
  size_t at = *pos, q = at + SPRS_FIXED;
  unsigned long long nset, i;
  struct pp_unitrec u;
  const unsigned char *p;

  memset(&u, 0, sizeof u);
  if (in->len - at < SPRS_FIXED)
    return truncated(in, at);
  u.checksum = ppf_get_u64(in->b + at + 8);
  u.ncounters = ppf_get_u64(in->b + at + 16);
  nset = ppf_get_u64(in->b + at + 24);
  u.nhash = ppf_get_u64(in->b + at + 32);
  u.dropped = ppf_get_u64(in->b + at + 40);
  if (u.ncounters > SPRS_MAX_COUNTERS || nset > u.ncounters)
    return ppf_fail(in->err, in->errlen, "%s: sparse unit record at byte %zu: %llu of %llu counters "
                    "(at most %llu)", in->fname, at, nset, u.ncounters, SPRS_MAX_COUNTERS);
  if (parse_name(in, at, &q, ppf_get_u32(in->b + at + 4), &u.name) != 0 ||
      parse_set(in, at, &q, nset, &u) != 0 || u.nhash > (in->len - q) / 24 ||
      !(u.hash = ppf_alloc_array(u.nhash, sizeof *u.hash))) {
    if (u.name && u.counters && u.nhash > (in->len - q) / 24)
      truncated(in, at);
    else if (u.name && u.counters)
      ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
    ppf_free_unit(&u);
    return -1;
  }
  for (p = in->b + q, i = 0; i < u.nhash; i++, p += 24) {
    u.hash[i].fn = ppf_get_u64(p);
    u.hash[i].id = ppf_get_u64(p + 8);
    u.hash[i].count = ppf_get_u64(p + 16);
  }
  ppf_canon_hash(&u);
  if (push(l, &u) != 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  *pos = (size_t)(p - in->b);
  return 0;
}

/* Checks the OSPH fixed part at `at` into o: version, rate, lengths and their weights. */
static int parse_osph_head(const struct in *in, size_t at, struct pp_osph *o, size_t *pos)
{
  unsigned long n, sum = 0, pad;
  const unsigned char *p = in->b + at;
  if (in->len - at < OSPH_FIXED + 8)
    return ppf_fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  if (ppf_get_u32(p + 4) != 1)
    return ppf_fail(in->err, in->errlen, "%s: unknown OSPH version %lu at byte %zu", in->fname, ppf_get_u32(p + 4), at + 4);
  o->rate = ppf_get_u64(p + 8);
  o->seed = ppf_get_u64(p + 16);
  o->memory = ppf_get_u64(p + 24);
  o->used = ppf_get_u64(p + 32);
  o->peak = ppf_get_u64(p + 40);
  o->started = ppf_get_u64(p + 48);
  o->dropped = ppf_get_u64(p + 56);
  o->resamples = ppf_get_u64(p + 64);
  o->maxlog = ppf_get_u32(p + 72);
  o->lengths = ppf_get_u32(p + 76);
  if (o->rate == 0 || o->maxlog < 1 || o->maxlog > 16 || o->lengths > 2)
    return ppf_fail(in->err, in->errlen, "%s: OSPH record at byte %zu: bad rate, length limit or distribution",
                in->fname, at);
  pad = o->maxlog % 2;
  if ((in->len - at - OSPH_FIXED) / 4 < o->maxlog + pad + 4)
    return ppf_fail(in->err, in->errlen, "%s: truncated OSPH record at byte %zu", in->fname, at);
  for (n = 1; n <= o->maxlog; n++)
    sum += o->weight[n] = ppf_get_u32(p + OSPH_FIXED + 4 * (n - 1));
  if (sum != 65536 || (pad && ppf_get_u32(p + OSPH_FIXED + 4 * o->maxlog) != 0))
    return ppf_fail(in->err, in->errlen, "%s: OSPH record at byte %zu: length weights do not add up to 65536",
                in->fname, at);
  *pos = at + OSPH_FIXED + 4 * (o->maxlog + pad);
  o->nentries = ppf_get_u64(in->b + *pos);
  o->nblocks = ppf_get_u64(in->b + *pos + 8);
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
    unsigned long len = ppf_get_u32(in->b + q + 16), flags = ppf_get_u32(in->b + q + 20);
    o->entries[i].id = ppf_get_u64(in->b + q);
    o->entries[i].count = ppf_get_u64(in->b + q + 8);
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
    o->blocks[j].unit = ppf_get_u32(in->b + q);
    o->blocks[j].fn = ppf_get_u32(in->b + q + 4);
    o->blocks[j].block = ppf_get_u32(in->b + q + 8);
  }
  if (pad && ppf_get_u32(in->b + q) != 0)
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

/* Replaces the OSPH blocks' record numbers by the checksums of those unit records. */
static int resolve_osph(const struct in *in, struct pp_osph *o, const struct ppf_recs *l)
{
  unsigned long long j;
  for (j = 0; o && j < o->nblocks; j++) {
    if (o->blocks[j].unit >= l->n)
      return ppf_fail(in->err, in->errlen, "%s: OSPH block %llu names unit record %llu of %zu", in->fname, j,
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

  if (!(f->nodes = ppf_alloc_array(f->nnodes, sizeof *f->nodes)))
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  for (i = 0; i < f->nnodes; i++, p += 24) {
    f->nodes[i].label = ppf_get_u64(p);
    f->nodes[i].count = ppf_get_u64(p + 8);
    f->nodes[i].depth = ppf_get_u64(p + 16);
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
  f.k = ppf_get_u32(in->b + at + 4);
  f.checksum = ppf_get_u64(in->b + at + 8);
  f.fn = ppf_get_u64(in->b + at + 16);
  f.nnodes = ppf_get_u64(in->b + at + 24);
  f.dropped = ppf_get_u64(in->b + at + 32);
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
  len = ppf_get_u32(in->b + at + 4);
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
  *left = ppf_get_u64(in->b + at + 8);
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
  if (ppf_get_u32(in->b + at + 4) != 1)
    return ppf_fail(in->err, in->errlen, "%s: unknown partial path record version %lu at byte %zu", in->fname,
                    ppf_get_u32(in->b + at + 4), at + 4);
  n = ppf_get_u64(in->b + at + 8);
  l->dropped += ppf_get_u64(in->b + at + 16); /* wraps only past 2^64 records' worth */
  if (n > (in->len - at - PART_FIXED) / PART_ENTRY)
    return ppf_fail(in->err, in->errlen, "%s: truncated partial path record at byte %zu (file ends at byte %zu)",
                    in->fname, at, in->len);
  for (p = in->b + at + PART_FIXED, i = 0; i < n; i++, p += PART_ENTRY) {
    if (ppf_get_u64(p + 32) == 0)
      continue; /* padding of a dump that raced with another thread */
    v = l->v;
    if (ppf_reserve(&v, &l->cap, l->n, sizeof *l->v) != 0)
      return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
    l->v = v;
    l->v[l->n].checksum = ppf_get_u64(p);
    l->v[l->n].p.fn = ppf_get_u64(p + 8);
    l->v[l->n].p.site = ppf_get_u64(p + 16);
    l->v[l->n].p.r = ppf_get_u64(p + 24);
    l->v[l->n].p.count = (long long)ppf_get_u64(p + 32);
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
  if (ppf_get_u32(in->b + pos + 4) != nunits)
    return ppf_fail(in->err, in->errlen, "%s: wrong unit count %lu at byte %zu (found %lu records)",
                in->fname, ppf_get_u32(in->b + pos + 4), pos + 4, nunits);
  sum = ppf_fnv(FNV_BASIS, in->b + start, pos + 8 - start);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  sum = ppf_get_u64(in->b + pos + 8); /* fuzz builds reach the checks after it with any checksum */
#endif
  if (ppf_get_u64(in->b + pos + 8) != sum)
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
    tag = ppf_get_u32(in->b + q);
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
    else if (tag == TEST_TAG && ppf_get_u32(in->b + start + 8) == 2)
      rc = parse_test_head(in, &q, tl, &left);
    else if (tag == UNIT_TAG || tag == SPRS_TAG) { /* the current test's, else the totals' */
      struct ppf_recs *dst = left ? &tl->v[tl->n - 1].recs : l;
      rc = tag == UNIT_TAG ? parse_unit(in, &q, dst) : parse_sparse(in, &q, dst);
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
  size_t pos = 0, first;
  struct pp_osph *before;
  struct ppf_recs view;
  do {
    first = l->n;
    before = *osp;
    if (parse_stream(in, &pos, l, osp, fl, tl, pl) != 0)
      return -1;
    view.v = l->v ? l->v + first : 0;
    view.n = l->n - first;
    if (*osp != before && resolve_osph(in, *osp, &view) != 0)
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
  page = ppf_get_u32(in->b + 12);
  if (ppf_get_u32(in->b + 8) != 1)
    ppf_fail(in->err, in->errlen, "%s: unknown continuous format version %lu at byte 8", in->fname,
         ppf_get_u32(in->b + 8));
  else if (page < 64 || page > (1UL << 24) || (page & (page - 1)) != 0)
    ppf_fail(in->err, in->errlen, "%s: bad page size %lu at byte 12", in->fname, page);
  else if (ppf_get_u32(in->b + 16) != PP_CONT_BOM || ppf_get_u32(in->b + 20) != 0)
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
    key = ppf_get_u64(h);
    if (key == 0 || key == ~0ULL || ppf_get_u64(h + 16) == 0)
      continue;
    u->hash[u->nhash].fn = key - 1;
    u->hash[u->nhash].id = ppf_get_u64(h + 8);
    u->hash[u->nhash++].count = ppf_get_u64(h + 16);
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

  if (left < PP_CONT_REGION || ppf_get_u32(r) != PP_CONT_TAG)
    return ppf_fail(in->err, in->errlen, "%s: no region header at byte %zu", in->fname, pos);
  len = ppf_get_u32(r + 4);
  nc = ppf_get_u64(r + 16);
  cap = ppf_get_u64(r + 24);
  data = ppf_get_u64(r + 40);
  s = ppf_get_u64(r + 48);
  if (data % page || s % page || data < PP_CONT_REGION + len || s < data || s > left ||
      nc > (s - data) / 8 || cap > (s - data - 8 * nc) / 24)
    return ppf_fail(in->err, in->errlen, "%s: region at byte %zu does not fit its sizes", in->fname, pos);
  memset(u, 0, sizeof *u);
  u->checksum = ppf_get_u64(r + 8);
  u->ncounters = nc;
  u->dropped = ppf_get_u64(r + 32);
  u->name = malloc(len + 1);
  u->counters = ppf_alloc_array(nc ? nc : 1, sizeof *u->counters);
  if (!u->name || !u->counters || cont_hash(r + data + 8 * nc, cap, u) != 0)
    return ppf_fail(in->err, in->errlen, "%s: out of memory", in->fname);
  memcpy(u->name, r + PP_CONT_REGION, len);
  u->name[len] = 0;
  if (strlen(u->name) != len)
    return ppf_fail(in->err, in->errlen, "%s: NUL in the name at byte %zu", in->fname, pos + PP_CONT_REGION);
  for (i = 0; i < nc; i++)
    u->counters[i] = ppf_get_u64(r + data + 8 * i);
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
  struct in in;
  struct ppf_recs l = {0, 0, 0};
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
  memset(out, 0, sizeof *out);
  memset(&forests, 0, sizeof forests);
  memset(&tests, 0, sizeof tests);
  if (len >= 8 && buf && !memcmp(buf, PP_CONT_MAGIC, 8) ? parse_continuous(&in, &l) != 0
      : parse_body(&in, &l, &osp, &fl, &tl, &pl) != 0) {
    ppf_free_units(l.v, l.n);
    ppf_free_forests(fl.v, fl.n);
    ppf_free_osph(osp);
    ppf_fold_testlist(&tl, &tests, msg, sizeof msg); /* frees what the tests had */
    pp_profile_free(&tests);
    free(pl.v);
    return -1;
  }
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
  unsigned char *buf;
  size_t len;
  int rc;

  out->nunits = 0;
  out->units = 0;
  out->osp = 0;
  if (slurp(fd, &buf, &len) != 0)
    return ppf_fail(err, errlen, "%s: cannot read: %s", fname, strerror(errno));
  rc = pp_profile_parse(buf, pp_profile_committed(buf, len), fname, out, err, errlen);
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
