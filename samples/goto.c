/* Sample: forward and backward gotos, a loop built from gotos, a goto into a loop body, labels everywhere. */
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

/* A loop made only of labels and gotos: gcd by subtraction. */
static int gcd(int a, int b)
{
top:
  if (a == b) goto done;
  if (a > b) goto a_bigger;
  b -= a;
  goto top;
a_bigger:
  a -= b;
  goto top;
done:
  return a;
}

/* Forward gotos for error handling, cleanup style. */
static int parse_digits(const char *s, int *out)
{
  int v = 0, status = 0;
  if (!s) goto fail_null;
  if (!*s) goto fail_empty;
  while (*s) {
    if (*s < '0' || *s > '9') goto fail_char;
    v = v * 10 + (*s - '0');
    s++;
  }
  *out = v;
  goto end;
fail_null:
  status--;
fail_empty:
  status--;
fail_char:
  status--;
end:
  return status;
}

/* Jumping into the middle of a loop body: the first iteration skips its first half. */
static long into_loop(int n)
{
  long s = 0;
  int i = 0;
  goto inside;
  for (; i < n; i++) {
    s += 100;
  inside:
    s += i;
  }
  return s;
}

/* Backward goto out of nested loops to restart the search. */
static int restart_search(void)
{
  int tries = 0, i, j, limit = 3;
again:
  tries++;
  for (i = 0; i < 5; i++)
    for (j = 0; j < 5; j++)
      if (i * j == limit * 4 && limit < 6) {
        limit++;
        goto again;
      }
  return tries * 10 + limit;
}

/* Labels directly before non-compound statements, before an empty statement at the end of a block,
   and a label reached both by falling in and by a goto that never runs. */
static int labels(int x)
{
  int r = 0;
  if (x > 2) goto l2;
  if (x > 1) goto l1;
  r += 1;
l1: r += 10;
l2: r += 100;
  if (x < -100) goto rare;
  r += 1000;
rare:
  {
    if (x == 0) goto last;
    r *= 2;
  last: ;
  }
  if (x == 3) goto end_of_block;
  r += 5;
  while (r < 0) {
    r++;
  }
end_of_block:
  ;
  return r;
}

int main(void)
{
  static const char *inputs[] = { "123", "", "12x", "0", "987654", 0 };
  int i, v;
  long s;

  s = 0;
  for (i = 1; i <= 12; i++)
    s = s * 3 + gcd(i * 6, 84);
  check("gcd", s, 2001648);

  s = 0;
  for (i = 0; i < 6; i++) {
    v = -7;
    s = s * 11 + parse_digits(inputs[i], &v) * 1000 + v;
  }
  check("parse", s, -54344);

  s = 0;
  for (i = 0; i < 6; i++)
    s = s * 13 + into_loop(i);
  check("into_loop", s, 260592);

  check("restart", restart_search(), 35);

  s = 0;
  for (i = 0; i < 5; i++)
    s = s * 1000 + labels(i);
  check("labels", s, 1118229227202205);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
