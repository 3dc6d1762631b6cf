/* trace.c: the block trace of a --trace build ($PATHPROF_TRACE, doc/formats.md section 3), the
   oracle's input: one line per block entered and per activation left. Lines gather in a buffer
   of our own written with write(2), so that a crash handler can still flush it. */
#include "posix.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#define TRACE_BUF 65536
#define TRACE_LINE 64 /* the longest line: "B <16 hex> <fn> <block>\n" */
#define PENDING_BUF 4096 /* signal handlers' lines while their thread traces (about 100) */

static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t trace_mutex = PTHREAD_MUTEX_INITIALIZER;
/* The trace log, or -1 when PATHPROF_TRACE is unset or could not be opened. */
static int trace_fd = -1;
static const char *trace_name;
static char buf[TRACE_BUF] PATHPROF_BIG;
static size_t nbuf;
static int write_failed;
static unsigned long lost; /* signal handlers' lines there was no room for (keep_pending) */

/* Opens the trace log named by $PATHPROF_TRACE, once; unset means no tracing. */
static void open_trace(void)
{
  const char *name = __pathprof_getenv("PATHPROF_TRACE");
  if (!name || !*name)
    return;
  trace_fd = open(name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666); /* never through a link */
  if (trace_fd < 0) {
    fprintf(stderr, "pathprof: %s: cannot open trace: %s\n", name, strerror(errno));
    return;
  }
  trace_name = name;
  __pathprof_backend_init(); /* make sure the exit handler flushes it */
}

/* Writes the buffer out (async-signal-safe: write only); remembers a failure. */
static void drain(void)
{
  if (trace_fd >= 0 && nbuf && __pathprof_write_fd(&trace_fd, buf, nbuf) != 0)
    write_failed = 1;
  nbuf = 0;
}

/* Flushes the trace log (it stays open: code running after our exit handler may still trace). */
void __pathprof_trace_flush(void)
{
  int failed;
  pthread_mutex_lock(&trace_mutex);
  drain();
  failed = write_failed;
  write_failed = 0;
  pthread_mutex_unlock(&trace_mutex);
  if (failed)
    fprintf(stderr, "pathprof: %s: cannot write trace: %s\n", trace_name, strerror(errno));
  if (__atomic_exchange_n(&lost, 0, __ATOMIC_RELAXED))
    fprintf(stderr, "pathprof: %s: trace lines of signal handlers lost (more than %d bytes of them "
            "while their thread was tracing)\n", trace_name, PENDING_BUF);
}

/* The crash handler's flush: no lock (the process is going down, a thread holding it will not
   let go), nothing but write(2). */
void __pathprof_trace_crash(void)
{
  drain();
}

/* Adds the n bytes at s to the buffer (the lock held). */
static void add(const char *s, size_t n)
{
  if (nbuf + n > sizeof buf)
    drain();
  memcpy(buf + nbuf, s, n);
  nbuf += n;
}

/* Formats one trace line into line; returns its length. */
static size_t format(char *line, char kind, const struct __pathprof_unit *u, unsigned long fn, long block)
{
  unsigned long long c = u ? u->checksum : 0ULL;
  if (block >= 0)
    return (size_t)snprintf(line, TRACE_LINE, "%c %016llx %lu %ld\n", kind, c, fn, block);
  return (size_t)snprintf(line, TRACE_LINE, "%c %016llx %lu\n", kind, c, fn);
}

/* Holds every signal off in this thread; *old gets the mask to put back. */
static void hold_signals(sigset_t *old)
{
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, old);
}

#if PATHPROF_FRAME_TLS
/* Lines that instrumented signal handlers traced while their thread was inside put_line
   (holding the lock, maybe halfway through a line): kept per thread and added after the line
   they interrupted, where holding signals off would have put them, without the two system
   calls per line that holding them off costs. pending[tail..head) is not in buf yet. */
static __thread volatile int inside;
static __thread char pending[PENDING_BUF];
static __thread volatile size_t head, tail;

/* A handler's line while its thread is in put_line (rare): appended to pending with signals
   held off, so that a handler interrupting this one cannot write over it. */
static void keep_pending(const char *line, size_t n)
{
  sigset_t old;
  hold_signals(&old);
  if (head + n <= sizeof pending) {
    memcpy(pending + head, line, n);
    head += n;
  } else {
    __atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
  }
  pthread_sigmask(SIG_SETMASK, &old, 0);
}

/* The handlers' pending lines into the buffer (the lock held, inside set: handlers only append
   meanwhile, and run to their end before this goes on). */
static void flush_pending(void)
{
  size_t h;
  while ((h = head) != tail) {
    add(pending + tail, h - tail);
    tail = h;
  }
}

/* Puts one line in the buffer. A signal handler's line while its thread is in here goes to
   pending, which this call adds after its own line; once more when one came after it let go
   of the lock. */
static void put_line(const char *line, size_t n)
{
  sigset_t old;

  if (inside) {
    keep_pending(line, n);
    return;
  }
  do {
    inside = 1;
    pthread_mutex_lock(&trace_mutex);
    add(line, n);
    n = 0;
    flush_pending();
    pthread_mutex_unlock(&trace_mutex);
    inside = 0;
  } while (head != tail); /* a handler's line came after the last look (handlers that come now
                             take the lock themselves and leave head == tail) */
  if (head) { /* room for the next handlers, with none of them halfway through a reset */
    hold_signals(&old);
    head = tail = 0;
    pthread_sigmask(SIG_SETMASK, &old, 0);
  }
}

#else
/* Puts one line in the buffer with every signal held off (no thread-locals:
   libpathprof-notls.a): an instrumented signal handler that traced while this thread held the
   lock would deadlock. */
static void put_line(const char *line, size_t n)
{
  sigset_t old;
  hold_signals(&old);
  pthread_mutex_lock(&trace_mutex);
  add(line, n);
  pthread_mutex_unlock(&trace_mutex);
  pthread_sigmask(SIG_SETMASK, &old, 0);
}
#endif

/* One trace line, when there is a trace. */
static void trace_line(char kind, struct __pathprof_unit *u, unsigned long fn, long block)
{
  char line[TRACE_LINE];
  size_t n = format(line, kind, u, fn, block);
  pthread_once(&trace_once, open_trace);
  if (trace_fd >= 0)
    put_line(line, n);
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

/* Before fork: the trace buffer empty, so the child can't repeat it, and held until after the
   fork (a child must not inherit it locked by another thread). */
void __pathprof_trace_prefork(void)
{
  pthread_mutex_lock(&trace_mutex);
  drain();
}

/* After fork, in parent and child. */
void __pathprof_trace_postfork(void)
{
  pthread_mutex_unlock(&trace_mutex);
}
