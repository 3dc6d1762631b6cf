/* Sample: compound statements, if/else chains, dangling else, empty branches, a very long else-if chain. */
#include <stdio.h>

static int classify(int c)
{
  if (c == 0) return 0;
  else if (c == 1) return 1;
  else if (c == 2) return 2;
  else if (c == 3) return 3;
  else if (c == 4) return 5;
  else if (c == 5) return 8;
  else if (c == 6) return 13;
  else if (c == 7) return 21;
  else if (c == 8) return 34;
  else if (c == 9) return 55;
  else if (c == 10) return 89;
  else if (c == 11) return 144;
  else if (c == 12) return 233;
  else if (c == 13) return 377;
  else if (c == 14) return 610;
  else if (c == 15) return 987;
  else if (c == 16) return 1597;
  else if (c == 17) return 2584;
  else if (c == 18) return 4181;
  else if (c == 19) return 6765;
  else if (c == 20) return 10946;
  else if (c == 21) return 17711;
  else if (c == 22) return 28657;
  else if (c == 23) return 46368;
  else if (c == 24) return 75025;
  else if (c < 0) return -1;
  else return -2;
}

/* The same kind of chain without returns: every arm assigns and control joins below. */
static const char *grade(int score)
{
  const char *g;
  if (score >= 97) g = "A+";
  else if (score >= 93) g = "A";
  else if (score >= 90) g = "A-";
  else if (score >= 87) g = "B+";
  else if (score >= 83) g = "B";
  else if (score >= 80) g = "B-";
  else if (score >= 77) g = "C+";
  else if (score >= 73) g = "C";
  else if (score >= 70) g = "C-";
  else if (score >= 67) g = "D+";
  else if (score >= 63) g = "D";
  else if (score >= 60) g = "D-";
  else g = "F";
  return g;
}

static int nested(int a, int b, int c)
{
  int r = 0;
  {
    int t = a + b;
    {
      if (t > c) {
        if (a > b) r = 1;
        else r = 2;            /* dangling-else style nesting, braces on the outer if only */
      } else if (t == c) {
        ;                      /* empty then-branch */
      } else {
      }
    }
  }
  if (a) {
  } else {
    r += 10;
  }
  if (b)
    ;
  else
    r += 100;
  if (c) {
    if (a > c) r += 1000;
    else r += 2000;
  }
  return r;
}

int main(void)
{
  long sum = 0;
  int i, a, b, c, bad = 0;
  for (i = -3; i < 30; i++)
    sum += classify(i);
  printf("classify sum %ld\n", sum);
  if (sum != 196417 - 1 - 3 - 10) bad++;
  for (i = 55; i <= 100; i += 3) {
    const char *g = grade(i);
    printf("%d:%s ", i, g);
    sum += g[0] * (g[1] ? 3 : 1);
  }
  printf("\n");
  printf("grade sum %ld\n", sum);
  if (sum != 198667) bad++;
  sum = 0;
  for (a = 0; a < 4; a++)
    for (b = 0; b < 4; b++)
      for (c = 0; c < 4; c++)
        sum += nested(a, b, c) * (a + 1);
  printf("nested sum %ld\n", sum);
  if (sum != 200349) bad++;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
