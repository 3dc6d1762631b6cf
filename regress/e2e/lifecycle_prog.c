/* lifecycle_prog.c: known paths around fork, exec, crashes and SIGKILL (regress/e2e/lifecycle.sh).
   work(n) is function 0: its path counts are the same whether the runs below happen in one
   process ("MODE-ref") or across processes, a crash or a kill ("MODE"). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Takes n paths through a loop with three kinds of iteration. */
static int work(int n)
{
  int i, s = 0;
  for (i = 0; i < n; i++) {
    if (i % 7 == 0)
      s += 3;
    else if (i % 2)
      s += 1;
    else
      s -= 1;
  }
  return s;
}

/* fork: the parent works, three children work and exit, the parent works on. */
static int forks(int ref)
{
  int k, st, s = work(1000);
  for (k = 0; k < 3; k++) {
    pid_t p = ref ? 0 : fork();
    if (p < 0)
      return 1;
    if (p == 0) {
      s += work(500 + k);
      if (!ref)
        exit(0);
    }
  }
  while (!ref && wait(&st) > 0)
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      return 1;
  return work(200) + s == 0;
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  int ref = strstr(mode, "-ref") != 0, s = 0;
  if (!strncmp(mode, "fork", 4))
    return forks(ref);
  if (!strcmp(mode, "after-exec"))
    return work(300) == 0;
  s = work(1000);
  if (!strncmp(mode, "exec", 4)) {
    if (ref)
      return work(300) + s == 0;
    execl(argv[0], argv[0], "after-exec", (char *)0);
    perror("execl");
    return 1;
  }
  if (!strncmp(mode, "segv", 4) && !ref)
    *(volatile int *)(size_t)(s & 0) = 1;
  if (!strncmp(mode, "abort", 5) && !ref)
    abort();
  if (!strncmp(mode, "kill", 4) && !ref)
    kill(getpid(), SIGKILL);
  return s == 0;
}
