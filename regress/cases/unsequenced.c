/* Case: two operands of one operator that both hold && or || decisions, whose order C leaves open ((a && b) > (c && d)): each is a decision of its own (clang's MC/DC), in conditions, values, nested, beside calls that may not return. */
#include <stdio.h>
#include <stdlib.h>

static int calls;

static int pick(int v)
{
  calls++;
  if (v > 100)
    exit(3); /* never: a call that may end the program, inside an operand */
  return v & 1;
}

static int compare(int a, int b, int c, int d)
{
  if ((a && b) > (c && d))
    return 1;
  if ((a || b) == (c || d))
    return 2;
  return 0;
}

static int value(int a, int b, int c, int d)
{
  int x = (a && !b) - (c || d);
  int y = ((a || c) + (b && d)) * 2;
  return x + y;
}

static int nested(int a, int b, int c, int d, int e)
{
  /* the right operand is itself two decisions in a comparison */
  return (a && b) != ((c || d) < (e && a));
}

static int with_calls(int a, int b, int c)
{
  return (a && pick(b)) + pick((b || c) + 2 * (a && c));
}

static int spread(int a, int b, int c, int d)
{
  return (a &&
          b) <= (c
                 || d);
}

int main(void)
{
  int s = 0, i;
  for (i = 0; i < 32; i++) {
    int a = i & 1, b = i >> 1 & 1, c = i >> 2 & 1, d = i >> 3 & 1, e = i >> 4 & 1;
    if (i % 3 == 0 && i > 20)
      continue;
    s += compare(a, b, c, d) * 7 + value(a, b, c, d) * 3 + nested(a, b, c, d, e) + with_calls(a, b, c) + spread(a, b, c, d);
  }
  printf("%d %d\n", s, calls);
  return 0;
}
