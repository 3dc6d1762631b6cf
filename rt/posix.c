/* posix.c: the POSIX back end: locked merge of the counts into the profile file at exit, trace log. */
#include "core.h"
#include "profile.h"
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
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
/* The trace log, or 0 when PATHPROF_TRACE is unset or could not be opened. */
static FILE *trace_fp;
static const char *trace_name;

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

/* The profile file name: $PATHPROF_FILE with "%p" -> pid and "%%" -> "%", or "pathprof.out". */
static char *profile_path(void)
{
  const char *s = getenv("PATHPROF_FILE");
  char pid[24], *out, *o;
  size_t n;

  if (!s || !*s)
    s = "pathprof.out";
  n = (size_t)snprintf(pid, sizeof pid, "%ld", (long)getpid());
  out = malloc(strlen(s) * (n > 2 ? n : 2) + 1);
  if (!out)
    return 0;
  for (o = out; *s; s++) {
    if (s[0] == '%' && s[1] == 'p') {
      o = strcpy(o, pid) + n;
      s++;
    } else {
      *o++ = *s;
      if (s[0] == '%' && s[1] == '%')
        s++;
    }
  }
  *o = 0;
  return out;
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
    n += u->hash[3 * i] != 0 && u->hash[3 * i + 2] != 0;
  s->rec.hash = malloc((n ? n : 1) * sizeof *s->rec.hash);
  s->slot = malloc((n ? n : 1) * sizeof *s->slot);
  if (!s->rec.hash || !s->slot)
    return -1;
  for (i = 0; u->hash && i < u->hash_cap && s->rec.nhash < n; i++) {
    e = u->hash + 3 * i;
    if (e[0] == 0 || e[2] == 0)
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

/* Copies the counts of every registered unit; 0, or -1 when out of memory. */
static int take_snapshot(struct snapshot *ss)
{
  struct __pathprof_unit *u;
  struct snap *grown;

  ss->n = 0;
  ss->s = 0;
  for (u = __pathprof_first(); u; u = __pathprof_next(u)) {
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

/* Builds the canonical profile the snapshot describes (sorted, equal checksums added up). */
static int snapshot_profile(const struct snapshot *ss, struct pp_profile *p, char *err,
                            size_t errlen)
{
  struct pp_profile view;
  size_t i;
  int rc;

  p->nunits = 0;
  p->units = 0;
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
  return rc;
}

/* live - written, never below zero (a reset may have run in between). */
static unsigned long long take(unsigned long long live, unsigned long long written)
{
  return live >= written ? live - written : 0;
}

/* Takes the snapshotted counts out of the live tables once they are safely on disk, so a
   later write adds only what was counted since, while counts made meanwhile are kept. */
static void subtract_snapshot(const struct snapshot *ss)
{
  const struct snap *s;
  unsigned long long *e;
  size_t i;
  unsigned long long k;

  for (i = 0; i < ss->n; i++) {
    s = &ss->s[i];
    for (k = 0; k < s->rec.ncounters && k < s->u->ncounters; k++)
      __pathprof_counter_set(s->u, k, take(__pathprof_counter_get(s->u, k), s->rec.counters[k]));
    for (k = 0; s->u->hash && k < s->rec.nhash; k++) {
      if (s->slot[k] >= s->u->hash_cap)
        continue;
      e = s->u->hash + 3 * s->slot[k];
      if (e[0] == s->rec.hash[k].fn + 1 && e[1] == s->rec.hash[k].id)
        e[2] = take(e[2], s->rec.hash[k].count);
    }
    s->u->hash_dropped = take(s->u->hash_dropped, s->rec.dropped);
  }
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
  struct pp_profile old = {0, 0};
  struct stat st;
  int fd, rc, empty = 0;

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
  if (rc == 0 && pp_profile_merge(&old, p, err, errlen) != 0) {
    size_t n = strlen(err);
    snprintf(err + n, errlen - n, " (cannot merge into %s)", path);
    rc = -1;
  }
  if (rc == 0)
    rc = pp_profile_save(&old, path, err, errlen);
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

static int write_fd(void *ctx, const void *buf, unsigned long len)
{
  const char *p = buf;
  while (len) {
    ssize_t n = write(*(int *)ctx, p, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    p += n;
    len -= (unsigned long)n;
  }
  return 0;
}

static int write_stream(const char *path, const struct pp_profile *p, char *err, size_t errlen)
{
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  int rc = fd < 0 ? -1 : pp_profile_write(p, write_fd, &fd);
  if (rc)
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
  if (fd >= 0)
    close(fd);
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

  if (take_snapshot(&ss) != 0) {
    fprintf(stderr, "pathprof: %s: out of memory\n", path);
    return -1;
  }
  if (snapshot_profile(&ss, &p, err, sizeof err) != 0) {
    fprintf(stderr, "pathprof: %s: %s\n", path, err);
    free_snapshot(&ss);
    return -1;
  }
  rc = is_device(path) ? write_stream(path, &p, err, sizeof err) : merge_locked(path, &p, err, sizeof err);
  if (rc == 0 || save_aside(path, &p, err) == 0)
    subtract_snapshot(&ss); /* on disk, in the file or aside; else kept for a later write */
  pp_profile_free(&p);
  free_snapshot(&ss);
  return rc;
}

/* Opens the trace log named by $PATHPROF_TRACE, once; unset means no tracing. */
static void open_trace(void)
{
  const char *name = getenv("PATHPROF_TRACE");
  if (!name || !*name)
    return;
  trace_fp = fopen(name, "a");
  if (!trace_fp) {
    fprintf(stderr, "pathprof: %s: cannot open trace: %s\n", name, strerror(errno));
    return;
  }
  trace_name = name;
  setvbuf(trace_fp, 0, _IOFBF, 1 << 16);
  __pathprof_backend_init(); /* make sure the exit handler flushes it */
}

/* Flushes the trace log (it stays open: code running after our exit handler may still trace). */
static void flush_trace(void)
{
  if (trace_fp && (fflush(trace_fp) != 0 || ferror(trace_fp))) {
    fprintf(stderr, "pathprof: %s: cannot write trace: %s\n", trace_name, strerror(errno));
    clearerr(trace_fp);
  }
}

/* The trace log, opened on first use, or 0 when not tracing. */
static FILE *trace_log(void)
{
  pthread_once(&trace_once, open_trace);
  return trace_fp;
}

/* One trace line with every signal held off: an instrumented signal handler that traces while
   this thread is inside stdio would deadlock on the FILE lock or interleave half lines. */
static void trace_line(char kind, struct __pathprof_unit *u, unsigned long fn, long block)
{
  FILE *f = trace_log();
  sigset_t all, old;
  if (!f)
    return;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  if (block >= 0)
    fprintf(f, "%c %016llx %lu %ld\n", kind, u ? u->checksum : 0ULL, fn, block);
  else
    fprintf(f, "%c %016llx %lu\n", kind, u ? u->checksum : 0ULL, fn);
  pthread_sigmask(SIG_SETMASK, &old, 0);
}

/* Logs that control entered block `block` of function fn (doc/formats.md section 3). */
void __pathprof_trace_block(struct __pathprof_unit *u, unsigned long fn, unsigned long block)
{
  trace_line('B', u, fn, (long)block);
}

/* Logs that the current activation of function fn is returning. */
void __pathprof_trace_leave(struct __pathprof_unit *u, unsigned long fn)
{
  trace_line('X', u, fn, -1);
}

/* At exit: flush the trace, then merge the counts into the profile file. */
static void at_exit(void)
{
  char *path;
  flush_trace();
  if (!__pathprof_first())
    return;
  path = profile_path();
  if (!path) {
    fprintf(stderr, "pathprof: pathprof.out: out of memory\n");
    return;
  }
  pthread_mutex_lock(&write_mutex);
  write_profile(path);
  pthread_mutex_unlock(&write_mutex);
  free(path);
}

/* Before fork: no write in progress, and the trace buffer empty so the child can't repeat it. */
static void before_fork(void)
{
  pthread_mutex_lock(&write_mutex);
  if (trace_fp)
    fflush(trace_fp);
}

/* After fork, in the parent: let writes go on. */
static void after_fork_parent(void)
{
  pthread_mutex_unlock(&write_mutex);
}

/* After fork, in the child: the parent will write the counts made so far, so the child starts
   from zero and writes only its own at its exit (nothing is counted twice). */
static void after_fork_child(void)
{
  pthread_mutex_unlock(&write_mutex);
  pathprof_reset();
}

/* Registers the exit handler and the fork handlers. */
static void init(void)
{
  if (atexit(at_exit) != 0)
    fprintf(stderr, "pathprof: cannot register the exit handler; no profile will be written\n");
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
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
