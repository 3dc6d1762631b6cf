/* crash.c: fatal signals (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) and terminating ones (SIGTERM,
   SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGUSR2) left at their
   default action write the counts with async-signal-safe code only (open, write, linkat, rename,
   unlink, close; no malloc, no stdio, no lock) to "<profile>.crash.<pid>", which the next write
   of the profile and every pathprof read add in (a mark beside it, made before the dump and
   again after it, tells the next writer to look); then the signal's default action
   runs as if we had not been there. $PATHPROF_SIGNALS: "none" installs nothing, "fatal" the first kind. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "posix.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h> /* rename only: no stream is used here */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#define ALT_STACK 65536
#define NAME_TRIES 10
#define WAIT_MS 10000 /* how long a second signal waits for the first one's dump */

static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
static const int terminating[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGXFSZ,
                                   SIGVTALRM, SIGPROF, SIGUSR2 };
#define NFATAL ((int)(sizeof fatal / sizeof fatal[0]))
#define NTERM ((int)(sizeof terminating / sizeof terminating[0]))

/* The profile's path, kept outside the handler (empty: no dump); the names the handler makes of
   it (async-signal-safe: no syscall or page touched at startup for them): the profile's
   directory, the crash dump's name and its fallback temporary, the mark, and whether the
   profile is a device (then the dump goes straight to it). */
static char crash_path[PATH_MAX + 1];
static char crash_dir[PATH_MAX + 2] PATHPROF_BIG, crash_name[PATH_MAX + 48] PATHPROF_BIG,
  crash_tmp[PATH_MAX + 56] PATHPROF_BIG, crash_mark[PATH_MAX + 10] PATHPROF_BIG;
static size_t name_len;
static int to_device;
/* 0 no dump yet, 1 one thread dumping, 2 done: the first signal dumps, the others wait. */
static int dump_state;
/* Profile writes in progress (their thread holds the handled signals off meanwhile). */
static int writing;
static sigset_t handled;
static char alt_stack[ALT_STACK] PATHPROF_BIG;

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

/* Keeps this process's profile path for the handler (again after fork: "%p" may differ). */
void __pathprof_crash_names(const char *path)
{
  size_t n = strlen(path);
  crash_path[0] = 0;
  if (n <= PATH_MAX)
    memcpy(crash_path, path, n + 1);
}

/* In the handler: the names of the dump, its temporary and the mark beside the profile, with
   this process's pid; 0, or -1 when there is no profile path. */
static int make_names(void)
{
  struct stat st;
  const char *path = crash_path, *slash = strrchr(path, '/');
  size_t n = strlen(path);
  char *p;

  crash_name[0] = crash_tmp[0] = crash_dir[0] = crash_mark[0] = 0;
  if (!n)
    return -1;
  to_device = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  memcpy(crash_name, path, n + 1);
  if (to_device)
    return 0;
  __pathprof_mark_name(path, crash_mark, sizeof crash_mark);
  memcpy(crash_dir, path, slash ? (size_t)(slash - path) + 1 : 0); /* "dir/." or "." */
  strcpy(crash_dir + (slash ? (slash - path) + 1 : 0), ".");
  p = put_dec(strcpy(crash_name + n, ".crash.") + 7, (long)getpid());
  name_len = (size_t)(p - crash_name);
  memcpy(crash_tmp, crash_name, name_len);
  strcpy(crash_tmp + name_len, ".tmp");
  return 0;
}

/* Whether u's counts are only in memory (mapped ones are in the continuous file already). */
static int not_mapped(const struct __pathprof_unit *u)
{
  return !__pathprof_cont_mapped(u);
}

/* Gives the anonymous file fd its name: "<profile>.crash.<pid>", or with a digit after it when
   that name is taken (never replaced, never followed: linkat makes a new name or fails). */
static int link_dump(int fd)
{
  char proc[40] = "/proc/self/fd/";
  int i;
  put_dec(proc + 14, fd);
  for (i = 0; i < NAME_TRIES; i++) {
    if (i)
      put_dec(crash_name + name_len, i - 1);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, crash_name, AT_SYMLINK_FOLLOW) == 0)
      return 0;
    if (errno != EEXIST)
      break;
  }
  crash_name[name_len] = 0;
  return -1;
}

/* The mark that crash dumps may lie beside the profile at path, "<dir>/.<name>.crashed" (hidden:
   a glob of the profile's name does not collect it), into buf of len bytes ("" when too long). */
void __pathprof_mark_name(const char *path, char *buf, size_t len)
{
  const char *slash = strrchr(path, '/');
  size_t nd = slash ? (size_t)(slash - path) + 1 : 0, n = strlen(path);
  buf[0] = 0;
  if (n + 10 > len)
    return;
  memcpy(buf, path, nd);
  buf[nd] = '.';
  memcpy(buf + nd + 1, path + nd, n - nd);
  strcpy(buf + n + 1, ".crashed");
}

/* Makes the file at name if there is none (never through a link, never waiting on a FIFO). */
void __pathprof_touch(const char *name)
{
  int fd = open(name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd >= 0)
    close(fd);
}

/* The dump to the named temporary "<dump>.tmp" (created with O_EXCL|O_NOFOLLOW, a dead
   process's left there is removed by the next profile write), renamed when complete: for file
   systems without O_TMPFILE and processes without /proc. 0 when written. */
static int dump_named(void)
{
  int fd, rc;
  unlink(crash_tmp);
  fd = open(crash_tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0)
    return -1;
  __pathprof_touch(crash_mark); /* a temporary of ours left by a kill is then looked at */
  __pathprof_crash_sync();
  rc = __pathprof_dump_if(__pathprof_write_fd, &fd, not_mapped);
  close(fd);
  if (rc != 0 || rename(crash_tmp, crash_name) != 0) {
    unlink(crash_tmp);
    return -1;
  }
  return 0;
}

/* The dump to an anonymous file in the profile's directory (O_TMPFILE) that gets its name only
   once complete, so a process killed mid-dump leaves nothing. 0 when written, -1 when the
   counts could not be written, 1 when the file could not be made or named (no O_TMPFILE, or no
   /proc for linkat): the caller then writes the named temporary. */
static int dump_anonymous(void)
{
  int fd = -1, rc;
#ifdef O_TMPFILE
  if (access("/proc/self/fd", X_OK) == 0) /* linkat names the file through it */
    fd = open(crash_dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
#endif
  if (fd < 0)
    return 1;
  __pathprof_touch(crash_mark);
  __pathprof_crash_sync();
  rc = __pathprof_dump_if(__pathprof_write_fd, &fd, not_mapped);
  if (rc == 0 && link_dump(fd) != 0)
    rc = 1;
  close(fd);
  return rc;
}

/* Writes the dump, anonymous first, else to the named temporary, so a missing /proc or
   O_TMPFILE loses no counts; the mark is made again after it (a writer may have taken the
   first one meanwhile). 0 when written. */
static int write_dump(void)
{
  int rc = dump_anonymous();
  if (rc == 1)
    rc = dump_named();
  if (rc == 0)
    __pathprof_touch(crash_mark);
  return rc;
}

/* Waits (sleeping, async-signal-safe) while *flag holds busy, at most WAIT_MS. */
static void wait_while(int *flag, int busy)
{
  struct timespec ms = { 0, 1000000 };
  int i;
  for (i = 0; i < WAIT_MS && __atomic_load_n(flag, __ATOMIC_ACQUIRE) == busy; i++)
    nanosleep(&ms, 0);
}

/* A profile write starts in this thread: the handled signals wait until it ends (so a dump
   never repeats counts the write is saving), and other threads' handlers wait for it. */
void __pathprof_write_begin(sigset_t *old)
{
  pthread_sigmask(SIG_BLOCK, &handled, old);
  __atomic_add_fetch(&writing, 1, __ATOMIC_ACQ_REL);
}

/* The write is over: its counts are on disk and out of memory. */
void __pathprof_write_end(const sigset_t *old)
{
  __atomic_sub_fetch(&writing, 1, __ATOMIC_ACQ_REL);
  pthread_sigmask(SIG_SETMASK, old, 0);
}

/* The handler: the first signal of any thread flushes the trace and dumps (a write of the
   profile in progress in another thread is waited for, so nothing is counted twice), later ones
   wait for that; then the default action. Nothing is printed: the next write of the profile
   and every pathprof read find the dump. */
static void on_signal(int sig)
{
  int expect = 0, saved = errno, fd = -1;

  wait_while(&writing, 1);
  if (__atomic_compare_exchange_n(&dump_state, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    __pathprof_trace_crash(); /* the trace's buffer, with write(2) only, by this thread alone */
    if (!crash_path[0] || make_names() != 0)
      ;
    else if (to_device && (fd = open(crash_name, O_WRONLY | O_CLOEXEC | O_NOCTTY)) >= 0) {
      __pathprof_crash_sync();
      __pathprof_dump_if(__pathprof_write_fd, &fd, not_mapped);
      close(fd);
    } else if (!to_device) {
      write_dump(); /* silently: what the program writes on stderr is its own (a test of a
                       child killed by SIGTERM may want nothing there) */
    }
    __atomic_store_n(&dump_state, 2, __ATOMIC_RELEASE);
  } else {
    wait_while(&dump_state, 1);
  }
  signal(sig, SIG_DFL);
  errno = saved;
  raise(sig); /* blocked in the handler; delivered when it returns: the default action */
}

/* Installs on_signal for each of the n signals whose action is still the default (a program's
   own handler, or an ignored signal, is left alone), with all of them held off inside it. One
   call a signal: on_signal goes in and the action found is put back when it was not the
   default, the signals held off meanwhile (one arriving then meets the action put back: an
   ignored one is discarded, a program's handler runs). */
static void install(const int *sigs, int n, const sigset_t *mask)
{
  struct sigaction sa, old;
  sigset_t before;
  int i;

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_mask = *mask;
  sa.sa_flags = SA_ONSTACK;
  pthread_sigmask(SIG_BLOCK, mask, &before);
  for (i = 0; i < n; i++)
    if (sigaction(sigs[i], &sa, &old) == 0 && ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL))
      sigaction(sigs[i], &old, 0);
  pthread_sigmask(SIG_SETMASK, &before, 0);
}

/* sigaction as instrumented code calls it (pathcc renames the calls): on a signal the runtime
   handles, its handler stands for the default action, which it ends in. A program asking sees
   SIG_DFL where it left the default (so what it saves and puts back is what it would be without
   us: CPython's signal module refuses to restore a handler it did not make), and setting SIG_DFL
   keeps the handler (or puts it back). */
int __pathprof_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
  struct sigaction cur, mine;
  int ours, rc = 0;

  if (sigismember(&handled, sig) != 1 || sigaction(sig, 0, &cur) != 0)
    return sigaction(sig, act, old);
  ours = !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == on_signal;
  if (act && !(act->sa_flags & SA_SIGINFO) && act->sa_handler == SIG_DFL) {
    memset(&mine, 0, sizeof mine);
    mine.sa_handler = on_signal;
    mine.sa_mask = handled;
    mine.sa_flags = SA_ONSTACK;
    rc = ours ? 0 : sigaction(sig, &mine, 0);
  } else if (act) {
    rc = sigaction(sig, act, 0);
  }
  if (rc == 0 && old && ours) {
    memset(old, 0, sizeof *old);
    old->sa_handler = SIG_DFL;
  } else if (rc == 0 && old) {
    *old = cur;
  }
  return rc;
}

/* signal() through __pathprof_sigaction, with the flags and mask of its flavour. */
static void (*set_handler(int sig, void (*handler)(int), int flags, int mask_it))(int)
{
  struct sigaction sa, old;
  if (handler == SIG_ERR) {
    errno = EINVAL;
    return SIG_ERR;
  }
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = flags;
  sigemptyset(&sa.sa_mask);
  if (mask_it)
    sigaddset(&sa.sa_mask, sig);
  return __pathprof_sigaction(sig, &sa, &old) == 0 ? old.sa_handler : SIG_ERR;
}

/* signal as instrumented code calls it: the BSD flavour (glibc's default, musl's only one). */
void (*__pathprof_signal(int sig, void (*handler)(int)))(int)
{
  return sigismember(&handled, sig) == 1 ? set_handler(sig, handler, SA_RESTART, 1) : signal(sig, handler);
}

/* The System V flavour, which glibc's strict ISO and POSIX modes bind signal to: the handler
   runs once, not held off while it runs. */
void (*__pathprof_sysv_signal(int sig, void (*handler)(int)))(int)
{
  return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, 0); /* glibc's __sysv_signal's flags */
}

/* Installs the handlers at the first registration, as $PATHPROF_SIGNALS says, on an alternate
   stack so a stack overflow is caught too. */
void __pathprof_crash_init(const char *path)
{
  const char *how = __pathprof_getenv("PATHPROF_SIGNALS");
  stack_t ss;
  int i, sigs[NFATAL + NTERM];

  sigemptyset(&handled);
  if (how && !strcmp(how, "none"))
    return;
  __pathprof_crash_names(path);
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, 0);
  for (i = 0; i < NFATAL; i++)
    sigaddset(&handled, fatal[i]);
  for (i = 0; i < NTERM; i++)
    sigaddset(&handled, terminating[i]);
  for (i = 0; i < NFATAL + NTERM; i++)
    sigs[i] = i < NFATAL ? fatal[i] : terminating[i - NFATAL];
  install(sigs, how && !strcmp(how, "fatal") ? NFATAL : NFATAL + NTERM, &handled);
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
