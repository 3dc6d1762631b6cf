/* Sample: loops nested three deep, break and continue at each level, leaving several loops with goto. */
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

#define N 6

static void matmul(long c[N][N], long a[N][N], long b[N][N])
{
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      c[i][j] = 0;
      for (k = 0; k < N; k++)
        c[i][j] += a[i][k] * b[k][j];
    }
}

/* Pythagorean-ish triples with continue and break at every depth. */
static long triples(int lim)
{
  long found = 0;
  int a, b, c;
  for (a = 1; a < lim; a++) {
    if (a % 7 == 0)
      continue;
    b = a;
    while (b < lim) {
      if (a + b > lim + 5)
        break;
      c = b;
      do {
        if (c * c == a * a + b * b) {
          found = found * 3 + a + b + c;
          break;
        }
        if ((c & 3) == 3)
          continue;
        found++;
      } while (++c < lim);
      b++;
    }
  }
  return found % 1000000007;
}

/* Search leaving all three loops at once with goto. */
static int find_sum(int target)
{
  int i, j, k, r = -1;
  for (i = 0; i < 10; i++)
    for (j = i; j < 10; j++)
      for (k = j; k < 10; k++)
        if (i * i + j * j + k * k == target) {
          r = i * 100 + j * 10 + k;
          goto found;
        }
found:
  return r;
}

int main(void)
{
  long a[N][N], b[N][N], c[N][N], s;
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      a[i][j] = i - j;
      b[i][j] = (i * j) % 5 + 1;
    }
  matmul(c, a, b);
  s = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      s = s * 3 + c[i][j];
  check("matmul", s % 1000000007, -32379044);

  check("triples", triples(30), 5961933);

  s = 0;
  for (i = 0; i < 40; i += 3)
    s = s * 7 + find_sum(i);
  check("find_sum", s, 1767689492477);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
