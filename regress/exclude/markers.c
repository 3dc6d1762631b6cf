/* Every exclusion marker pathprof reads (lcov's and gcovr's), each on code of its own, for
   regress/e2e/exclusions.sh: the lines and branches they mark leave every format's totals. */
#include <stdio.h>
#include <stdlib.h>

static int check(int v)
{
  if (v < 0)
    abort(); /* LCOV_EXCL_LINE */
  if (v > 1000)
    exit(3); // GCOVR_EXCL_LINE
  return v;
}

/* LCOV_EXCL_START */
static int debug_dump(int v)
{
  if (v)
    printf("debug %d\n", v);
  return v;
}
/* LCOV_EXCL_STOP */

// GCOVR_EXCL_START
static int trace(int v)
{
  return v + 1;
}
// GCOVR_EXCL_STOP

static int pick(int v)
{
  int r = 0;
  if (v % 2 && v > 3) /* LCOV_EXCL_BR_LINE */
    r++;
  if (v % 3) // GCOVR_EXCL_BR_LINE
    r += 2;
  /* LCOV_EXCL_BR_START */
  if (v > 5)
    r += 4;
  /* LCOV_EXCL_BR_STOP */
  // GCOVR_EXCL_BR_START
  if (v == 2)
    r += 8;
  // GCOVR_EXCL_BR_STOP
  if (v == 4)
    r += 16;
  return r;
}

int main(int argc, char **argv)
{
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += pick(check(i));
  if (argc > 5)
    s += debug_dump(s) + trace(s);
  printf("%d\n", s);
  return 0;
}
