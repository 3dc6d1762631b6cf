/* Seed program for the tables corpus: small functions whose tables stay under 4 KiB. */
/* Returns the larger of a and b. */
static int max2(int a, int b)
{
  return a > b ? a : b;
}

/* Sums the odd numbers below n, skipping multiples of 7. */
static int odd_sum(int n)
{
  int s = 0, i;
  for (i = 0; i < n; i++) {
    if (i % 7 == 0)
      continue;
    if (i & 1)
      s += i;
  }
  return s;
}

int main(void)
{
  return max2(odd_sum(10), 3) == 0;
}
