/* threads_prog.c: threads counting the same paths at once. THREADS threads (argv[1], default 8)
   each take ITERS (argv[2], default 1000000) paths through classify(); every thread sees the same
   numbers, so each path's count is THREADS times a one-thread run's (regress/e2e/threads.sh).
   argv[3] varies who runs work(): "main" (the main thread too, beside the THREADS threads),
   "spawn" (THREADS levels of an activation that starts the next level's thread, works, joins it
   and then ends its path: THREADS + 1 runs) or "fork" (main, a joined thread, a thread that
   forks, the child and a thread of the child's: 5 runs, in two processes) or "abort" (the main
   thread and THREADS joined threads, then abort(): THREADS + 1 runs in the crash dump). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long iters = 1000000;

/* Sorts a number into one of four classes: four paths, all taken often. */
static int classify(unsigned x)
{
  if (x % 3 == 0)
    return x % 2 ? 1 : 2;
  if (x % 5 == 0)
    return 3;
  return 0;
}

/* One thread: the same pseudo-random sequence in every thread. */
static void *work(void *arg)
{
  unsigned x = 12345;
  long i, *hist = arg;
  for (i = 0; i < iters; i++) {
    x = x * 1103515245u + 12345u;
    hist[classify(x >> 8)]++;
  }
  return 0;
}

/* spawn mode: level d starts level d - 1 in a thread from inside its activation, so its path
   ends after that thread (a later thread than the one this activation runs in) has counted. */
static void *spawn(void *arg)
{
  long d = *(long *)arg, next = d - 1, hist[4] = {0};
  pthread_t t;
  int started = d > 0 && pthread_create(&t, 0, spawn, &next) == 0;
  work(hist);
  if (started)
    pthread_join(t, 0);
  return 0;
}

/* fork mode, in a thread that has counted (so not the first to count): the child, whose only
   thread this is, works alone and with a thread of its own, then exits (writing its counts). */
static void *forker(void *arg)
{
  long hist[4] = {0};
  pthread_t t;
  pid_t pid;
  int st;
  (void)arg;
  work(hist);
  if ((pid = fork()) == 0) {
    work(hist);
    if (pthread_create(&t, 0, work, hist) == 0)
      pthread_join(t, 0);
    exit(0);
  }
  if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
    fprintf(stderr, "threads: the fork child failed\n");
  return 0;
}

/* fork mode: main works, a thread works and is joined, another forks (forker). */
static int fork_mode(void)
{
  long hist[4] = {0};
  pthread_t t;
  work(hist);
  if (pthread_create(&t, 0, work, hist) != 0 || pthread_join(t, 0) != 0 ||
      pthread_create(&t, 0, forker, 0) != 0 || pthread_join(t, 0) != 0) {
    perror("pthread_create");
    return 1;
  }
  return 0;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 8, i, k;
  pthread_t t[64];
  long hist[65][4] = {{0}};
  if (argc > 2)
    iters = atol(argv[2]);
  if (n < 1 || n > 64 || iters < 1) {
    fprintf(stderr, "usage: threads [THREADS (1-64)] [ITERS]\n");
    return 2;
  }
  if (argc > 3 && !strcmp(argv[3], "fork"))
    return fork_mode();
  if (argc > 3 && !strcmp(argv[3], "spawn")) {
    long d = n;
    spawn(&d);
    return 0;
  }
  for (i = 0; i < n; i++)
    if (pthread_create(&t[i], 0, work, hist[i]) != 0) {
      perror("pthread_create");
      return 1;
    }
  if (argc > 3 && (!strcmp(argv[3], "main") || !strcmp(argv[3], "abort")))
    work(hist[n]);
  for (i = 0; i < n; i++)
    pthread_join(t[i], 0);
  if (argc > 3 && !strcmp(argv[3], "abort"))
    abort();
  for (k = 0; k < 4; k++)
    printf("class %d: %ld per thread\n", k, hist[0][k]);
  return 0;
}
