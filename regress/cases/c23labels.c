/* C that GCC 11 and later compile and libclang 14 refuses: a label (plain, case, default) right
   before a declaration (C23), and a static assertion GCC folds (a floating cast); pathcc parses
   such a unit from a view of its own and instruments every function (issue 37). */
#include <stdio.h>

/* the same lines for every compiler: GCC writes the C23 forms, the others the C99 ones (a null
   statement at the start of the declaration's line) */
#if defined(__GNUC__) && __GNUC__ >= 11 && !defined(__clang__)
#define C99_NULL
#define FOLDED_ASSERT(e) _Static_assert((int)(e * 1.0) == (int)e, "folded by GCC")
#else
#define C99_NULL ;
#define FOLDED_ASSERT(e) _Static_assert(e == e, "plain")
#endif

static int classify(int x)
{
  switch (x % 4) {
  case 0:
    C99_NULL int twice = x * 2;
    if (twice > 20)
      return twice;
    return -twice;
  case 1:
    C99_NULL int half = x / 2;
    return half;
  default:
    C99_NULL int rest = x % 4;
    return rest + 100;
  }
}

static int countdown(int n)
{
  int steps = 0; FOLDED_ASSERT(3);
again:
  C99_NULL int left = n - steps;
  if (left > 0) {
    steps++;
    if (steps % 3 == 0)
      steps++;
    goto again;
  }
  return steps;
}

int main(void)
{
  long sum = 0;
  for (int i = 0; i < 40; i++)
    sum += classify(i) + countdown(i % 9);
  printf("%ld\n", sum);
  return 0;
}
