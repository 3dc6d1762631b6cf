/* Sample: while, do/while, every form of for (empty init/cond/inc), side-effect conditions, empty bodies. */
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

static int next_val(int *state)
{
  *state = (*state * 75 + 74) % 65537;
  return *state;
}

int main(void)
{
  const char text[] = "loops, loops and more loops";
  const char *p;
  int i, j, n, st;
  long s;

  /* while with a side effect in its condition and an empty body */
  p = text;
  while (*p++ != 0)
    ;
  check("strlen", (long)(p - text - 1), 27);

  /* plain while, counting down */
  i = 10; s = 0;
  while (i > 0) { s += i * i; i--; }
  check("while", s, 385);

  /* do/while runs once even when the condition is false at once */
  i = 100; n = 0;
  do { n++; } while (i < 50);
  check("do-once", n, 1);

  /* do/while with a side-effect condition */
  st = 1; n = 0;
  do n++; while (next_val(&st) % 7 != 0);
  check("do-side", n, 2);

  /* for (init; cond; inc) */
  s = 0;
  for (i = 0; i < 20; i++) s += i;
  check("for-111", s, 190);

  /* for (init; cond; ) */
  s = 0;
  for (i = 0; i < 20; ) { s += i; i += 3; }
  check("for-110", s, 63);

  /* for (init; ; inc) */
  s = 0;
  for (i = 1; ; i *= 2) { if (i > 1000) break; s += i; }
  check("for-101", s, 1023);

  /* for (init; ; ) */
  s = 0;
  for (i = 7; ; ) { s += i; if (i == 1) break; i = (i % 2) ? 3 * i + 1 : i / 2; }
  check("for-100", s, 288);

  /* for ( ; cond; inc) */
  i = 3; s = 0;
  for (; i < 40; i += 5) s += i;
  check("for-011", s, 164);

  /* for ( ; cond; ) */
  i = 0; s = 0;
  for (; i < 5;) s += ++i;
  check("for-010", s, 15);

  /* for ( ; ; inc) */
  i = 0; s = 0;
  for (;; i++) { if (i >= 12) break; if (i % 3 == 0) continue; s += i; }
  check("for-001", s, 48);

  /* for (;;) */
  i = 0; s = 0;
  for (;;) { i++; s += i % 4; if (s > 30) break; }
  check("for-000", s * 100 + i, 3121);

  /* for with a declaration, a comma increment and an empty body */
  for (int k = 0, m = 100; k < m; k++, m -= 2)
    ;
  n = 0;
  for (int k = 0, m = 100; k < m; k++, m -= 2)
    n++;
  check("for-decl", n, 34);

  /* while whose condition calls a function with side effects */
  st = 50; n = 0;
  while (next_val(&st) > 1000) n++;
  check("while-side", n, 11);

  /* loops that never run */
  n = 0;
  while (0) n++;
  for (i = 0; i < 0; i++) n++;
  for (j = 5; j < 5; ) { n++; j++; }
  check("never", n, 0);

  /* empty statements all over */
  ; ;
  { ; }
  s = 0;
  for (i = 0; i < 3; i++) { ; s += i; ; }
  check("empty", s, 3);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
