/* Sample: direct recursion, mutual recursion, and a recursive-descent parser built from mutually recursive functions. */
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

static long fib(int n)
{
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

static int ackermann(int m, int n)
{
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
  return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
  if (n == 0)
    return 0;
  return is_even(n - 1);
}

static long moves;

static void hanoi(int n, int from, int to, int via)
{
  if (n == 0)
    return;
  hanoi(n - 1, from, via, to);
  moves = moves * 3 % 1000003 + from * 4 + to;
  hanoi(n - 1, via, to, from);
}

/* expr := term { (+|-) term } ; term := factor { (*|/) factor } ; factor := num | ( expr ) | - factor */
static const char *pos;
static long expr(void);

static long factor(void)
{
  long v = 0;
  if (*pos == '(') {
    pos++;
    v = expr();
    if (*pos == ')')
      pos++;
    return v;
  }
  if (*pos == '-') {
    pos++;
    return -factor();
  }
  while (*pos >= '0' && *pos <= '9')
    v = v * 10 + (*pos++ - '0');
  return v;
}

static long term(void)
{
  long v = factor();
  for (;;) {
    if (*pos == '*') { pos++; v *= factor(); }
    else if (*pos == '/') {
      long d;
      pos++;
      d = factor();
      v = d ? v / d : 0;
    } else
      return v;
  }
}

static long expr(void)
{
  long v = term();
  while (*pos == '+' || *pos == '-') {
    char op = *pos++;
    long t = term();
    v = op == '+' ? v + t : v - t;
  }
  return v;
}

static long eval(const char *s)
{
  pos = s;
  return expr();
}

int main(void)
{
  static const char *exprs[] = { "1+2*3", "(1+2)*3", "-(4-10)/2", "((((7))))", "2*(3+(4-1)*5)-6/0", "100/7/2" };
  long s;
  int i;

  check("fib", fib(16), 987);
  check("ackermann", ackermann(2, 3) * 100 + ackermann(1, 5), 907);
  s = 0;
  for (i = 0; i < 25; i++)
    s = s * 3 + is_even((unsigned)i) + is_odd((unsigned)(i / 3));
  check("even_odd", s, 332863382281);
  moves = 0;
  hanoi(6, 1, 3, 2);
  check("hanoi", moves, 335167);
  s = 0;
  for (i = 0; i < 6; i++)
    s = s * 100 + eval(exprs[i]);
  check("eval", s, 70903073607);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
