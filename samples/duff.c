/* Sample: Duff's device and other case labels inside nested blocks, loops and ifs within a switch. */
#include <stdio.h>

static int bad;

static void check(const char *what, long got, long want)
{
  printf("%-14s %ld\n", what, got);
  if (got != want) {
    printf("  wrong, want %ld\n", want);
    bad++;
  }
}

/* Classic Duff's device: case labels inside the body of a do/while. */
static void duff_copy(short *to, const short *from, int count)
{
  int n;
  if (count <= 0)
    return;
  n = (count + 7) / 8;
  switch (count % 8) {
  case 0: do { *to++ = *from++;
  /* fall through */
  case 7:      *to++ = *from++;
  /* fall through */
  case 6:      *to++ = *from++;
  /* fall through */
  case 5:      *to++ = *from++;
  /* fall through */
  case 4:      *to++ = *from++;
  /* fall through */
  case 3:      *to++ = *from++;
  /* fall through */
  case 2:      *to++ = *from++;
  /* fall through */
  case 1:      *to++ = *from++;
          } while (--n > 0);
  }
}

/* Duff-style sum unrolled by 4 with a while loop. */
static long duff_sum(const int *a, int count)
{
  long s = 0;
  int n = (count + 3) / 4;
  if (count == 0)
    return 0;
  switch (count & 3) {
    while (--n > 0) {
    case 0: s += *a++;
    /* fall through */
    case 3: s += *a++;
    /* fall through */
    case 2: s += *a++;
    /* fall through */
    case 1: s += *a++;
    }
  }
  return s;
}

/* Case labels inside an if and inside a plain block within the switch. */
static int weird(int x, int flag)
{
  int r = 0;
  switch (x) {
  case 0:
    if (flag) {
  case 1:
      r += 10;
    } else {
      /* fall through */
  case 2:
      r += 20;
    }
    break;
  default:
    {
      r = -1;
      /* fall through */
  case 3:
      r += 3;
    }
  }
  return r;
}

int main(void)
{
  short src[40], dst[40];
  int ints[37];
  long sum;
  int i, len, f;

  for (i = 0; i < 40; i++) src[i] = (short)(i * 37 % 101);
  sum = 0;
  for (len = 0; len <= 17; len++) {
    for (i = 0; i < 40; i++) dst[i] = -1;
    duff_copy(dst, src, len);
    for (i = 0; i < 40; i++) sum = sum * 7 % 1000003 + dst[i] + 2;
  }
  check("duff_copy", sum, 362733);

  for (i = 0; i < 37; i++) ints[i] = i * i - 50;
  sum = 0;
  for (len = 0; len <= 37; len += 3)
    sum = sum * 5 + duff_sum(ints, len);
  check("duff_sum", sum, -9946827690);

  sum = 0;
  for (i = -1; i < 6; i++)
    for (f = 0; f < 2; f++)
      sum = sum * 4 + weird(i, f);
  check("weird", sum, 265834410);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
