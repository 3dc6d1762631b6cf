/* Edge mode's splits (doc/formats.md section 1): the program exits in its Nth call of step(),
   from a leading declaration's initializer, two calls of one statement, statements of one
   block, a condition, two statements on one line and a return's value; gcov's line counts of
   each stop are the oracle. */
#include <stdio.h>
#include <stdlib.h>

static int calls, stop_at;

int step(int x) {
  if (++calls == stop_at)
    exit(0);
  return x + 1;
}

int chain(int x) {
  int a = step(x);
  int b = step(a) + step(a + 1);
  printf("%d\n", b);
  b += step(b);
  if (step(b) > 3)
    b++;
  b = step(b) * 2; step(b);
  return step(b);
}

int main(int argc, char **argv) {
  int s = 0;
  stop_at = argc > 1 ? atoi(argv[1]) : 0;
  for (int i = 0; i < 3; i++)
    s += chain(i);
  printf("%d\n", s);
  return 0;
}
