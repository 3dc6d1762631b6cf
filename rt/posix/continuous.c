/* continuous.c: continuous mode ("%c" in $PATHPROF_FILE): each unit's counters live in pages
   of the profile file, mapped shared, so counts reach the file as they are made and even
   SIGKILL loses none (doc/formats.md section 2, "Continuous mode"). Units built with
   `pathcc --continuous` count through their descriptor's counters pointer, which registration
   points into the mapping; other units are added into their region when the program exits. */
#include "posix.h"
#include "profile/profile.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#define MAX_MAPPED 1024

/* A mapped unit: its region (header page(s) and data) in this process. */
struct mapped {
  struct __pathprof_unit *u;
  unsigned char *base;
  size_t size, data;
};

static pthread_mutex_t cont_mutex = PTHREAD_MUTEX_INITIALIZER;
static int cont_fd = -1;
static size_t page;
static struct mapped maps[MAX_MAPPED] PATHPROF_BIG;
static volatile int nmaps;
static char cont_path[4096] PATHPROF_BIG;

/* Little-endian stores and loads of the region header (the format is little-endian). */
static void put64(unsigned char *p, unsigned long long v)
{
  int i;
  for (i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned long long get64(const unsigned char *p)
{
  unsigned long long v = 0;
  int i;
  for (i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static void put32(unsigned char *p, unsigned long v)
{
  int i;
  for (i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* Takes (F_WRLCK) or drops (F_UNLCK) the fcntl lock on the whole file. */
static int lock_file(int type)
{
  struct flock fl;
  int r;
  memset(&fl, 0, sizeof fl);
  fl.l_type = (short)type;
  fl.l_whence = SEEK_SET;
  while ((r = fcntl(cont_fd, F_SETLKW, &fl)) != 0 && errno == EINTR)
    ;
  return r;
}

/* Whether continuous mode is on: the file is open. */
int __pathprof_continuous(void)
{
  return cont_fd >= 0;
}

/* The continuous profile's path, "" when continuous mode is off. */
const char *__pathprof_cont_path(void)
{
  return cont_fd >= 0 ? cont_path : "";
}

/* Whether u counts in a mapping (async-signal-safe: reads only). */
int __pathprof_cont_mapped(const struct __pathprof_unit *u)
{
  int i, n = nmaps;
  for (i = 0; i < n; i++)
    if (maps[i].u == u)
      return 1;
  return 0;
}

/* Writes the header page of the new, empty continuous file fd at path; 0, or -1 with err set. */
static int write_header(int fd, const char *path, char *err, size_t errlen)
{
  unsigned char h[PP_CONT_HEADER];
  unsigned int bom = (unsigned int)PP_CONT_BOM; /* native order: a big-endian file says so */

  memset(h, 0, sizeof h);
  memcpy(h, PP_CONT_MAGIC, 8);
  put32(h + 8, 1);
  put32(h + 12, (unsigned long)page);
  memcpy(h + 16, &bom, 4);
  put32(h + 20, 0);
  if (posix_fallocate(fd, 0, (off_t)page) != 0 || pwrite(fd, h, sizeof h, 0) != (ssize_t)sizeof h) {
    snprintf(err, errlen, "%s: cannot write the continuous header: %s", path, strerror(errno));
    if (ftruncate(fd, 0) != 0) { /* an empty file is what it was */
    }
    return -1;
  }
  return 0;
}

/* The ordinary profile in the locked file fd at path becomes a continuous file with the same
   counts: a new file with a region per unit, renamed over it while the lock is held (a normal
   run merging meanwhile then adds into the new file's regions). Returns the new file's fd, or
   -1 with err set and the file unchanged (forests or damage: the caller counts in memory). */
static int convert(int fd, const char *path, char *err, size_t errlen)
{
  struct pp_profile p;
  size_t n = strlen(path) + 8;
  char *tmp = malloc(n);
  int nfd = -1;

  if (!tmp)
    return snprintf(err, errlen, "%s: out of memory", path), -1;
  snprintf(tmp, n, "%s.tmp", path);
  if (pp_profile_read_fd(fd, path, &p, err, errlen) != 0) {
    free(tmp);
    return -1;
  }
  if (p.nforests || p.osp)
    snprintf(err, errlen, "%s: holds k-iteration forests, which a continuous file cannot", path);
  else if ((nfd = pp_open_new(tmp)) < 0)
    snprintf(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
  else if (write_header(nfd, tmp, err, errlen) != 0 || __pathprof_cont_add_file(nfd, tmp, &p, err, errlen) != 0 ||
           rename(tmp, path) != 0) {
    if (!err[0] || !strstr(err, tmp))
      snprintf(err, errlen, "%s: cannot rename %s over it: %s", path, tmp, strerror(errno));
    unlink(tmp);
    close(nfd);
    nfd = -1;
  }
  pp_profile_free(&p);
  free(tmp);
  return nfd;
}

/* Opens (creating, with its header page) the continuous profile at path, under the profile
   lock; an ordinary profile there becomes a continuous one with its counts. 0, or -1 with err. */
int __pathprof_cont_open(const char *path, char *err, size_t errlen)
{
  unsigned char h[PP_CONT_HEADER];
  struct stat st;
  int fd, nfd, rc = 0;

  page = (size_t)sysconf(_SC_PAGESIZE);
  err[0] = 0;
  if ((fd = __pathprof_open_locked(path, 0, err, errlen)) < 0)
    return -1;
  if (fstat(fd, &st) != 0) {
    snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
    rc = -1;
  } else if (st.st_size == 0) {
    rc = write_header(fd, path, err, errlen);
  } else if (pread(fd, h, 8, 0) == 8 && !memcmp(h, "PATHPROF", 8)) {
    if ((nfd = convert(fd, path, err, errlen)) < 0)
      rc = -1;
    close(fd); /* the old file's lock goes with it */
    fd = nfd;
  } else if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h || memcmp(h, PP_CONT_MAGIC, 8) != 0 ||
             get64(h + 12) % 0x100000000ULL != page) {
    snprintf(err, errlen, "%s: not a continuous profile of this machine's page size", path);
    rc = -1;
  }
  if (rc != 0) {
    if (fd >= 0)
      close(fd);
    return -1;
  }
  cont_fd = fd;
  snprintf(cont_path, sizeof cont_path, "%s", path);
  lock_file(F_UNLCK);
  return 0;
}

/* Rounds n up to a multiple of the page size. */
static size_t round_page(size_t n)
{
  return (n + page - 1) / page * page;
}

/* What identifies a region: the unit's checksum and sizes, and its name. */
struct regkey {
  unsigned long long checksum, ncounters, hash_cap;
  const char *name;
};

/* Appends a region for k at `at` (the end of the file fd at path, whose lock the caller holds);
   its blocks are reserved now, so no SIGBUS on a full disk later. 0, or -1 with err set. */
static int add_region(int fd, const char *path, const struct regkey *k, off_t at, size_t *size,
                      char *err, size_t errlen)
{
  unsigned char h[PP_CONT_REGION];
  size_t len = strlen(k->name), data = round_page(PP_CONT_REGION + len);
  size_t s = round_page(data + 8 * (size_t)k->ncounters + 24 * (size_t)k->hash_cap);

  memset(h, 0, sizeof h);
  put32(h, PP_CONT_TAG);
  put32(h + 4, (unsigned long)len);
  put64(h + 8, k->checksum);
  put64(h + 16, k->ncounters);
  put64(h + 24, k->hash_cap);
  put64(h + 40, data);
  put64(h + 48, s);
  errno = posix_fallocate(fd, at, (off_t)s);
  if (errno != 0 || pwrite(fd, h, sizeof h, at) != (ssize_t)sizeof h ||
      (len && pwrite(fd, k->name, len, at + PP_CONT_REGION) != (ssize_t)len)) {
    snprintf(err, errlen, "%s: cannot add a region: %s", path, strerror(errno));
    ftruncate(fd, at);
    return -1;
  }
  *size = s;
  return 0;
}

/* Finds the region of k in the continuous file fd at path (any hash_cap when k->hash_cap is
   all ones), or with create appends one; the caller holds the file lock. *off and *size get
   where it is; returns 1 found or made, 0 not found, -1 with err set. */
static int region_at(int fd, const char *path, const struct regkey *k, int create, off_t *off,
                     size_t *size, char *err, size_t errlen)
{
  unsigned char h[PP_CONT_REGION];
  struct stat st;
  off_t at;

  if (fstat(fd, &st) != 0)
    return snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno)), -1;
  for (at = (off_t)page; at + PP_CONT_REGION <= st.st_size; at += (off_t)get64(h + 48)) {
    if (pread(fd, h, sizeof h, at) != (ssize_t)sizeof h || get64(h) % 0x100000000ULL != PP_CONT_TAG ||
        get64(h + 48) == 0 || get64(h + 48) % page)
      return snprintf(err, errlen, "%s: damaged region at byte %lld", path, (long long)at), -1;
    if (get64(h + 8) == k->checksum && get64(h + 16) == k->ncounters &&
        (k->hash_cap == ~0ULL || get64(h + 24) == k->hash_cap)) {
      *off = at;
      *size = (size_t)get64(h + 48);
      return 1;
    }
  }
  if (!create)
    return 0;
  *off = at;
  return add_region(fd, path, k, at, size, err, errlen) == 0 ? 1 : -1;
}

/* Finds u's region (same checksum and sizes) or appends one, under the file lock held by the
   caller; *off and *size get where it is. 0, or -1 with err set. */
static int find_region(const struct __pathprof_unit *u, off_t *off, size_t *size, char *err, size_t errlen)
{
  struct regkey k;
  k.checksum = u->checksum;
  k.ncounters = u->ncounters;
  k.hash_cap = u->hash_cap;
  k.name = u->tables ? u->tables : "";
  return region_at(cont_fd, cont_path, &k, 1, off, size, err, errlen) == 1 ? 0 : -1;
}

/* Maps u's region; *m gets it. The caller holds cont_mutex. 0, or -1 with err set. */
static int map_region(const struct __pathprof_unit *u, struct mapped *m, char *err, size_t errlen)
{
  off_t off;
  size_t size;
  int rc;

  lock_file(F_WRLCK);
  rc = find_region(u, &off, &size, err, errlen);
  lock_file(F_UNLCK);
  if (rc != 0)
    return -1;
  m->base = mmap(0, size, PROT_READ | PROT_WRITE, MAP_SHARED, cont_fd, off);
  if (m->base == MAP_FAILED)
    return snprintf(err, errlen, "%.400s: cannot map: %s", cont_path, strerror(errno)), -1;
  m->size = size;
  m->data = (size_t)get64(m->base + 40);
  return 0;
}

/* Moves u's counters (and hash table) into its region; with add, the counts u has so far are
   added there. The caller holds cont_mutex. 0, or -1 with err set and u unchanged. */
static int move_unit(struct __pathprof_unit *u, int add, char *err, size_t errlen)
{
  struct mapped m;
  unsigned long long *c;
  unsigned long i;

  if (__pathprof_cont_mapped(u))
    return 0; /* two threads raced to register it */
  if (nmaps >= MAX_MAPPED) {
    snprintf(err, errlen, "%.400s: more than %d units; the others are written at exit", cont_path, MAX_MAPPED);
    return -1;
  }
  if (map_region(u, &m, err, errlen) != 0)
    return -1;
  c = (unsigned long long *)(void *)(m.base + m.data);
  for (i = 0; add && i < u->ncounters && u->counters; i++)
    __atomic_fetch_add(&c[i], u->counters[i], __ATOMIC_RELAXED);
  if (u->counters)
    u->counters = c;
  if (u->hash && u->hash_cap)
    u->hash = c + u->ncounters; /* empty still: registration comes before the first count */
  m.u = u;
  maps[nmaps] = m;
  __atomic_store_n(&nmaps, nmaps + 1, __ATOMIC_RELEASE);
  return 0;
}

/* The relocatable unit u's counters move into its region (counts it already has are added
   there); its hash table too. A failure leaves u counting in memory, written at exit. */
int __pathprof_cont_map(struct __pathprof_unit *u)
{
  char err[512];
  int rc;

  if (cont_fd < 0)
    return -1;
  pthread_mutex_lock(&cont_mutex);
  rc = move_unit(u, 1, err, sizeof err);
  pthread_mutex_unlock(&cont_mutex);
  if (rc != 0)
    fprintf(stderr, "pathprof: %s\n", err);
  return rc;
}

/* One unit's add, prepared: the region it adds into (m, 0 when it has none) with the slot each
   of its hash entries has there (0: none, the entry goes to the new region), and the new region
   (nm, 0 when none is needed) for the counts the first cannot take. */
struct plan {
  unsigned char *m, *nm;
  size_t msize, nsize;
  unsigned long long **slot;
  unsigned long long nleft;
};

/* Appends an empty region for rec's unit with room for its counters and nh hash entries at
   the end of fd, and maps it into p->nm. 0, or -1 with err set. */
static int plan_new_region(int fd, const char *path, const struct pp_unitrec *rec, unsigned long long nh,
                           struct plan *p, char *err, size_t errlen)
{
  struct regkey k;
  struct stat st;
  off_t at;

  k.checksum = rec->checksum;
  k.ncounters = rec->ncounters;
  k.hash_cap = nh;
  k.name = rec->name;
  if (fstat(fd, &st) != 0)
    return snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno)), -1;
  at = (off_t)round_page((size_t)st.st_size);
  if (add_region(fd, path, &k, at, &p->nsize, err, errlen) != 0)
    return -1;
  p->nm = mmap(0, p->nsize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, at);
  if (p->nm == MAP_FAILED) {
    p->nm = 0;
    return snprintf(err, errlen, "%s: cannot map: %s", path, strerror(errno)), -1;
  }
  return 0;
}

/* Prepares rec's add into fd at path (lock held): maps the unit's first region and finds the
   slot of each hash entry there, and makes the region for what has no place. Everything that
   can fail happens here, so the adds that follow cannot stop halfway. 0, or -1 with err set. */
static int plan_unit(int fd, const char *path, const struct pp_unitrec *rec, struct plan *p, char *err, size_t errlen)
{
  struct regkey k;
  unsigned long long *c, *e, i, j, cap;
  off_t off;
  int rc;

  k.checksum = rec->checksum;
  k.ncounters = rec->ncounters;
  k.hash_cap = ~0ULL;
  k.name = rec->name;
  if ((rc = region_at(fd, path, &k, 0, &off, &p->msize, err, errlen)) <= 0)
    return rc < 0 ? -1 : plan_new_region(fd, path, rec, rec->nhash, p, err, errlen);
  if (!(p->slot = calloc(rec->nhash ? rec->nhash : 1, sizeof *p->slot)))
    return snprintf(err, errlen, "%s: out of memory", path), -1;
  p->m = mmap(0, p->msize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
  if (p->m == MAP_FAILED) {
    p->m = 0;
    return snprintf(err, errlen, "%s: cannot map: %s", path, strerror(errno)), -1;
  }
  c = (unsigned long long *)(void *)(p->m + get64(p->m + 40));
  cap = get64(p->m + 24);
  for (i = 0; i < rec->nhash; i++) { /* a key, once in a slot, stays there */
    for (j = 0, e = 0; j < cap && !e; j++) {
      e = c + rec->ncounters + 3 * j;
      if (__atomic_load_n(&e[0], __ATOMIC_ACQUIRE) != rec->hash[i].fn + 1 || e[1] != rec->hash[i].id)
        e = 0;
    }
    p->slot[i] = e;
    p->nleft += !e;
  }
  return p->nleft ? plan_new_region(fd, path, rec, p->nleft, p, err, errlen) : 0;
}

/* Adds rec's counts as planned: atomically into the region a continuous process may be
   counting in, plainly into the new one (no one else maps it yet). Cannot fail. */
static void commit_unit(const struct pp_unitrec *rec, const struct plan *p)
{
  unsigned long long *c = 0, *n = 0, i;

  if (p->m)
    c = (unsigned long long *)(void *)(p->m + get64(p->m + 40));
  if (p->nm)
    n = (unsigned long long *)(void *)(p->nm + get64(p->nm + 40));
  for (i = 0; i < rec->ncounters; i++)
    if (!c)
      n[i] = rec->counters[i];
    else if (rec->counters[i])
      __atomic_fetch_add(&c[i], rec->counters[i], __ATOMIC_RELAXED);
  for (i = 0, n = n ? n + rec->ncounters : 0; i < rec->nhash; i++)
    if (p->m && p->slot[i]) {
      __atomic_fetch_add(&p->slot[i][2], rec->hash[i].count, __ATOMIC_RELAXED);
    } else {
      n[0] = rec->hash[i].fn + 1;
      n[1] = rec->hash[i].id;
      n[2] = rec->hash[i].count;
      n += 3;
    }
  if (p->m)
    __atomic_fetch_add((unsigned long long *)(void *)(p->m + 32), rec->dropped, __ATOMIC_RELAXED);
  else
    put64(p->nm + 32, rec->dropped);
}

/* Unmaps what a plan mapped and frees its slots. */
static void plan_free(struct plan *p)
{
  if (p->m)
    munmap(p->m, p->msize);
  if (p->nm)
    munmap(p->nm, p->nsize);
  free(p->slot);
}

/* Adds every unit of p into the continuous file fd at path, whose lock the caller holds; p's
   forests and OSPH record have no place there (the caller keeps them). All or nothing: every
   region and mapping is made first, so a caller that saves the counts elsewhere after a failure
   never counts a unit twice. The empty regions made before a failure stay: they count nothing,
   and cutting the file back could take a region another thread of this process just mapped
   (fcntl locks do not keep out the process's own threads). 0, or -1 with err set. */
int __pathprof_cont_add_file(int fd, const char *path, const struct pp_profile *p, char *err, size_t errlen)
{
  unsigned char h[PP_CONT_HEADER];
  struct plan *pl;
  size_t i;
  int rc = 0;

  if (!page)
    page = (size_t)sysconf(_SC_PAGESIZE);
  if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h || get64(h + 12) % 0x100000000ULL != page)
    return snprintf(err, errlen, "%s: not a continuous profile of this machine's page size", path), -1;
  if (!(pl = calloc(p->nunits + 1, sizeof *pl)))
    return snprintf(err, errlen, "%s: out of memory", path), -1;
  for (i = 0; i < p->nunits && rc == 0; i++)
    rc = plan_unit(fd, path, &p->units[i], &pl[i], err, errlen);
  for (i = 0; i < p->nunits && rc == 0; i++)
    commit_unit(&p->units[i], &pl[i]);
  for (i = 0; i < p->nunits; i++)
    plan_free(&pl[i]);
  free(pl);
  return rc;
}

/* At exit: a mapped unit's dropped count (kept in its descriptor) goes to its region header. */
void __pathprof_cont_exit(void)
{
  int i;
  for (i = 0; i < nmaps; i++) {
    put64(maps[i].base + 32, get64(maps[i].base + 32) + maps[i].u->hash_dropped);
    maps[i].u->hash_dropped = 0;
  }
}

/* In a forked child whose pattern names another file ("%p"): its mapped units move to regions
   of that file, from zero; with the same name, parent and child keep counting into one file. */
void __pathprof_cont_fork(const char *path)
{
  struct mapped old[MAX_MAPPED];
  char err[512];
  int i, n = nmaps;

  if (cont_fd < 0 || !strcmp(path, cont_path))
    return;
  memcpy(old, maps, sizeof old[0] * (size_t)n);
  close(cont_fd);
  cont_fd = -1;
  nmaps = 0;
  if (__pathprof_cont_open(path, err, sizeof err) != 0)
    fprintf(stderr, "pathprof: %s\n", err);
  for (i = 0; i < n; i++) {
    if (cont_fd >= 0 && move_unit(old[i].u, 0, err, sizeof err) == 0) {
      munmap(old[i].base, old[i].size);
      continue;
    }
    /* no region of its own: the child goes on counting into the parent's file (no count is
       lost or doubled, they are only not told apart) */
    fprintf(stderr, "pathprof: %s\n", err);
    maps[nmaps] = old[i];
    __atomic_store_n(&nmaps, nmaps + 1, __ATOMIC_RELEASE);
  }
}
