/* write.c: the canonical profile writer, and the safe save (write aside, fsync, rename). */
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

/* Streams a canonical copy of p through fn in the profile format. */
int pp_profile_write(const struct pp_profile *p, pathprof_write_fn fn, void *ctx)
{
  struct pp_profile c;
  struct out o;
  size_t i;

  if (ppf_copy_all(p, 0, &c, 0, 0) != 0)
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
    return ppf_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
  rc = pp_profile_write(p, fd_write, &s);
  if (close(s.fd) != 0 && rc == 0) {
    rc = -1;
    s.err = errno;
  }
  if (rc != 0)
    return ppf_fail(err, errlen, "%s: cannot write: %s", path, strerror(s.err ? s.err : ENOMEM));
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
    return ppf_fail(err, errlen, "%s: out of memory", path);
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
    ppf_fail(err, errlen, "%s: %s %s: %s", path, what, tmp, strerror(e));
    free(tmp);
    return -1;
  }
  free(tmp);
  sync_dir(path);
  return 0;
}
