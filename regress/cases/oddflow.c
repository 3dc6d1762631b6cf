/* Case: unusual control flow: dead code entered by goto, loops left only by return, continue in do/while, calls in loop conditions, recursive main, K&R definitions, braces inside strings and initializers. */
#include <stdio.h>

static int calls;
static int mainrec;

/* The block after "return" is dead except through the label below it. */
static int deadlabel(int x)
{
  int r = 0;
top:
  if (x > 3) goto tail;
  r += x;
  return r;
  r = -1;
tail:
  x -= 2;
  r += 100;
  goto top;
}

/* An old-style (K&R) definition. */
static int knr(a, b)
  int a;
  int b;
{
  if (a > b) return a - b;
  return b - a;
}

/* A loop with no exit but return. */
static int onlyreturn(int n)
{
  while (1) {
    if (n % 7 == 0) return n;
    n++;
  }
}

/* continue in a do/while goes to the condition. */
static int docont(int n)
{
  int s = 0;
  do {
    n--;
    if (n % 2) continue;
    s += n;
  } while (n > 0);
  return s;
}

static int cond_call(int *p)
{
  calls++;
  return (*p)-- > 0;
}

/* Calls in the condition and in the increment of a for. */
static int loopcall(int n)
{
  int s = 0, i;
  for (i = 0; cond_call(&n); i += cond_call(&n) ? 1 : 2)
    s += i;
  return s;
}

/* Braces in strings, characters, initializers and compound literals. */
static int braces(void)
{
  const char *s = "{ } if (x) { return; } /* */ //";
  char c = '}';
  struct { int a, b; } v = { 1, 2 };
  int arr[] = { [2] = 5, [0] = 1 };
  int *cl = (int[]){ 3, 4 };
  return (int)sizeof s + c + v.a + v.b + arr[2] + cl[1] + (s[0] == '{');
}

static int ternret(int x) { return x > 0 ? x : x < 0 ? -x : 0; }

static void voidret(int *p)
{
  if (*p) {
    *p = 0;
    return;
  }
  *p = 5;
}

int main(void)
{
  int v = 1, r;
  if (mainrec++ < 2)
    return main() + 1;
  voidret(&v);
  r = deadlabel(9) + onlyreturn(10) * 10 + docont(9) * 100 + loopcall(6) * 1000 + braces() * 10000
      + ternret(-4) * 100000 + v + knr(3, 10) * 1000000 + calls * 10000000;
  printf("%d\n", r);
  return r == 78865443 ? 0 : 1;
}
