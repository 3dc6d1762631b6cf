/* bench workload: threads counting the same paths at once.
   Four threads each run a small branchy classifier (a Collatz-like step with several paths) over
   the same pseudo-random sequence, so they hit the same counters at the same time; each thread's
   tally must equal the one computed in the main thread before the threads start.
   Usage: threads [SCALE]  (millions of steps per thread, default 40) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4

static long steps;

/* One step of a Collatz-like map with a few extra branches: six paths. */
static unsigned step(unsigned x, unsigned *kind)
{
  if (x & 1) {
    *kind = x % 3 == 0 ? 0 : 1;
    return 3 * x + 1;
  }
  if (x % 4 == 0) {
    *kind = x % 5 == 0 ? 2 : 3;
    return x / 4 + 7;
  }
  *kind = x > 1000 ? 4 : 5;
  return x / 2 + 11;
}

/* Runs the sequence from a fixed seed and counts each kind of step into tally[6]. */
static void *run(void *arg)
{
  unsigned long *tally = arg;
  unsigned x = 27, k;
  long i;
  for (i = 0; i < steps; i++) {
    x = step(x, &k) ^ (unsigned)i;
    tally[k]++;
  }
  return 0;
}

int main(int argc, char **argv)
{
  long scale = argc > 1 ? atol(argv[1]) : 40;
  unsigned long want[6] = {0}, got[NTHREADS][6] = {{0}};
  pthread_t t[NTHREADS];
  int i, k, bad = 0;
  steps = scale * 1000000L / NTHREADS;
  run(want);
  for (i = 0; i < NTHREADS; i++)
    if (pthread_create(&t[i], 0, run, got[i]) != 0)
      bad = 1;
  for (i = 0; i < NTHREADS && !bad; i++)
    pthread_join(t[i], 0);
  for (i = 0; i < NTHREADS && !bad; i++)
    for (k = 0; k < 6; k++)
      bad |= got[i][k] != want[k];
  printf("threads: %d threads x %ld steps, kinds %lu %lu %lu %lu %lu %lu\n", NTHREADS, steps, want[0], want[1],
         want[2], want[3], want[4], want[5]);
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
