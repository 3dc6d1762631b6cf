/* Case: statements that are bare decisions: a function whose first statement is a short-circuit expression, a loop whose unbraced body is one, one in an unbraced if (from GCC's pr82387 and pr68321). */
#include <stdio.h>

static int f, t5, u, n, hits;

/* The first statement is "b ? ... : ...": the registration goes before the whole statement. */
static int first(int b)
{
  b ? (f = 0) : f++;
  return f;
}

/* Unbraced bodies that are only a decision: their braces open before the decision does. */
static int body(int k)
{
  for (t5 = k; t5; t5--)
    u ? n-- : (n += t5);
  while (k-- > 0)
    n > 3 ? hits++ : (hits += 2);
  if (k < 0)
    (u && n) ? hits-- : (hits += 10);
  return n + hits;
}

int main(void)
{
  int i, s = 0;
  for (i = 0; i < 6; i++) {
    f = i;
    u = i % 3 == 0;
    s += first(i & 1) + body(i);
  }
  printf("%d %d %d\n", s, n, hits);
  return 0;
}
