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
static struct mapped maps[MAX_MAPPED];
static volatile int nmaps;
static char cont_path[4096];

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

/* Opens (creating, with its header page) the continuous profile at path; 0, or -1 with err. */
int __pathprof_cont_open(const char *path, char *err, size_t errlen)
{
  unsigned char h[PP_CONT_HEADER];
  struct stat st;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

  page = (size_t)sysconf(_SC_PAGESIZE);
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: cannot open for continuous mode: %s", path, fd < 0 ? strerror(errno) : "not a regular file");
    if (fd >= 0)
      close(fd);
    return -1;
  }
  cont_fd = fd;
  snprintf(cont_path, sizeof cont_path, "%s", path);
  lock_file(F_WRLCK);
  if (fstat(fd, &st) == 0 && st.st_size == 0) {
    memset(h, 0, sizeof h);
    memcpy(h, PP_CONT_MAGIC, 8);
    put32(h + 8, 1);
    put32(h + 12, (unsigned long)page);
    {
      unsigned int bom = (unsigned int)PP_CONT_BOM; /* native order: a big-endian file says so */
      memcpy(h + 16, &bom, 4);
    }
    put32(h + 20, 0);
    if (posix_fallocate(fd, 0, (off_t)page) != 0 || pwrite(fd, h, sizeof h, 0) != (ssize_t)sizeof h) {
      snprintf(err, errlen, "%s: cannot write the continuous header: %s", path, strerror(errno));
      ftruncate(fd, 0);
      lock_file(F_UNLCK);
      close(fd);
      cont_fd = -1;
      return -1;
    }
  } else if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h || memcmp(h, PP_CONT_MAGIC, 8) != 0 ||
             get64(h + 12) % 0x100000000ULL != page) {
    snprintf(err, errlen, "%s: not a continuous profile of this machine's page size", path);
    lock_file(F_UNLCK);
    close(fd);
    cont_fd = -1;
    return -1;
  }
  lock_file(F_UNLCK);
  return 0;
}

/* Rounds n up to a multiple of the page size. */
static size_t round_page(size_t n)
{
  return (n + page - 1) / page * page;
}

/* Finds u's region (same checksum and sizes) or appends one, under the file lock held by the
   caller; *off and *size get where it is. 0, or -1 with err set. */
static int find_region(const struct __pathprof_unit *u, off_t *off, size_t *size, char *err, size_t errlen)
{
  unsigned char h[PP_CONT_REGION];
  struct stat st;
  size_t len = u->tables ? strlen(u->tables) : 0, data, s;
  off_t at;

  if (fstat(cont_fd, &st) != 0)
    return snprintf(err, errlen, "%s: cannot stat: %s", cont_path, strerror(errno)), -1;
  for (at = (off_t)page; at + PP_CONT_REGION <= st.st_size; at += (off_t)get64(h + 48)) {
    if (pread(cont_fd, h, sizeof h, at) != (ssize_t)sizeof h || get64(h) % 0x100000000ULL != PP_CONT_TAG ||
        get64(h + 48) == 0 || get64(h + 48) % page)
      return snprintf(err, errlen, "%s: damaged region at byte %lld", cont_path, (long long)at), -1;
    if (get64(h + 8) == u->checksum && get64(h + 16) == u->ncounters && get64(h + 24) == u->hash_cap) {
      *off = at;
      *size = (size_t)get64(h + 48);
      return 0;
    }
  }
  data = round_page(PP_CONT_REGION + len);
  s = round_page(data + 8 * (size_t)u->ncounters + 24 * (size_t)u->hash_cap);
  memset(h, 0, sizeof h);
  put32(h, PP_CONT_TAG);
  put32(h + 4, (unsigned long)len);
  put64(h + 8, u->checksum);
  put64(h + 16, u->ncounters);
  put64(h + 24, u->hash_cap);
  put64(h + 40, data);
  put64(h + 48, s);
  errno = posix_fallocate(cont_fd, at, (off_t)s); /* blocks reserved now: no SIGBUS on a full disk later */
  if (errno != 0 || pwrite(cont_fd, h, sizeof h, at) != (ssize_t)sizeof h ||
      (len && pwrite(cont_fd, u->tables, len, at + PP_CONT_REGION) != (ssize_t)len)) {
    snprintf(err, errlen, "%s: cannot add a region: %s", cont_path, strerror(errno));
    ftruncate(cont_fd, at);
    return -1;
  }
  *off = at;
  *size = s;
  return 0;
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
    return snprintf(err, errlen, "%s: cannot map: %s", cont_path, strerror(errno)), -1;
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

/* Adds the counts in rec (an unmapped unit u's snapshot) into u's region. 0, or -1 with err. */
int __pathprof_cont_add(const struct __pathprof_unit *u, const struct pp_unitrec *rec, char *err, size_t errlen)
{
  struct mapped m;
  unsigned long long *c, *e, j, k;
  unsigned long i;
  int rc;

  pthread_mutex_lock(&cont_mutex);
  rc = map_region(u, &m, err, errlen);
  pthread_mutex_unlock(&cont_mutex);
  if (rc != 0)
    return -1;
  c = (unsigned long long *)(void *)(m.base + m.data);
  for (i = 0; i < rec->ncounters && i < u->ncounters; i++)
    __atomic_fetch_add(&c[i], rec->counters[i], __ATOMIC_RELAXED);
  for (k = 0; k < rec->nhash; k++) { /* a free or matching slot, else dropped */
    for (j = 0; j < u->hash_cap; j++) {
      e = c + u->ncounters + 3 * j;
      if (e[0] == 0 || (e[0] == rec->hash[k].fn + 1 && e[1] == rec->hash[k].id))
        break;
    }
    if (j == u->hash_cap) {
      put64(m.base + 32, get64(m.base + 32) + rec->hash[k].count);
      continue;
    }
    e[1] = rec->hash[k].id;
    e[0] = rec->hash[k].fn + 1;
    __atomic_fetch_add(&e[2], rec->hash[k].count, __ATOMIC_RELAXED);
  }
  put64(m.base + 32, get64(m.base + 32) + rec->dropped);
  rc = msync(m.base, m.size, MS_SYNC);
  munmap(m.base, m.size);
  if (rc != 0)
    snprintf(err, errlen, "%s: cannot sync: %s", cont_path, strerror(errno));
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
