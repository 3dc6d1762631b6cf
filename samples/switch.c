/* Sample: switch with case/default, fall-through, no default, nested switches, switch inside loops. */
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

/* Every case falls into the next one: days left in a countdown. */
static int fallthrough(int n)
{
  int r = 0;
  switch (n) {
  case 5: r += 5; /* fall through */
  case 4: r += 4; /* fall through */
  case 3: r += 3; /* fall through */
  case 2: r += 2; /* fall through */
  case 1: r += 1; break;
  default: r = -1;
  }
  return r;
}

/* No default: values that match nothing skip the whole body. */
static int nodefault(int c)
{
  int r = 1;
  switch (c) {
  case 'a': case 'e': case 'i': case 'o': case 'u':
    r = 2;
    break;
  case ' ':
    r = 3;
  }
  return r;
}

/* Default in the middle, falling into a later case. */
static int middle_default(int x)
{
  int r = 0;
  switch (x % 6) {
  case 0:
    r = 10;
    break;
  default:
    r = 20;
    /* fall through */
  case 3:
    r += 3;
    break;
  case 4:
    return 44;
  }
  return r;
}

/* A switch nested in a switch, both inside a loop with continue and break. */
static long nested(const int *ops, int n)
{
  long acc = 0;
  int i;
  for (i = 0; i < n; i++) {
    switch (ops[i] / 10) {
    case 0:
      switch (ops[i] % 10) {
      case 0: acc += 1; break;
      case 1: acc *= 2; break;
      default: acc -= 1;
      }
      break;
    case 1:
      if (ops[i] % 2)
        continue;       /* continue goes to the loop, not the switch */
      acc += 100;
      break;
    case 9:
      goto out;
    default:
      acc += ops[i];
    }
    acc ^= 5;
  }
out:
  return acc;
}

/* A switch whose body is a single statement, and an empty switch. */
static int tiny(int x)
{
  int r = 0;
  switch (x) case 1: r = 7;
  switch (x) { }
  switch (x) default: r += 1;
  return r;
}

int main(void)
{
  static const int ops[] = { 0, 1, 1, 5, 12, 13, 27, 0, 1, 3, 14, 40, 1, 95, 0, 0 };
  const char *s = "a quick brown fox jumps over the lazy dog";
  long sum = 0;
  int i;

  for (i = -1; i < 8; i++)
    sum = sum * 3 + fallthrough(i);
  check("fallthrough", sum, -6403);

  sum = 0;
  for (i = 0; s[i]; i++)
    sum += nodefault(s[i]) * (i + 1);
  check("nodefault", sum, 1409);

  sum = 0;
  for (i = 0; i < 25; i++)
    sum += middle_default(i);
  check("middle", sum, 514);

  check("nested", nested(ops, (int)(sizeof ops / sizeof ops[0])), 879);
  check("tiny", tiny(1) * 10 + tiny(2), 81);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
