/* osp_threads.c: four threads running instrumented code at once (online subpath profiling keeps a skip counter and samples per thread). */
#include <pthread.h>
#include <stdio.h>

static unsigned results[4];

/* Each thread's own loop with a branch, so its subpaths are its own. */
static void *work(void *arg)
{
  unsigned k = (unsigned)(unsigned long)arg, x = k + 1, i;
  for (i = 0; i < 300000; i++) {
    if (x & 1) x = x * 3 + 1;
    else x >>= 1;
    if (x < 2) x = i + k;
  }
  results[k] = x;
  return 0;
}

int main(void)
{
  pthread_t t[4];
  unsigned long k;
  for (k = 0; k < 4; k++)
    pthread_create(&t[k], 0, work, (void *)k);
  for (k = 0; k < 4; k++)
    pthread_join(t[k], 0);
  printf("%u %u %u %u\n", results[0], results[1], results[2], results[3]);
  return 0;
}
