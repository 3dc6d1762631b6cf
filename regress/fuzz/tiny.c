/* Seed program for the tables corpus: functions small enough that their tables stay near 1 KiB,
   so the fuzzer's inputs (at most 2048 bytes for tables) start from whole, valid files. */
/* Returns the larger of a and b: two paths. */
static int max2(int a, int b)
{
  if (a > b)
    return a;
  return b;
}

int main(void)
{
  return max2(1, 2) != 2;
}
