/* write.c: the canonical profile writer (sparse records where shorter, one buffer, one write) and
   the safe save (a new temporary never through a link, optional fsync, rename). */
#include "profile_int.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

/* The writer's state: the whole stream in a growing buffer, and its running FNV-1a. */
struct out {
  unsigned char *b;
  size_t n, cap;
  unsigned long long fnv;
  int failed;
};

/* Room for n more bytes; sets failed when out of memory. */
static int reserve(struct out *o, size_t n)
{
  size_t cap = o->cap ? o->cap : 65536;
  unsigned char *grown;
  if (o->failed)
    return -1;
  if (o->cap - o->n >= n)
    return 0;
  while (cap - o->n < n) {
    if (cap > (size_t)-1 / 2)
      return o->failed = 1, -1;
    cap *= 2;
  }
  if (cap != o->cap) {
    if (!(grown = realloc(o->b, cap)))
      return o->failed = 1, -1;
    o->b = grown;
    o->cap = cap;
  }
  return 0;
}

/* Appends n bytes to the buffer and the running checksum. */
static void put_bytes(struct out *o, const void *p, size_t n)
{
  const unsigned char *c = p;
  unsigned char *d;
  unsigned long long h = o->fnv;
  if (reserve(o, n) != 0)
    return;
  d = o->b + o->n;
  o->n += n;
  while (n--) {
    h = (h ^ *c) * FNV_PRIME;
    *d++ = *c++;
  }
  o->fnv = h;
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
  unsigned long long h = o->fnv;
  unsigned char *d;
  int i;
  if (reserve(o, 8) != 0)
    return;
  d = o->b + o->n;
  o->n += 8;
  for (i = 0; i < 8; i++, v >>= 8) {
    d[i] = (unsigned char)v;
    h = (h ^ (v & 0xff)) * FNV_PRIME;
  }
  o->fnv = h;
}

/* Nonzero array counters of u. */
static unsigned long long nonzero(const struct pp_unitrec *u)
{
  unsigned long long i, k = 0;
  if (u->idx)
    return u->nset;
  for (i = 0; i < u->ncounters; i++)
    k += u->counters[i] != 0;
  return k;
}

/* Appends a record's name, zero-padded to 8 bytes. */
static void put_name(struct out *o, const char *name)
{
  static const unsigned char zeros[8];
  size_t len = strlen(name);
  put_bytes(o, name, len);
  put_bytes(o, zeros, (8 - len % 8) % 8);
}

/* Appends n hash entries (after a unit's counters). */
static void put_hash(struct out *o, const struct pp_hent *h, unsigned long long n)
{
  unsigned long long i;
  for (i = 0; i < n && !o->failed; i++) {
    put_u64(o, h[i].fn);
    put_u64(o, h[i].id);
    put_u64(o, h[i].count);
  }
}

/* Appends the head of a unit record (UNIT, or SPRS with its k nonzero counters) up to its
   counters: the one writer of it for whole profiles and for sparse snapshots. */
static void put_unit_head(struct out *o, const struct pp_sparse *h, int sparse)
{
  put_u32(o, sparse ? SPRS_TAG : UNIT_TAG);
  put_u32(o, (unsigned long)strlen(h->name));
  put_u64(o, h->checksum);
  put_u64(o, h->ncounters);
  if (sparse)
    put_u64(o, h->nset);
  put_u64(o, h->nhash);
  put_u64(o, h->dropped);
  put_name(o, h->name);
}

/* Appends nset counters given by ascending indices idx and counts val: as (index, count) pairs,
   or dense, ncounters of them with the zeros between. */
static void put_counts(struct out *o, unsigned long long ncounters, unsigned long long nset,
                       const unsigned long long *idx, const unsigned long long *val, int pairs)
{
  unsigned long long i, j;
  for (i = 0; pairs && i < nset && !o->failed; i++) {
    put_u64(o, idx[i]);
    put_u64(o, val[i]);
  }
  for (i = j = 0; !pairs && i < ncounters && !o->failed; i++)
    put_u64(o, j < nset && idx[j] == i ? val[j++] : 0);
}

/* Appends one unit record of a canonical profile, as the shorter of its two records. */
static void put_unit(struct out *o, const struct pp_unitrec *u)
{
  struct pp_sparse h;
  unsigned long long i;
  int sparse;

  memset(&h, 0, sizeof h);
  h.checksum = u->checksum;
  h.ncounters = u->ncounters;
  h.nset = nonzero(u);
  h.nhash = u->nhash;
  h.dropped = u->dropped;
  h.name = u->name;
  sparse = ppf_shorter_sparse(u->ncounters, h.nset); /* the shorter record: a short run's profile
                                                       is as small as what it did */
  put_unit_head(o, &h, sparse);
  if (u->idx)
    put_counts(o, u->ncounters, u->nset, u->idx, u->counters, sparse);
  for (i = 0; !u->idx && i < u->ncounters && !o->failed; i++) {
    if (sparse && !u->counters[i])
      continue;
    if (sparse)
      put_u64(o, i);
    put_u64(o, u->counters[i]);
  }
  put_hash(o, u->hash, u->nhash);
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
    size_t k = ppf_find_unit(c, s->blocks[j].unit, &found);
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

/* Appends one TEST record: its name, then its unit records (doc/formats.md, per-test counts). */
static void put_test(struct out *o, const struct pp_test *t)
{
  size_t i;
  put_u32(o, TEST_TAG);
  put_u32(o, (unsigned long)strlen(t->name));
  put_u64(o, t->nunits);
  put_name(o, t->name);
  for (i = 0; i < t->nunits && !o->failed; i++)
    put_unit(o, &t->units[i]);
}

/* Appends the head of the PART record: n entries follow, and the dropped count. The one writer
   of it for whole profiles and for sparse snapshots. */
static void put_part_head(struct out *o, unsigned long long n, unsigned long long dropped)
{
  put_u32(o, PART_TAG);
  put_u32(o, 1);
  put_u64(o, n);
  put_u64(o, dropped);
}

/* Appends one unit's n partial paths as PART entries: its checksum, then (fn, site, r, count). */
static void put_part_entries(struct out *o, unsigned long long checksum, const struct pp_part *p, unsigned long long n)
{
  unsigned long long k;
  for (k = 0; k < n && !o->failed; k++) {
    put_u64(o, checksum);
    put_u64(o, p[k].fn);
    put_u64(o, p[k].site);
    put_u64(o, p[k].r);
    put_u64(o, (unsigned long long)p[k].count);
  }
}

/* Appends the PART record of a canonical profile when it has partial paths or a dropped count:
   entries by unit checksum. */
static void put_parts(struct out *o, const struct pp_profile *c)
{
  unsigned long long n = 0;
  size_t i;

  for (i = 0; i < c->nunits; i++)
    n += c->units[i].npart;
  if (!n && !c->part_dropped)
    return;
  put_part_head(o, n, c->part_dropped);
  for (i = 0; i < c->nunits && !o->failed; i++)
    put_part_entries(o, c->units[i].checksum, c->units[i].part, c->units[i].npart);
}

/* Encodes a canonical copy of p in the profile format into a malloc'd buffer. */
int pp_profile_encode(const struct pp_profile *p, unsigned char **buf, size_t *len)
{
  struct pp_profile c;
  struct out o;
  size_t i;
  int copy = !ppf_canonical(p);

  *buf = 0;
  *len = 0;
  if (!copy)
    c = *p; /* written as it is: no copy of what may be megabytes of counters */
  else if (ppf_copy_all(p, 0, &c, 0, 0) != 0)
    return -1;
  memset(&o, 0, sizeof o);
  o.fnv = FNV_BASIS;
  put_bytes(&o, "PATHPROF", 8);
  put_u32(&o, c.ntests ? 2 : 1); /* version 2 only when it has tests: version 1 readers keep working */
  put_u32(&o, 0);
  for (i = 0; i < c.nunits && !o.failed; i++)
    put_unit(&o, &c.units[i]);
  if (c.osp && put_osph(&o, &c) != 0)
    o.failed = 1;
  for (i = 0; i < c.nforests && !o.failed; i++)
    put_forest(&o, &c.forests[i]);
  for (i = 0; i < c.ntests && !o.failed; i++)
    put_test(&o, &c.tests[i]);
  put_parts(&o, &c);
  put_u32(&o, END_TAG);
  put_u32(&o, (unsigned long)c.nunits);
  put_u64(&o, o.fnv);
  if (copy)
    pp_profile_free(&c);
  if (o.failed) {
    free(o.b);
    return -1;
  }
  *buf = o.b;
  *len = o.n;
  return 0;
}

/* Appends one sparse unit as the shorter of its records (as put_unit). */
static void put_sparse(struct out *o, const struct pp_sparse *u)
{
  int sparse = ppf_shorter_sparse(u->ncounters, u->nset);

  put_unit_head(o, u, sparse);
  put_counts(o, u->ncounters, u->nset, u->idx, u->val, sparse);
  put_hash(o, u->hash, u->nhash);
}

/* The PART record of sparse units: their partial paths and dropped count, when there are any. */
static void put_sparse_parts(struct out *o, const struct pp_sparse *u, size_t n)
{
  unsigned long long np = 0, dropped = 0;
  size_t i;

  for (i = 0; i < n; i++) {
    np += u[i].npart;
    dropped += u[i].part_dropped;
  }
  if (!np && !dropped)
    return;
  put_part_head(o, np, dropped);
  for (i = 0; i < n && !o->failed; i++)
    put_part_entries(o, u[i].checksum, u[i].part, u[i].npart);
}

/* Encodes n sparse units (sorted by checksum, each once) as one stream. */
int pp_profile_encode_sparse(const struct pp_sparse *u, size_t n, unsigned char **buf, size_t *len)
{
  struct out o;
  size_t i;

  memset(&o, 0, sizeof o);
  o.fnv = FNV_BASIS;
  put_bytes(&o, "PATHPROF", 8);
  put_u32(&o, 1);
  put_u32(&o, 0);
  for (i = 0; i < n && !o.failed; i++)
    put_sparse(&o, &u[i]);
  put_sparse_parts(&o, u, n);
  put_u32(&o, END_TAG);
  put_u32(&o, (unsigned long)n);
  put_u64(&o, o.fnv);
  *buf = o.failed ? 0 : o.b;
  *len = o.failed ? 0 : o.n;
  if (o.failed)
    free(o.b);
  return o.failed ? -1 : 0;
}

/* Streams a canonical copy of p through fn in the profile format, in one piece. */
int pp_profile_write(const struct pp_profile *p, pathprof_write_fn fn, void *ctx)
{
  unsigned char *b;
  size_t n;
  int rc;
  if (pp_profile_encode(p, &b, &n) != 0)
    return -1;
  rc = fn(ctx, b, (unsigned long)n);
  free(b);
  return rc != 0 ? -1 : 0;
}

/* Writes all of buf to fd, retrying short writes and EINTR; 0 or an errno value. */
int pp_write_all(int fd, const void *buf, size_t len)
{
  const char *p = buf;
  ssize_t r;
  while (len > 0) {
    r = write(fd, p, len);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return r < 0 ? errno : EIO;
    p += r;
    len -= (size_t)r;
  }
  return 0;
}

/* Creates name for writing, never through a link: O_CREAT|O_EXCL|O_NOFOLLOW. Whatever is there
   already (a dead writer's temporary, or a link someone planted) is removed first, not
   followed. Returns the fd, or -1 with errno set. */
int pp_open_new(const char *name)
{
  int fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EEXIST && unlink(name) == 0)
    fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  return fd;
}

/* Flushes the directory holding path, so a rename or a new name in it survives a crash (best
   effort). */
void pp_sync_dir(const char *path)
{
  const char *slash = strrchr(path, '/');
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *dir;
  int fd;
  if (!slash) {
    fd = open(".", O_RDONLY | O_CLOEXEC);
  } else {
    if (!(dir = malloc(n + 1)))
      return;
    memcpy(dir, path, n);
    dir[n] = 0;
    fd = open(dir, O_RDONLY | O_CLOEXEC);
    free(dir);
  }
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

/* Writes p into the already open temporary fd (synced with sync) and closes it; 0 or an
   errno-style code with *what naming the failed step. */
static int fill_temp(const struct pp_profile *p, int fd, int sync, const char **what)
{
  unsigned char *b;
  size_t n;
  int e;
  *what = "cannot write";
  if (pp_profile_encode(p, &b, &n) != 0) {
    close(fd);
    return ENOMEM;
  }
  e = pp_write_all(fd, b, n);
  free(b);
  if (e == 0 && sync && fsync(fd) != 0) {
    *what = "cannot sync";
    e = errno;
  }
  if (e != 0) {
    close(fd);
    return e;
  }
  *what = "cannot close";
  return close(fd) != 0 ? errno : 0;
}

/* Writes p straight to the device or pipe at path (never replaced by a regular file, and never
   a regular file reached through a link). */
static int save_device(const struct pp_profile *p, const char *path, char *err, size_t errlen)
{
  unsigned char *b = 0;
  size_t n;
  struct stat st;
  int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY), e;
  if (fd < 0)
    return ppf_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
  if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode)) {
    close(fd);
    return ppf_fail(err, errlen, "%s: no longer a device or pipe; not written", path);
  }
  e = pp_profile_encode(p, &b, &n) != 0 ? ENOMEM : pp_write_all(fd, b, n);
  free(b);
  if (close(fd) != 0 && e == 0)
    e = errno;
  if (e != 0)
    return ppf_fail(err, errlen, "%s: cannot write: %s", path, strerror(e));
  return 0;
}

/* Writes p to a new temporary beside path (<path>.tmp under the caller's lock, else
   <path>.tmp.<pid>), made by pp_open_new, and renames it over path (a link at path is replaced,
   not followed), or with PP_SAVE_NEW links it there (a file there is kept: errno EEXIST); with
   PP_SAVE_SYNC the file and its directory are synced. The old file stays on error. */
int pp_profile_save_flags(const struct pp_profile *p, const char *path, int flags, char *err,
                          size_t errlen)
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
    return ppf_fail(err, errlen, "%s: out of memory", path);
  if (flags & PP_SAVE_LOCKED)
    snprintf(tmp, n, "%s.tmp", path);
  else
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
  fd = pp_open_new(tmp);
  e = fd < 0 ? errno : fill_temp(p, fd, flags & PP_SAVE_SYNC, &what);
  if (e == 0 && ((flags & PP_SAVE_NEW) ? link(tmp, path) : rename(tmp, path)) != 0) {
    e = errno;
    what = (flags & PP_SAVE_NEW) ? "cannot link" : "cannot rename temporary";
  }
  if (fd >= 0 && (e != 0 || (flags & PP_SAVE_NEW)))
    unlink(tmp); /* linked: path is the file's name now */
  if (e != 0) {
    ppf_fail(err, errlen, "%s: %s %s: %s", path, what, tmp, strerror(e));
    free(tmp);
    errno = e;
    return -1;
  }
  free(tmp);
  if (flags & PP_SAVE_SYNC)
    pp_sync_dir(path);
  return 0;
}

/* The host tools' save: synced. */
int pp_profile_save(const struct pp_profile *p, const char *path, char *err, size_t errlen)
{
  return pp_profile_save_flags(p, path, PP_SAVE_SYNC, err, errlen);
}
