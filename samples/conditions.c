/* Sample: &&, || and ?: in conditions with side effects, comma operators, loop conditions that change state. */
#include <stdio.h>

static int bad;
static int calls;
static char log_buf[256];
static int log_len;

static void check(const char *what, long got, long want)
{
  printf("%-14s %ld\n", what, got);
  if (got != want) {
    printf("  wrong, want %ld\n", want);
    bad++;
  }
}

/* Records its call in the log and returns v: short-circuiting shows in the log. */
static int t(char tag, int v)
{
  calls++;
  if (log_len < (int)sizeof log_buf - 1)
    log_buf[log_len++] = tag;
  return v;
}

static int shortcircuit(int a, int b, int c)
{
  int r = 0;
  if (t('a', a) && t('b', b))
    r |= 1;
  if (t('c', c) || t('d', a))
    r |= 2;
  if ((t('e', a) && t('f', b)) || t('g', c))
    r |= 4;
  if (t('h', a) ? t('i', b) : t('j', c))
    r |= 8;
  if (!(t('k', a) || t('l', b)) && !t('m', c))
    r |= 16;
  r += t('n', a) ? (t('o', b) ? 100 : 200) : (t('p', c) ? 300 : 400);
  return r;
}

static unsigned hashstr(const char *s)
{
  unsigned h = 5381;
  int ch;
  while ((ch = *s++) != 0 && ch != ';')
    h = h * 33 + (unsigned)ch;
  return h;
}

int main(void)
{
  int a, b, c, i, j, n;
  long s = 0;
  unsigned h;

  for (a = 0; a < 2; a++)
    for (b = 0; b < 2; b++)
      for (c = 0; c < 2; c++)
        s = s * 7 + shortcircuit(a, b, c);
  check("shortcircuit", s, 387092688);
  check("calls", calls, 88);
  h = hashstr(log_buf);
  check("log_hash", (long)(h % 1000003u), 800335);

  /* loop conditions with side effects: increments, calls and assignments in the condition */
  i = 0; n = 0;
  while (i++ < 10 && t('w', i % 4))
    n += i;
  check("while_and", n * 100 + i, 604);

  i = 0; j = 20; n = 0;
  for (; i < j || t('x', 0); i += 2, j--)
    n++;
  check("for_or", n * 100 + i, 714);

  i = 5; n = 0;
  do
    n += i;
  while (--i > 0 && (n & 1 ? 1 : n < 100));
  check("do_ternary", n * 10 + i, 150);

  /* comma operator in a condition: the last operand decides */
  i = 0; n = 0;
  while (n += i, i++ < 6)
    ;
  check("comma", n, 21);

  /* conditional expression choosing the branch of an if */
  n = 0;
  for (i = -3; i <= 3; i++)
    if ((i < 0 ? -i : i) > 1 && (i & 1 ? i > 0 : i < 0))
      n += i * 10;
    else
      n += 1;
  check("abs_cond", n, 15);

  check("hash_semi", (long)(hashstr("abc;def") % 1000u), 963);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
