/* Lazy frames: step() links a frame only on the paths that make a marked call (a rare printf, a
   check() in a return's expression, which runs after its path has ended); most of its 5000
   activations make none. A leaked or missing frame would show at the exit from check() at depth 6:
   extra or lost partial paths against gcov's line counts and the block-trace oracle. */
#include <stdio.h>
#include <stdlib.h>

static int check(int x)
{
  if (x < 0) {
    fprintf(stderr, "bad %d\n", x);
    exit(2);
  }
  return x;
}

static int step(int x)
{
  if (x % 7 == 0)
    return check(x);
  if (x % 1000 == 999)
    printf("%d\n", x);
  return x + 1;
}

static int deep(int n, int x)
{
  int y;
  if (n == 0)
    return check(x);
  y = deep(n - 1, x);
  return y + 1;
}

int main(int argc, char **argv)
{
  int i, s = 0;
  for (i = 0; i < 5000; i++)
    s += step(i);
  printf("%d\n", s);
  return deep(5, argc > 1 ? atoi(argv[1]) : 1) == 0;
}
