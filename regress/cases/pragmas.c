/* Case: loop pragmas (#pragma GCC unroll/ivdep, _Pragma from a macro) directly before the loops they govern. */
#include <stdio.h>

#define UNROLL4 _Pragma("GCC unroll 4")

static int sum(const int *a, int n)
{
  int s = 0, i;
#pragma GCC unroll 4
  for (i = 0; i < n; i++)
    s += a[i];
  UNROLL4
  for (i = 0; i < n; i++)
    s += a[i] & 1;
#pragma GCC ivdep
  while (n-- > 0)
    s++;
  return s;
}

int main(void)
{
  int a[10], i, s;
  for (i = 0; i < 10; i++)
    a[i] = i * i;
  s = sum(a, 10);
  printf("sum %d\n", s);
  return s == 300 ? 0 : 1;
}
