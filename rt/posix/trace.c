/* trace.c: the block trace of a --trace build ($PATHPROF_TRACE, doc/formats.md section 3), the
   oracle's input: one line per block entered and per activation left. */
#include "posix.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
/* The trace log, or 0 when PATHPROF_TRACE is unset or could not be opened. */
static FILE *trace_fp;
static const char *trace_name;

/* Opens the trace log named by $PATHPROF_TRACE, once; unset means no tracing. */
static void open_trace(void)
{
  const char *name = __pathprof_getenv("PATHPROF_TRACE");
  int fd;
  if (!name || !*name)
    return;
  fd = open(name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666); /* never through a link */
  trace_fp = fd >= 0 ? fdopen(fd, "a") : 0;
  if (!trace_fp) {
    if (fd >= 0)
      close(fd);
    fprintf(stderr, "pathprof: %s: cannot open trace: %s\n", name, strerror(errno));
    return;
  }
  trace_name = name;
  setvbuf(trace_fp, 0, _IOFBF, 1 << 16);
  __pathprof_backend_init(); /* make sure the exit handler flushes it */
}

/* Flushes the trace log (it stays open: code running after our exit handler may still trace). */
void __pathprof_trace_flush(void)
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

/* Before fork: the trace buffer empty, so the child can't repeat it. */
void __pathprof_trace_prefork(void)
{
  if (trace_fp)
    fflush(trace_fp);
}
