/* threads_prog.c: threads counting the same paths at once. THREADS threads (argv[1], default 8)
   each take ITERS (argv[2], default 1000000) paths through classify(); every thread sees the same
   numbers, so each path's count is THREADS times a one-thread run's (regress/e2e/threads.sh). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 8, i, k;
  pthread_t t[64];
  long hist[64][4] = {{0}};
  if (argc > 2)
    iters = atol(argv[2]);
  if (n < 1 || n > 64 || iters < 1) {
    fprintf(stderr, "usage: threads [THREADS (1-64)] [ITERS]\n");
    return 2;
  }
  for (i = 0; i < n; i++)
    if (pthread_create(&t[i], 0, work, hist[i]) != 0) {
      perror("pthread_create");
      return 1;
    }
  for (i = 0; i < n; i++)
    pthread_join(t[i], 0);
  for (k = 0; k < 4; k++)
    printf("class %d: %ld per thread\n", k, hist[0][k]);
  return 0;
}
