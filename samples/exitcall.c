/* Sample: the program ends by calling exit() deep inside nested calls, with an atexit handler running after. */
#include <stdio.h>
#include <stdlib.h>

static long total;
static int depth_reached;

static void report(void)
{
  int i;
  long check = 0;
  for (i = 1; i <= depth_reached; i++)
    check += i;
  printf("atexit: total %ld depth %d check %ld\n", total, depth_reached, check);
  printf("%s\n", total == 1038 && check == 45 ? "PASS" : "FAIL");
}

static void dive(int depth, int stop)
{
  int i;
  if (depth > 100)
    return;
  depth_reached = depth;
  for (i = 0; i < depth; i++)
    total += i * depth;
  if (depth == stop) {
    printf("exiting at depth %d\n", depth);
    fflush(stdout);
    exit((int)(total % 97) + 1);
  }
  dive(depth + 1, stop);
  printf("never reached\n");
}

static int warmup(int n)
{
  int s = 0;
  while (n > 0) {
    if (n % 5 == 0) {
      n -= 3;
      continue;
    }
    s += n--;
  }
  return s;
}

int main(void)
{
  int w;
  if (atexit(report) != 0)
    return 1;
  w = warmup(30);
  printf("warmup %d\n", w);
  total = w;
  dive(1, 9);
  return 0;
}
