/* Sample: return with and without a value, void functions falling off the end, dead code, early returns in loops. */
#include <stdio.h>

static int bad;
static long acc;

static void check(const char *what, long got, long want)
{
  printf("%-14s %ld\n", what, got);
  if (got != want) {
    printf("  wrong, want %ld\n", want);
    bad++;
  }
}

/* Falls off the end; never says return. */
static void add(long v)
{
  acc += v;
}

/* Return without a value from the middle, else falls off the end. */
static void add_positive(long v)
{
  if (v <= 0)
    return;
  acc += v;
}

/* An empty void function and one whose body is only a return. */
static void nothing(void)
{
}

static void just_return(void)
{
  return;
}

/* Code after return that can never run. */
static int dead_code(int x)
{
  return x * 2;
  x += 100;
  printf("never printed\n");
  return x;
}

static int dead_after_loop(int n)
{
  int i;
  for (i = 0; ; i++) {
    if (i * i >= n)
      return i;
  }
  return -1;   /* unreachable: the loop only leaves by return */
}

/* Early returns from inside nested loops. */
static int find_pair(const int *a, int n, int target)
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = i + 1; j < n; j++) {
      if (a[i] + a[j] == target)
        return i * 100 + j;
      if (a[i] + a[j] > 1000)
        return -2;
    }
  }
  return -1;
}

/* Return from inside a while, a do/while and a switch. */
static int first_vowel(const char *s)
{
  int i = 0;
  while (s[i]) {
    switch (s[i]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
      return i;
    default:
      break;
    }
    i++;
  }
  do {
    if (i > 100) return -100;
  } while (0);
  return -1;
}

/* main's own early return is tested by the caller's exit status: returns bad at the end. */
int main(void)
{
  static const int nums[] = { 4, 9, 13, 21, 2, 33, 17, 8, 40 };
  static const int big[] = { 1, 3000, 5 };
  static const char *words[] = { "xyz", "rhythm", "apple", "strength", "queue", "" };
  long s;
  int i;

  acc = 0;
  for (i = -5; i <= 5; i++) {
    add(i);
    add_positive(i);
    nothing();
    just_return();
  }
  check("acc", acc, 15);

  s = 0;
  for (i = 0; i < 10; i++)
    s += dead_code(i) + dead_after_loop(i * 7);
  check("dead", s, 144);

  s = 0;
  for (i = 0; i < 60; i += 4)
    s = s * 3 + find_pair(nums, 9, i);
  check("find_pair", s, -5750653);
  check("find_big", find_pair(nums, 9, 2000) * 10 + find_pair(big, 3, 7), -12);

  s = 0;
  for (i = 0; i < 6; i++)
    s = s * 10 + first_vowel(words[i]);
  check("vowel", s, -109691);

  printf("%s\n", bad ? "FAIL" : "PASS");
  if (bad)
    return 1;
  return 0;
}
