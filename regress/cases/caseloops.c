/* Case (issue 40): a case label, or a run of them on one line, in front of a do-while counts the
   times control reaches it, not the loop's rounds (GCC makes the loop's top and the labels one
   block, so gcov shows the rounds there, and --no-code=gcov keeps that); a for (;;) alone on its
   line counts the loop's entries, the '{' below it (or the body) the rounds, as clang-19 counts
   them. Each label is its switch's first: after a break, gcov counts other arcs there. */
#include <stdio.h>

static int run(int op, int n)
{
  int s = 0;
  switch (op) {
  case 1: case 2:
    do {
      s += n;
      n--;
    } while (n > 0);
    break;
  default:
    s = -1;
  }
  return s;
}

static int one(int op, int n)
{
  int s = 0;
  switch (op) {
  case 3:
    do
      s -= n--;
    while (n > 0);
    break;
  default:
    s = 1;
  }
  return s;
}

static int spin(int n)
{
  int s = 0;
  for (;;)
  {
    s += n;
    if (--n <= 0)
      break;
  }
  return s;
}

static int bare(int n)
{
  int s = 0;
  for (;;)
    if (s += n, --n <= 0)
      break;
  return s;
}

int main(void)
{
  int t = 0;
  for (int i = 0; i < 20; i++)
    t += run(i % 3 + 1, i % 4 + 1) + one(i % 4 + 1, i % 5 + 1) + spin(i % 5 + 1) + bare(i % 3 + 2);
  printf("%d\n", t);
  return 0;
}
