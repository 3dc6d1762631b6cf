/* pthread_exit from a helper: the thread's start routine and the helper never finish. */
#include <pthread.h>
#include <stdio.h>

static int seen;

static void helper(int n)
{
  seen += n;
  if (n > 2)
    pthread_exit(0);
  seen++;
}

static void *worker(void *arg)
{
  int n = *(int *)arg;
  for (int i = 0; i < n; i++)
    helper(i);
  seen += 100;
  return 0;
}

int main(void)
{
  pthread_t t;
  int n = 5;
  if (pthread_create(&t, 0, worker, &n) != 0)
    return 1;
  pthread_join(t, 0);
  printf("%d\n", seen);
  return 0;
}
