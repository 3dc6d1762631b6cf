/* Case: tight loops whose rounds pathcc counts in a local and settles at the exit (translator/pathcc/promote.c): for, while and do-while; a body of one block; zero rounds; an inner loop run many times; a loop left from its middle by its only test; a loop entered on two paths; a do-while at a case label; and loops that must not be promoted (a call, a branch, a break, a return). */
#include <stdio.h>

static int data[64];

static int helper(int x)
{
  return x & 3;
}

/* Promoted: for, while and do-while rounds of one path each. */
static long sums(int n)
{
  long s = 0;
  int i, j;
  for (i = 0; i < n; i++)
    s += data[i];
  j = n;
  while (j > 0)
    s -= data[--j] >> 1;
  j = 0;
  do
    s += j++;
  while (j < n);
  while (s > 1000)
    s /= 2;
  return s;
}

/* Promoted inner loop, run once per outer round; the outer loop is not (it holds a loop). */
static long matrix(int n)
{
  long s = 0;
  int i, k;
  for (i = 0; i < n; i++)
    for (k = 0; k < i; k++)
      s += (long)data[i] * data[k];
  return s;
}

/* The test in the middle of the round: header, then the exit test, then the rest. */
static int middle(int n)
{
  int i = 0, s = 0;
  for (;;) {
    s += i;
    if (i >= n)
      break;
    i++;
  }
  return s;
}

/* Promoted: a loop entered with a register that depends on the branch before it (its first
   round is another path each time), and a do-while whose round starts at a case label (the
   label's dispatch increment runs every round). */
static int entries(int n, int k)
{
  int s, i = 0;
  if (k & 1)
    s = 3;
  else
    s = 5;
  while (i < n)
    s += i++;
  switch (k & 3) {
  case 2:
    do
      s += 2;
    while (--n > 0);
    break;
  case 0:
    while (n-- > 0)
      s++;
    break;
  case 1:
    while (n-- > 0)
      s--;
    break;
  default:
    while (n-- > 0)
      s *= 2;
    break;
  }
  return s;
}

/* Not promoted: a call, a branch, a return from inside. */
static int others(int n)
{
  int i, s = 0;
  for (i = 0; i < n; i++)
    s += helper(i);
  for (i = 0; i < n; i++)
    if (data[i] & 1)
      s++;
  for (i = 0; i < n; i++)
    if (data[i] == 7)
      return s;
  return s + 1;
}

int main(void)
{
  int r, i;
  long t = 0;
  for (i = 0; i < 64; i++)
    data[i] = (i * 37 + 11) % 23;
  for (r = 0; r < 5; r++) {
    t += sums(r * 13 % 64) + sums(0) + sums(1);
    t += matrix(r * 7);
    t += middle(r) + middle(0);
    t += entries(r, r) + entries(r + 2, r + 1) + entries(0, 2);
    t += others(r * 11);
  }
  printf("%ld\n", t);
  return 0;
}
