/* sostress_host.c: the plain host of regress/e2e/sostress.sh: liba.so linked, libc.so (argv[1])
   and the libbI.so (argv[3...]) dlopened, libc.so's handler on SIGUSR1; on a heap whose free
   memory holds all ones, deep recursions across the objects with the signal at depth, then a
   fork whose child (its block trace sent to argv[2]: every descriptor of the runtimes' trace,
   $PATHPROF_TRACE, is pointed there) recurses and exits normally; libc.so and every other
   libbI.so are dlclosed before the end. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int rec_a(int n, int sig, int (*cb)(int));

static int (*leaves[64])(int);
static int nleaves;
static char *volatile seen;

/* rec_a's call into the other objects: one of the libbI.so by turns. */
static int leaf(int n)
{
  return leaves[n % nleaves](n);
}

/* Memory malloc hands out next, filled with all ones and given back. */
static void dirty_heap(void)
{
  size_t n = 1 << 18;
  seen = malloc(n);
  if (seen)
    memset(seen, 0xff, n);
  free(seen);
}

/* Points every descriptor open on the file named by $PATHPROF_TRACE at file instead. */
static int retrace(const char *file)
{
  char link[64], at[PATH_MAX], want[PATH_MAX];
  const char *trace = getenv("PATHPROF_TRACE");
  int fd, to, moved = 0;
  ssize_t n;
  if (!trace || !realpath(trace, want) || (to = open(file, O_WRONLY | O_CREAT | O_APPEND, 0666)) < 0)
    return 0;
  for (fd = 0; fd < 1024; fd++) {
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, at, sizeof at - 1);
    if (fd == to || n <= 0)
      continue;
    at[n] = 0;
    if (!strcmp(at, want) && dup2(to, fd) == fd)
      moved++;
  }
  close(to);
  return moved;
}

int main(int argc, char **argv)
{
  void *c, *b[64];
  void (*on_sig)(int);
  int status, i;
  long sum = 0;
  pid_t pid;

  if (argc < 4 || argc > 3 + 64 || !(c = dlopen(argv[1], RTLD_NOW)))
    return 2;
  for (i = 3; i < argc; i++, nleaves++) {
    b[nleaves] = dlopen(argv[i], RTLD_NOW);
    if (!b[nleaves] || !(*(void **)&leaves[nleaves] = dlsym(b[nleaves], "leaf_b")))
      return 3;
  }
  *(void **)&on_sig = dlsym(c, "on_sig");
  if (!on_sig)
    return 3;
  signal(SIGUSR1, on_sig);
  dirty_heap();
  for (i = 0; i < 3; i++)
    sum += rec_a(2500 + 300 * i, 1000 + i, leaf);
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    if (retrace(argv[2]) < 2 + nleaves)
      _exit(4);
    dirty_heap();
    exit(rec_a(1800, 700, leaf) < 0);
  }
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
    return 5;
  sum += rec_a(1200, 0, leaf);
  signal(SIGUSR1, SIG_DFL);
  dlclose(c);
  for (i = 1; i < nleaves; i += 2)
    dlclose(b[i]);
  printf("%ld\n", sum);
  return 0;
}
