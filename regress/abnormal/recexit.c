/* exit() from inside a recursion: argv[1] is the depth it happens at (1 or 8); every activation
   of walk() and main() on the stack never finishes. */
#include <stdio.h>
#include <stdlib.h>

static int total;

static void report(void)
{
  printf("total %d\n", total);
}

static int walk(int depth, int stop)
{
  int here = depth * 3;
  if (depth % 2)
    here++;
  if (depth == stop) {
    total += here;
    exit(depth);
  }
  total += walk(depth + 1, stop);
  return here;
}

int main(int argc, char **argv)
{
  int stop = argc > 1 ? atoi(argv[1]) : 8;
  atexit(report);
  for (int round = 0; round < 3; round++) {
    if (round < 2) {
      total += round;
      continue;
    }
    walk(1, stop);
  }
  printf("not reached\n");
  return 0;
}
