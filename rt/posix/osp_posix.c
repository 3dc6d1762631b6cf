/* osp_posix.c: the POSIX back end of online subpath profiling: settings from the environment, the snapshot file at exit, on SIGUSR1 and every N seconds. */
#include "core/core.h"
#include "profile/profile.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Serialises snapshot writes (exit, signal requests, the interval thread, explicit calls). */
static pthread_mutex_t snap_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t osp_once = PTHREAD_ONCE_INIT;
static unsigned long interval;

/* A growing buffer that a snapshot streams into. */
struct membuf {
  unsigned char *p;
  size_t n, cap;
};

/* write_fn appending to a membuf. */
static int to_mem(void *ctx, const void *buf, unsigned long len)
{
  struct membuf *m = ctx;
  if (m->n + len > m->cap) {
    size_t cap = (m->cap ? 2 * m->cap : 4096) + len;
    unsigned char *p = realloc(m->p, cap);
    if (!p)
      return -1;
    m->p = p;
    m->cap = cap;
  }
  memcpy(m->p + m->n, buf, len);
  m->n += len;
  return 0;
}

/* Writes a snapshot to path, replacing it (written aside, synced, renamed). */
static int write_snapshot(const char *path)
{
  struct membuf m = { 0, 0, 0 };
  struct pp_profile p;
  char err[512];
  int rc = -1;

  memset(&p, 0, sizeof p);
  if (pathprof_osp_snapshot(to_mem, &m) != 0)
    snprintf(err, sizeof err, "%s: out of memory for the snapshot", path);
  else if (pp_profile_parse(m.p, m.n, path, &p, err, sizeof err) == 0)
    rc = __pathprof_replace(path, &p, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "pathprof: %s; no osp snapshot written\n", err);
  pp_profile_free(&p);
  free(m.p);
  return rc;
}

/* Writes a snapshot to path (0: $PATHPROF_OSP_FILE, else pathprof.osp) now. */
int pathprof_osp_write_file(const char *path)
{
  char *p = path ? 0 : __pathprof_env_path("PATHPROF_OSP_FILE", "pathprof.osp");
  int rc;
  if (!path && !p) {
    fprintf(stderr, "pathprof: pathprof.osp: out of memory\n");
    return -1;
  }
  pthread_mutex_lock(&snap_mutex);
  rc = write_snapshot(path ? path : p);
  pthread_mutex_unlock(&snap_mutex);
  free(p);
  return rc;
}

/* A number from the environment variable var: 0 when unset; -1 (after a message) when bad. */
static long long env_number(const char *var)
{
  const char *s = __pathprof_getenv(var);
  char *end;
  long long v;
  if (!s || !*s)
    return 0;
  errno = 0;
  v = strtoll(s, &end, 0);
  if (*end || errno || v <= 0) {
    fprintf(stderr, "pathprof: %s=%s is not a positive number; using the default\n", var, s);
    return -1;
  }
  return v;
}

/* The length distribution named by $PATHPROF_OSP_LENGTHS. */
static unsigned env_lengths(void)
{
  const char *s = __pathprof_getenv("PATHPROF_OSP_LENGTHS");
  if (!s || !*s || !strcmp(s, "geometric"))
    return PATHPROF_OSP_GEOMETRIC;
  if (!strcmp(s, "uniform"))
    return PATHPROF_OSP_UNIFORM;
  if (!strcmp(s, "long"))
    return PATHPROF_OSP_LONG;
  fprintf(stderr, "pathprof: PATHPROF_OSP_LENGTHS=%s is not geometric, uniform or long; using geometric\n", s);
  return PATHPROF_OSP_GEOMETRIC;
}

/* log2 of $PATHPROF_OSP_MAXLEN (a power of two from 2), 0 for the default. */
static unsigned env_maxlog(void)
{
  long long v = env_number("PATHPROF_OSP_MAXLEN");
  unsigned k = 1;
  if (v <= 0)
    return 0;
  while (k < 20 && (1LL << k) < v)
    k++;
  if ((1LL << k) != v) {
    fprintf(stderr, "pathprof: PATHPROF_OSP_MAXLEN=%lld is not a power of two from 2; using the default\n", v);
    return 0;
  }
  return k;
}

/* The settings from PATHPROF_OSP_MEMORY, _RATE, _SEED, _LENGTHS and _MAXLEN. */
static void configure_from_env(void)
{
  struct pathprof_osp_config c;
  long long v;
  memset(&c, 0, sizeof c);
  c.memory = (v = env_number("PATHPROF_OSP_MEMORY")) > 0 ? (unsigned long)v : 0;
  c.rate = (v = env_number("PATHPROF_OSP_RATE")) > 0 ? (unsigned long)v : 0;
  c.seed = (v = env_number("PATHPROF_OSP_SEED")) > 0 ? (unsigned long long)v : 0;
  c.lengths = env_lengths();
  c.max_log = env_maxlog();
  if (pathprof_osp_configure(&c) != 0) {
    fprintf(stderr, "pathprof: PATHPROF_OSP_* settings out of range (memory 1024..build bound, rate below "
            "2^24, length up to the build's); using the defaults\n");
    pathprof_osp_configure(0);
  }
}

/* At exit: the final snapshot. */
static void osp_at_exit(void)
{
  pathprof_osp_write_file(0);
}

/* SIGUSR1: a snapshot at the next block entry (writing files is no work for a signal handler). */
static void on_signal(int sig)
{
  (void)sig;
  pathprof_osp_request();
}

/* The interval thread: a snapshot every $PATHPROF_OSP_INTERVAL seconds. */
static void *every(void *arg)
{
  struct timespec ts;
  (void)arg;
  for (;;) {
    ts.tv_sec = (time_t)interval;
    ts.tv_nsec = 0;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    pathprof_osp_write_file(0);
  }
  return 0;
}

/* Once per process: settings, the exit snapshot, SIGUSR1 (unless the program handles it) and
   the interval thread. */
static void osp_init(void)
{
  struct sigaction sa, old;
  pthread_t tid;
  pthread_attr_t attr;
  long long v;

  configure_from_env();
  if (atexit(osp_at_exit) != 0)
    fprintf(stderr, "pathprof: cannot register the exit handler; no osp snapshot at exit\n");
  if (sigaction(SIGUSR1, 0, &old) == 0 && old.sa_handler == SIG_DFL) {
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, 0);
  }
  v = env_number("PATHPROF_OSP_INTERVAL");
  if (v > 0) {
    interval = (unsigned long)v;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&tid, &attr, every, 0) != 0)
      fprintf(stderr, "pathprof: cannot start the osp snapshot thread; snapshots at exit and on SIGUSR1 only\n");
    pthread_attr_destroy(&attr);
  }
}

/* Back-end hook: called at the first sampled block entry of every thread until set up. */
void __pathprof_osp_backend_init(void)
{
  pthread_once(&osp_once, osp_init);
}

/* Back-end hook: a snapshot was requested (SIGUSR1). */
void __pathprof_osp_backend_request(void)
{
  pathprof_osp_write_file(0);
}
