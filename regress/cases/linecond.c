/* Case (issue 26, class 1): continuation lines of multi-line conditions and ?: arms in the
   default --decisions=statements mode. Each operand or arm on a line of its own counts what ran
   there: the lines must equal gcov's line counts and llvm-cov's region counts (the ?: arms:
   llvm-cov's; GCC puts every block of a ?: on its last line, coverage_gcov_known.txt). */
#include <stdio.h>

static int isreg(int x) { return x != 3; }
static int isfifo(int x) { return x == 7; }

static int f(int x) {
  if (!isreg(x)
      && !isfifo(x)
      && x > 100)
    return 1;
  return (x & 1)
       ? x * 2
       : x * 3;
}

/* a chain of ?: over lines, each line's test runs only when the ones above failed */
static int width(int octet)
{
  int w = (octet & 0x80) == 0x00 ? 1 :
          (octet & 0xE0) == 0xC0 ? 2 :
          (octet & 0xF0) == 0xE0 ? 3 :
          (octet & 0xF8) == 0xF0 ? 4 : 0;
  return w;
}

/* an arm that calls, in a declaration; an || whose operand holds a call on its own line */
static int pick(int a, int b)
{
  int v = a > b ?
          isreg(a) :
          isfifo(b) + 1;
  if (v == 1 ||
      isfifo(a + b))
    v += 10;
  return v;
}

int main(void)
{
  int s = 0;
  for (int x = 0; x < 10; x++) s += f(x);
  for (int x = 0; x < 256; x += 7) s += width(x);
  for (int x = 0; x < 12; x++) s += pick(x, 11 - x);
  printf("%d\n", s);
  return 0;
}
