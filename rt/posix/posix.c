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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* Serialises profile writes within the process (fcntl locks only separate processes). */
static pthread_mutex_t write_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

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

/* Whether the process runs with AT_SECURE (setuid, setgid, file capabilities): the kernel's
   word where there is one, else real and effective ids differing. */
static int privileged(void)
{
#if defined(__linux__) && defined(AT_SECURE)
  return getauxval(AT_SECURE) != 0;
#else
  return getuid() != geteuid() || getgid() != getegid();
#endif
}

/* $name for a PATHPROF_* setting, or 0 when unset, or when the program is privileged: then
   whoever starts it must not choose where it writes with its privileges, and the first setting
   ignored is named in one line on stderr. */
const char *__pathprof_getenv(const char *name)
{
  static int told;
  const char *s = getenv(name);
  if (!s || !privileged())
    return s;
  if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "pathprof: privileged program (setuid, setgid or capabilities): %s and every other "
            "PATHPROF_* setting ignored; the profile goes to pathprof.out in the working directory\n", name);
  return 0;
}

/* The file named by $var (dflt when unset or empty) with its pattern expanded (malloc'ed; 0
   when out of memory). */
char *__pathprof_env_path(const char *var, const char *dflt)
{
  const char *s = __pathprof_getenv(var), *piece;
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

/* Where relative profile names start, chosen at start-up (init): a program that changes
   directory still writes where its build is, as gcov's counts follow the objects. */
static char *start_dir, *home_dir;

/* At start-up: start_dir, the working directory, which a relative $PATHPROF_FILE is taken
   from; home_dir, where the default profile goes: the directory the program was linked into
   (linkdir.c) while it is one the program may write in, else start_dir (a privileged program:
   the working directory at exit, as the warning in __pathprof_getenv says). */
static void choose_dirs(void)
{
  char cwd[4096];
  const char *link = __pathprof_link_dir();
  struct stat st;

  start_dir = getcwd(cwd, sizeof cwd) ? dup_str(cwd) : 0;
  if (link && link[0] == '/' && !privileged() && stat(link, &st) == 0 && S_ISDIR(st.st_mode) &&
      access(link, W_OK | X_OK) == 0)
    home_dir = dup_str(link);
  else if (!privileged())
    home_dir = start_dir;
}

/* The profile file name: $PATHPROF_FILE with its pattern expanded, taken from start_dir when
   relative; unset, pathprof.out in home_dir. */
static char *profile_path(void)
{
  const char *s = __pathprof_getenv("PATHPROF_FILE");
  const char *dir = s && *s ? start_dir : home_dir;
  char *name = __pathprof_env_path("PATHPROF_FILE", "pathprof.out"), *full;

  if (!name || name[0] == '/' || !dir)
    return name;
  full = malloc(strlen(dir) + strlen(name) + 2);
  if (full)
    sprintf(full, "%s/%s", dir, name);
  free(name);
  return full;
}

/* Whether $PATHPROF_FILE asks for continuous mode ("%c"). */
static int wants_continuous(void)
{
  const char *s = __pathprof_getenv("PATHPROF_FILE");
  for (; s && *s; s++) {
    if (s[0] == '%' && s[1] == '%')
      s++;
    else if (s[0] == '%' && s[1] == 'c')
      return 1;
  }
  return 0;
}

/* Whether u counts in memory (not in a continuous mapping). */
static int unmapped(const struct __pathprof_unit *u)
{
  return !__pathprof_cont_mapped(u);
}

/* Memory for the k-slab forests (rt/core/kpath.c): malloc'd chunks, never freed before exit. */
void *__pathprof_kpath_more(unsigned long bytes)
{
  return malloc(bytes);
}

/* Memory for a unit's extra hash tables (rt/core/hash.c): an anonymous mapping, zeroed and
   made real page by page as entries fill it, never freed; not malloc, which the program may
   have instrumented (a hash-mode function in its allocator would call itself). */
void *__pathprof_hash_more(unsigned long bytes)
{
  void *p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? 0 : p;
}

/* Whether $PATHPROF_SYNC asks for durability beyond the atomic rename: fsync of what was
   written and of the directory (off by default, as gcov and llvm do). */
static int wants_sync(void)
{
  const char *s = __pathprof_getenv("PATHPROF_SYNC");
  return s && !strcmp(s, "1");
}

/* Saves the snapshot aside as "<path>.<pid>.bad-merge" and prints the one-line report of what
   failed. Returns 0 when the counts are safe there, -1 when they could not be saved anywhere. */
static int save_aside(const char *path, const struct __pathprof_snapshot *ss, const char *why)
{
  char err[1024];
  size_t n = strlen(path) + 40;
  char *bad = malloc(n);
  struct pp_profile p;
  int rc = -1;

  if (!bad || __pathprof_snapshot_profile(ss, &p, err, sizeof err) != 0) {
    fprintf(stderr, "pathprof: %s; counts not saved: out of memory\n", why);
    free(bad);
    return -1;
  }
  snprintf(bad, n, "%s.%ld.bad-merge", path, (long)getpid());
  rc = pp_profile_save_flags(&p, bad, wants_sync() ? PP_SAVE_SYNC : 0, err, sizeof err);
  if (rc == 0)
    fprintf(stderr, "pathprof: %s; %s left untouched, counts written to %s\n", why, path, bad);
  else
    fprintf(stderr, "pathprof: %s; counts not saved: %s\n", why, err);
  pp_profile_free(&p);
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

/* Writes p straight to the device or pipe at path (a regular file reached through a link that
   replaced the device meanwhile is not written). */
static int write_stream(const char *path, const struct pp_profile *p, char *err, size_t errlen)
{
  return pp_profile_save_flags(p, path, 0, err, errlen);
}

/* Writes p to path, replacing what it held: straight through when path is a device or pipe,
   else written aside and renamed. */
int __pathprof_replace(const char *path, const struct pp_profile *p, char *err, unsigned long errlen)
{
  return pp_profile_save_flags(p, path, wants_sync() ? PP_SAVE_SYNC : 0, err, errlen);
}

/* The whole write: snapshot, locked merge into the file (filemerge.c) or save aside, then take
   the saved counts out of the live tables. In continuous mode the mapped units are in the
   file already. Returns 0, or -1 after one line on stderr (also when saved aside). */
static int write_profile(const char *path)
{
  struct __pathprof_snapshot ss;
  struct pp_profile p = {0};
  char err[1024];
  sigset_t old;
  int rc, saved, cont = __pathprof_continuous() && !strcmp(path, __pathprof_cont_path());

  __pathprof_write_begin(&old);
  __pathprof_backend_sync();
  if (__pathprof_snapshot_take(&ss, cont ? unmapped : 0) != 0) {
    fprintf(stderr, "pathprof: %s: out of memory\n", path);
    __pathprof_write_end(&old);
    return -1;
  }
  if (!ss.n && !ss.forests.nforests)
    rc = 0; /* nothing to add (all mapped) */
  else if (!is_device(path))
    rc = __pathprof_merge_file(path, &ss, wants_sync(), err, sizeof err);
  else if ((rc = __pathprof_snapshot_profile(&ss, &p, err, sizeof err)) == 0)
    rc = write_stream(path, &p, err, sizeof err);
  saved = rc == 0;
  if (rc != 0 && is_device(path)) /* nothing is saved aside in /dev: the counts stay for a later write */
    fprintf(stderr, "pathprof: %s; counts not saved\n", err);
  else if (rc != 0)
    saved = save_aside(path, &ss, err) == 0;
  if (saved)
    __pathprof_snapshot_subtract(&ss); /* on disk, in the file or aside; else kept for a later write */
  pp_profile_free(&p);
  __pathprof_snapshot_free(&ss);
  __pathprof_write_end(&old);
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
  __pathprof_trace_postfork();
  __pathprof_shards_postfork(0);
  pthread_mutex_unlock(&write_mutex);
}

/* After fork, in the child: the parent will write the counts made so far, so the child starts
   from zero and writes only its own at its exit (nothing is counted twice). */
static void after_fork_child(void)
{
  char *path;
  __pathprof_trace_postfork();
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
  char *path, err[1024];
  choose_dirs();
  path = profile_path();
  if (atexit(at_exit) != 0)
    fprintf(stderr, "pathprof: cannot register the exit handler; no profile will be written\n");
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  if (path && wants_continuous() && __pathprof_cont_open(path, err, sizeof err) != 0)
    fprintf(stderr, "pathprof: %s; counts are written at exit instead\n", err);
  if (path)
    __pathprof_crash_init(path);
  free(path);
  if (!__pathprof_test_name() && __pathprof_test_init(__pathprof_getenv("PATHPROF_TEST")) != 0)
    fprintf(stderr, "pathprof: PATHPROF_TEST: not a test name (1 to 255 printable characters); counts go to the totals only\n");
}

/* A new test name: the counts so far are the previous test's, so they go to the profile now. */
void __pathprof_backend_test(void)
{
  if (__pathprof_first())
    pathprof_write_file(0);
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
