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

static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t trace_mutex = PTHREAD_MUTEX_INITIALIZER;
/* The trace log, or -1 when PATHPROF_TRACE is unset or could not be opened. */
static int trace_fd = -1;
static const char *trace_name;
static char buf[TRACE_BUF] PATHPROF_BIG;
static size_t nbuf;
static int write_failed;

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
}

/* The crash handler's flush: no lock (the process is going down, a thread holding it will not
   let go), nothing but write(2). */
void __pathprof_trace_crash(void)
{
  drain();
}

/* One trace line with every signal held off: an instrumented signal handler that traces while
   this thread holds the buffer would deadlock or interleave half lines. */
static void trace_line(char kind, struct __pathprof_unit *u, unsigned long fn, long block)
{
  sigset_t all, old;
  pthread_once(&trace_once, open_trace);
  if (trace_fd < 0)
    return;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_mutex_lock(&trace_mutex);
  if (nbuf + TRACE_LINE > sizeof buf)
    drain();
  if (block >= 0)
    nbuf += (size_t)snprintf(buf + nbuf, TRACE_LINE, "%c %016llx %lu %ld\n", kind, u ? u->checksum : 0ULL, fn, block);
  else
    nbuf += (size_t)snprintf(buf + nbuf, TRACE_LINE, "%c %016llx %lu\n", kind, u ? u->checksum : 0ULL, fn);
  pthread_mutex_unlock(&trace_mutex);
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
