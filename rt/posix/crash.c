/* crash.c: fatal signals (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) write the counts with
   async-signal-safe code only (open, write, fsync, rename; no malloc, no stdio, no lock) to
   "<profile>.crash.<pid>", which the next write of the profile and every pathprof read add in;
   then the signal's default action runs as if we had not been there. */
#include "posix.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h> /* rename only: no stream is used here */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#define ALT_STACK 65536

static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
#define NFATAL ((int)(sizeof fatal / sizeof fatal[0]))

/* Names prepared outside the handler: the crash dump, its temporary, and whether the profile
   is a device (then the dump goes straight to it). Empty name: no dump. */
static char crash_name[PATH_MAX + 32], crash_tmp[PATH_MAX + 40];
static int to_device;
static volatile sig_atomic_t crashing;
static char alt_stack[ALT_STACK];

/* Writes the decimal digits of v at p; returns the end. */
static char *put_dec(char *p, long v)
{
  char d[24];
  int n = 0;
  do
    d[n++] = (char)('0' + v % 10);
  while ((v /= 10) > 0);
  while (n)
    *p++ = d[--n];
  *p = 0;
  return p;
}

/* Prepares the names for this process's profile path (again after fork: the pid changed). */
void __pathprof_crash_names(const char *path)
{
  struct stat st;
  size_t n = strlen(path);
  char *p;

  crash_name[0] = crash_tmp[0] = 0;
  if (n > PATH_MAX)
    return;
  to_device = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  memcpy(crash_name, path, n);
  if (to_device) {
    crash_name[n] = 0;
    return;
  }
  p = put_dec(strcpy(crash_name + n, ".crash.") + 7, (long)getpid());
  memcpy(crash_tmp, crash_name, (size_t)(p - crash_name));
  strcpy(crash_tmp + (p - crash_name), ".tmp");
}

/* Whether u's counts are only in memory (mapped ones are in the continuous file already). */
static int not_mapped(const struct __pathprof_unit *u)
{
  return !__pathprof_cont_mapped(u);
}

/* The handler: one dump (the first fatal signal of any thread), then the default action. */
static void on_fatal(int sig)
{
  int fd, rc, saved = errno;
  static const char msg[] = "pathprof: fatal signal: counts written to ";

  if (!crashing && crash_name[0]) {
    crashing = 1;
    fd = open(to_device ? crash_name : crash_tmp, O_WRONLY | O_CLOEXEC | (to_device ? 0 : O_CREAT | O_TRUNC), 0666);
    if (fd >= 0) {
      __pathprof_crash_sync();
      rc = __pathprof_dump_if(__pathprof_write_fd, &fd, not_mapped);
      if (!to_device)
        rc |= fsync(fd);
      close(fd);
      if (!to_device && (rc != 0 || rename(crash_tmp, crash_name) != 0))
        unlink(crash_tmp);
      else if (write(2, msg, sizeof msg - 1) > 0 && write(2, crash_name, strlen(crash_name)) > 0)
        (void)!write(2, "\n", 1);
    }
  }
  signal(sig, SIG_DFL);
  errno = saved;
  raise(sig); /* delivered when we return: the default action, a core dump if enabled */
}

/* Installs the handler for each fatal signal whose action is still the default (a program's
   own handler is left alone), on an alternate stack so a stack overflow is caught too. */
void __pathprof_crash_init(const char *path)
{
  struct sigaction sa, old;
  stack_t ss;
  int i;

  __pathprof_crash_names(path);
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, 0);
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  for (i = 0; i < NFATAL; i++)
    if (sigaction(fatal[i], 0, &old) == 0 && old.sa_handler == SIG_DFL)
      sigaction(fatal[i], &sa, 0);
}

/* Writes all of buf to the fd *(int *)ctx, retrying after signals; async-signal-safe. */
int __pathprof_write_fd(void *ctx, const void *buf, unsigned long len)
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
