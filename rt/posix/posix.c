/* posix.c: the POSIX back end: locked merge of the counts into the profile file at exit and on
   request, fork handling, and the back-end hooks the core calls. */
#include "posix.h"
#include "profile/profile.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#define LOCK_TRIES 1000

/* Serialises profile writes within the process (fcntl locks only separate processes). */
static pthread_mutex_t write_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* One registered unit's counts as copied at the start of a write, with the hash slot each
   entry came from, so exactly these counts can be taken out of the live tables afterwards. */
struct snap {
  struct __pathprof_unit *u;
  struct pp_unitrec rec;
  unsigned long *slot;
};

/* All units' snapshots. */
struct snapshot {
  size_t n;
  struct snap *s;
};

/* Copies a C string with malloc (strdup is not C99). */
static char *dup_str(const char *s)
{
  char *d = malloc(strlen(s) + 1);
  return d ? strcpy(d, s) : 0;
}

/* "%Nm"'s signature: FNV-1a of the executable's path, so different programs never share a pool. */
static unsigned long long program_signature(void)
{
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe);
  unsigned long long h = 0xcbf29ce484222325ULL;
  ssize_t i;
  for (i = 0; i < n; i++)
    h = (h ^ (unsigned char)exe[i]) * 0x100000001b3ULL;
  return h;
}

/* The text one pattern element stands for at s (s[0] == '%') into buf; *used gets its length
   in the pattern. "%p" pid, "%h" host name, "%Nm" (N = 1..9, default 1) the program's pool
   file "<signature>_<pid % N>", "%c" nothing (it turns continuous mode on), "%%" a percent. */
static const char *pattern_piece(const char *s, char *buf, size_t len, size_t *used)
{
  int pool = 1;
  *used = 2;
  if (s[1] >= '1' && s[1] <= '9' && s[2] == 'm') {
    pool = s[1] - '0';
    *used = 3;
  }
  switch (s[*used - 1]) {
  case 'p':
    snprintf(buf, len, "%ld", (long)getpid());
    return buf;
  case 'h':
    if (gethostname(buf, len - 1) != 0)
      snprintf(buf, len, "unknown-host");
    buf[len - 1] = 0;
    return buf;
  case 'm':
    snprintf(buf, len, "%016llx_%ld", program_signature(), (long)getpid() % pool);
    return buf;
  case 'c':
    return "";
  case '%':
    return "%";
  }
  *used = 1; /* any other '%' stays as it is */
  return "%";
}

/* The file named by $var (dflt when unset or empty) with its pattern expanded (malloc'ed; 0
   when out of memory). */
char *__pathprof_env_path(const char *var, const char *dflt)
{
  const char *s = getenv(var), *piece;
  char buf[300], *out = 0, *grown;
  size_t n = 0, used, k;

  if (!s || !*s)
    s = dflt;
  for (; *s; s += used) {
    if (*s == '%') {
      piece = pattern_piece(s, buf, sizeof buf, &used);
      k = strlen(piece);
    } else {
      piece = s;
      k = used = 1;
    }
    grown = realloc(out, n + k + 1);
    if (!grown) {
      free(out);
      return 0;
    }
    out = grown;
    memcpy(out + n, piece, k);
    n += k;
  }
  if (!out)
    out = malloc(1);
  if (out)
    out[n] = 0;
  return out;
}

/* The profile file name: $PATHPROF_FILE (default "pathprof.out") with its pattern expanded. */
static char *profile_path(void)
{
  return __pathprof_env_path("PATHPROF_FILE", "pathprof.out");
}

/* Whether $PATHPROF_FILE asks for continuous mode ("%c"). */
static int wants_continuous(void)
{
  const char *s = getenv("PATHPROF_FILE");
  for (; s && *s; s++) {
    if (s[0] == '%' && s[1] == '%')
      s++;
    else if (s[0] == '%' && s[1] == 'c')
      return 1;
  }
  return 0;
}

/* Frees a snapshot. */
static void free_snapshot(struct snapshot *ss)
{
  size_t i;
  for (i = 0; i < ss->n; i++) {
    free(ss->s[i].rec.name);
    free(ss->s[i].rec.counters);
    free(ss->s[i].rec.hash);
    free(ss->s[i].slot);
  }
  free(ss->s);
  ss->s = 0;
  ss->n = 0;
}

/* Copies the used hash entries of u (key set, count > 0) and their slots into s. */
static int snap_hash(struct snap *s, const struct __pathprof_unit *u)
{
  unsigned long i, n = 0;
  const unsigned long long *e;

  for (i = 0; u->hash && i < u->hash_cap; i++)
    n += PATHPROF_ENTRY_USED(u->hash + 3 * i);
  s->rec.hash = malloc((n ? n : 1) * sizeof *s->rec.hash);
  s->slot = malloc((n ? n : 1) * sizeof *s->slot);
  if (!s->rec.hash || !s->slot)
    return -1;
  for (i = 0; u->hash && i < u->hash_cap && s->rec.nhash < n; i++) {
    e = u->hash + 3 * i;
    if (!PATHPROF_ENTRY_USED(e))
      continue;
    s->rec.hash[s->rec.nhash].fn = e[0] - 1;
    s->rec.hash[s->rec.nhash].id = e[1];
    s->rec.hash[s->rec.nhash].count = e[2];
    s->slot[s->rec.nhash++] = i;
  }
  return 0;
}

/* Copies one unit's counters, hash entries and dropped count into s. */
static int snap_unit(struct snap *s, struct __pathprof_unit *u)
{
  unsigned long i;

  memset(s, 0, sizeof *s);
  s->u = u;
  s->rec.checksum = u->checksum;
  s->rec.ncounters = u->ncounters;
  s->rec.dropped = u->hash_dropped;
  s->rec.name = dup_str(u->tables ? u->tables : "");
  s->rec.counters = malloc((u->ncounters ? u->ncounters : 1) * sizeof *s->rec.counters);
  if (!s->rec.name || !s->rec.counters)
    return -1;
  for (i = 0; i < u->ncounters; i++)
    s->rec.counters[i] = __pathprof_counter_get(u, i);
  return snap_hash(s, u);
}

/* Whether u counts in memory (not in a continuous mapping). */
static int unmapped(const struct __pathprof_unit *u)
{
  return !__pathprof_cont_mapped(u);
}

/* Copies the counts of every registered unit (with only_unmapped, of those not counting in a
   continuous mapping); 0, or -1 when out of memory. */
static int take_snapshot(struct snapshot *ss, int only_unmapped)
{
  struct __pathprof_unit *u;
  struct snap *grown;

  ss->n = 0;
  ss->s = 0;
  for (u = __pathprof_first(); u; u = __pathprof_next(u)) {
    if (only_unmapped && !unmapped(u))
      continue;
    grown = realloc(ss->s, (ss->n + 1) * sizeof *grown);
    if (!grown)
      break;
    ss->s = grown;
    if (snap_unit(&ss->s[ss->n++], u) != 0)
      break;
  }
  if (!u)
    return 0;
  free_snapshot(ss);
  return -1;
}

/* Memory for the k-slab forests (rt/core/kpath.c): malloc'd chunks, never freed before exit. */
void *__pathprof_kpath_more(unsigned long bytes)
{
  return malloc(bytes);
}

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

/* Adds the k-slab forests to p, taking their counts out of memory (a write that then fails
   loses them; the counters of the units are kept for a later write instead). */
static int add_forests(struct pp_profile *p, char *err, size_t errlen)
{
  struct membuf m = {0, 0, 0};
  struct pp_profile f = {0};
  int rc = -1;

  if (__pathprof_dump_extra(mem_write, &m, 1) != 0)
    snprintf(err, errlen, "out of memory");
  else if (pp_profile_parse(m.p, m.n, "the forests in memory", &f, err, errlen) == 0)
    rc = pp_profile_merge(p, &f, err, errlen);
  pp_profile_free(&f);
  free(m.p);
  return rc;
}

/* Builds the canonical profile the snapshot describes (sorted, equal checksums added up). */
static int snapshot_profile(const struct snapshot *ss, struct pp_profile *p, char *err,
                            size_t errlen)
{
  struct pp_profile view = {0};
  size_t i;
  int rc;

  memset(p, 0, sizeof *p);
  memset(&view, 0, sizeof view);
  view.nunits = ss->n;
  view.units = malloc((ss->n ? ss->n : 1) * sizeof *view.units);
  if (!view.units) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (i = 0; i < ss->n; i++)
    view.units[i] = ss->s[i].rec; /* shallow: merge copies what it keeps */
  rc = pp_profile_merge(p, &view, err, errlen);
  free(view.units);
  return rc == 0 ? add_forests(p, err, errlen) : rc;
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

/* Takes the snapshotted counts out of the live tables once they are safely on disk, so a
   later write adds only what was counted since, while counts made meanwhile are kept. */
static void subtract_snap(const struct snap *s)
{
  unsigned long long *e, k;

  for (k = 0; k < s->rec.ncounters && k < s->u->ncounters; k++) {
    if (s->u->counters) /* 64-bit: atomically, threads may be counting */
      take(&s->u->counters[k], s->rec.counters[k]);
    else /* 32-bit saturating counters (single updates only) */
      __pathprof_counter_set(s->u, k, minus(__pathprof_counter_get(s->u, k), s->rec.counters[k]));
  }
  for (k = 0; s->u->hash && k < s->rec.nhash; k++) {
    if (s->slot[k] >= s->u->hash_cap)
      continue;
    e = s->u->hash + 3 * s->slot[k];
    if (e[0] == s->rec.hash[k].fn + 1 && e[1] == s->rec.hash[k].id)
      take(&e[2], s->rec.hash[k].count);
  }
  take(&s->u->hash_dropped, s->rec.dropped);
}

/* subtract_snap for every unit of the snapshot. */
static void subtract_snapshot(const struct snapshot *ss)
{
  size_t i;
  for (i = 0; i < ss->n; i++)
    subtract_snap(&ss->s[i]);
}

/* Opens path (creating it) and takes an fcntl write lock on it, retrying when another writer
   renamed a new file over the path meanwhile. Returns the locked fd, or -1 with err set. */
static int open_locked(const char *path, char *err, size_t errlen)
{
  struct flock fl;
  struct stat a, b;
  int fd, r, tries;

  for (tries = 0; tries < LOCK_TRIES; tries++) {
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
      snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
      return -1;
    }
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    while ((r = fcntl(fd, F_SETLKW, &fl)) != 0 && errno == EINTR)
      ;
    if (r != 0 || fstat(fd, &a) != 0) {
      snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
      close(fd);
      return -1;
    }
    if (stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
      return fd;
    close(fd); /* the file we locked was replaced or removed: lock the new one */
  }
  snprintf(err, errlen, "%s: cannot lock: the file keeps being replaced", path);
  return -1;
}

/* Merges p into the profile at path under the lock; 0, or -1 with err set and the file
   unchanged. */
static int merge_locked(const char *path, const struct pp_profile *p, char *err, size_t errlen)
{
  struct pp_profile old = {0};
  struct stat st;
  int fd, rc, empty = 0;
  char **crashes = 0;
  size_t ncrashes = 0, i;

  fd = open_locked(path, err, errlen);
  if (fd < 0)
    return -1;
  if (fstat(fd, &st) != 0) {
    snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
    rc = -1;
  } else {
    empty = st.st_size == 0;
    rc = empty ? 0 : pp_profile_read_fd(fd, path, &old, err, errlen);
  }
  if (rc == 0) /* crash dumps beside the file join it; damaged ones stay for pathprof to name */
    pp_profile_add_crashes(path, &old, &crashes, &ncrashes, 0, err, errlen);
  if (rc == 0 && pp_profile_merge(&old, p, err, errlen) != 0) {
    size_t n = strlen(err);
    snprintf(err + n, errlen - n, " (cannot merge into %s)", path);
    rc = -1;
  }
  if (rc == 0)
    rc = pp_profile_save(&old, path, err, errlen);
  for (i = 0; i < ncrashes; i++) {
    if (rc == 0)
      unlink(crashes[i]); /* their counts are in the file now */
    free(crashes[i]);
  }
  free(crashes);
  if (rc != 0 && empty)
    unlink(path); /* don't leave the empty file we locked; waiters see it gone and retry */
  pp_profile_free(&old);
  close(fd); /* releases the lock, after the rename */
  return rc;
}

/* Saves p aside as "<path>.<pid>.bad-merge" and prints the one-line report of what failed.
   Returns 0 when the counts are safe there, -1 when they could not be saved anywhere. */
static int save_aside(const char *path, const struct pp_profile *p, const char *why)
{
  char err[1024];
  size_t n = strlen(path) + 40;
  char *bad = malloc(n);
  int rc = -1;

  if (!bad) {
    fprintf(stderr, "pathprof: %s; counts not saved: out of memory\n", why);
    return -1;
  }
  snprintf(bad, n, "%s.%ld.bad-merge", path, (long)getpid());
  rc = pp_profile_save(p, bad, err, sizeof err);
  if (rc == 0)
    fprintf(stderr, "pathprof: %s; %s left untouched, counts written to %s\n", why, path, bad);
  else
    fprintf(stderr, "pathprof: %s; counts not saved: %s\n", why, err);
  free(bad);
  return rc;
}

/* A path that names a device or pipe (/dev/null, a FIFO, a serial line): written straight
   through, never merged, locked or replaced by a regular file. */
static int is_device(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static int write_stream(const char *path, const struct pp_profile *p, char *err, size_t errlen)
{
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  int rc = fd < 0 ? -1 : pp_profile_write(p, __pathprof_write_fd, &fd);
  if (rc)
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
  if (fd >= 0)
    close(fd);
  return rc;
}

/* Writes p to path, replacing what it held: straight through when path is a device or pipe,
   else written aside and renamed. */
int __pathprof_replace(const char *path, const struct pp_profile *p, char *err, unsigned long errlen)
{
  return is_device(path) ? write_stream(path, p, err, errlen) : pp_profile_save(p, path, err, errlen);
}

/* Continuous mode: each unmapped unit's snapshot is added into its region of the mapped file
   and taken out of memory; those that cannot be are saved aside together (and taken out when
   that worked). Returns 0, or -1 after one line on stderr. */
static int write_continuous(const char *path, const struct snapshot *ss)
{
  struct pp_profile failed = {0};
  char err[1024] = "", why[1024] = "";
  unsigned char *bad = calloc(ss->n ? ss->n : 1, 1);
  size_t i;
  int rc = 0;

  for (i = 0; i < ss->n; i++) {
    if (__pathprof_cont_add(ss->s[i].u, &ss->s[i].rec, err, sizeof err) == 0) {
      subtract_snap(&ss->s[i]);
      continue;
    }
    if (!why[0])
      memcpy(why, err, sizeof why);
    rc = -1;
    if (bad && pp_profile_add_unit(&failed, &ss->s[i].rec, err, sizeof err) == 0)
      bad[i] = 1;
  }
  if (rc != 0 && save_aside(path, &failed, why) == 0)
    for (i = 0; i < ss->n; i++)
      if (bad[i])
        subtract_snap(&ss->s[i]);
  free(bad);
  pp_profile_free(&failed);
  return rc;
}

/* The whole write: snapshot, locked merge (or save aside), then take the saved counts out of
   the live tables. Returns 0, or -1 after one line on stderr (also when saved aside). */
static int write_profile(const char *path)
{
  struct snapshot ss;
  struct pp_profile p;
  char err[1024];
  int rc;

  int cont = __pathprof_continuous() && !strcmp(path, __pathprof_cont_path()), device;

  __pathprof_backend_sync();
  if (take_snapshot(&ss, cont) != 0) {
    fprintf(stderr, "pathprof: %s: out of memory\n", path);
    return -1;
  }
  if (cont) {
    rc = write_continuous(path, &ss);
    free_snapshot(&ss);
    return rc;
  }
  if (snapshot_profile(&ss, &p, err, sizeof err) != 0) {
    fprintf(stderr, "pathprof: %s: %s\n", path, err);
    free_snapshot(&ss);
    return -1;
  }
  device = is_device(path);
  rc = device ? write_stream(path, &p, err, sizeof err) : merge_locked(path, &p, err, sizeof err);
  if (rc != 0 && device) /* nothing is saved aside in /dev: the counts stay for a later write */
    fprintf(stderr, "pathprof: %s; counts not saved\n", err);
  else if (rc == 0 || save_aside(path, &p, err) == 0)
    subtract_snapshot(&ss); /* on disk, in the file or aside; else kept for a later write */
  pp_profile_free(&p);
  free_snapshot(&ss);
  return rc;
}

/* At exit: flush the trace, then merge the counts into the profile file. */
static void at_exit(void)
{
  char *path;
  __pathprof_trace_flush();
  if (!__pathprof_first())
    return;
  path = profile_path();
  if (!path) {
    fprintf(stderr, "pathprof: pathprof.out: out of memory\n");
    return;
  }
  pthread_mutex_lock(&write_mutex);
  if (__pathprof_continuous())
    __pathprof_cont_exit();
  write_profile(path);
  pthread_mutex_unlock(&write_mutex);
  free(path);
}

/* Before fork: no write in progress, and the trace buffer empty so the child can't repeat it. */
static void before_fork(void)
{
  pthread_mutex_lock(&write_mutex);
  __pathprof_shards_prefork();
  __pathprof_trace_prefork();
}

/* After fork, in the parent: let writes go on. */
static void after_fork_parent(void)
{
  __pathprof_shards_postfork(0);
  pthread_mutex_unlock(&write_mutex);
}

/* After fork, in the child: the parent will write the counts made so far, so the child starts
   from zero and writes only its own at its exit (nothing is counted twice). */
static void after_fork_child(void)
{
  char *path;
  __pathprof_shards_postfork(1);
  pthread_mutex_unlock(&write_mutex);
  path = profile_path();
  if (path && __pathprof_continuous()) /* "%p": the child's own file, from zero */
    __pathprof_cont_fork(path);
  __pathprof_backend_reset();
  __pathprof_reset_if(unmapped); /* mapped counters are fresh, or shared with the parent */
  if (path) /* "%p" names another file now */
    __pathprof_crash_names(path);
  free(path);
}

/* Registers the exit handler and the fork handlers. */
static void init(void)
{
  char *path = profile_path(), err[1024];
  if (atexit(at_exit) != 0)
    fprintf(stderr, "pathprof: cannot register the exit handler; no profile will be written\n");
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  if (path && wants_continuous() && __pathprof_cont_open(path, err, sizeof err) != 0)
    fprintf(stderr, "pathprof: %s; counts are written at exit instead\n", err);
  if (path)
    __pathprof_crash_init(path);
  free(path);
}

/* Registration of a unit built with `pathcc --continuous`, whose code counts through its
   descriptor: in continuous mode its counters move into the mapped file. */
void __pathprof_register_relocatable(struct __pathprof_unit *u)
{
  __pathprof_register(u);
  if (__pathprof_continuous() && u->next)
    __pathprof_cont_map(u);
}

/* Back-end hook the core calls at the first registration; safe to call more than once. */
void __pathprof_backend_init(void)
{
  pthread_once(&init_once, init);
}

/* Merges the counts so far into path (0: $PATHPROF_FILE) now, then takes them out of memory. */
int pathprof_write_file(const char *path)
{
  char *p = path ? dup_str(path) : profile_path();
  int rc;

  if (!p) {
    fprintf(stderr, "pathprof: %s: out of memory\n", path ? path : "pathprof.out");
    return -1;
  }
  pthread_mutex_lock(&write_mutex);
  rc = write_profile(p);
  pthread_mutex_unlock(&write_mutex);
  free(p);
  return rc;
}
