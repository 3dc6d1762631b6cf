/* memcheck_prog.c: what the runtime does beside counting, run under valgrind by regress/e2e/memcheck.sh:
   frames deeper than a chunk of the stack of frames, a longjmp over them, threads that keep frames
   (one ends inside them with pthread_exit), a signal handler running instrumented code at depth,
   fork (the child counts and writes its own profile; its status comes back as the parent's). */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static jmp_buf back;
static volatile sig_atomic_t handled;

/* Called through a pointer: the activations calling it keep frames. */
static int twice(int v) { return 2 * v; }
static int (*volatile op)(int) = twice;

/* n levels down; at level stop: a longjmp to back (stop > 0), or a signal (stop < 0). */
static int down(int n, int stop)
{
  int x;
  if (n <= 0)
    return 0;
  if (n == stop)
    longjmp(back, 1);
  if (n == -stop)
    raise(SIGUSR1);
  x = down(n - 1, stop);
  x += x & 1 ? op(n) : n;
  return x % 1009;
}

/* The handler recurses too, on the interrupted thread's stack of frames. */
static void on_usr1(int sig)
{
  (void)sig;
  handled += down(300, 0) >= 0;
}

/* down(n, stop), or -1 after a longjmp. */
static int dive(int n, int stop)
{
  int r;
  if (setjmp(back))
    return -1;
  r = down(n, stop);
  return r < 0 ? 0 : r;
}

/* A thread: deep recursion; arg 1: it ends inside its activations. */
static int quit_at(int n)
{
  if (n < 0)
    return 0;
  if (n == 0)
    pthread_exit(0);
  return quit_at(n - 1) + op(n);
}

static void *thread(void *arg)
{
  static int results[4];
  long k = (long)arg;
  if (k == 3)
    quit_at(40);
  results[k] = down(1500 + 100 * (int)k, 0);
  return &results[k];
}

int main(void)
{
  pthread_t t[4];
  long k;
  int status, sum = 0;
  pid_t pid;

  signal(SIGUSR1, on_usr1);
  sum += dive(2200, 0) + dive(1800, 5) + dive(1200, -600);
  for (k = 0; k < 4; k++)
    if (pthread_create(&t[k], 0, thread, (void *)k) != 0)
      return 2;
  for (k = 0; k < 4; k++) {
    void *r;
    pthread_join(t[k], &r);
    sum += r && r != PTHREAD_CANCELED ? *(int *)r : 0;
  }
  fflush(stdout);
  pid = fork();
  if (pid == 0)
    exit(dive(1300, 0) < 0);
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    printf("child failed\n");
    return 1;
  }
  printf("sum %d handled %d\n", sum, (int)handled);
  return 0;
}
