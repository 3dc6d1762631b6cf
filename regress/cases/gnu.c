/* Case: GNU C and the corners of ISO C: statement expressions, asm, attributes, __builtin_expect,
   _Static_assert, K&R definitions, variadic functions, VLAs, case ranges, noreturn calls, setjmp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX(a, b) ({ __typeof__(a) _a = (a), _b = (b); _a > _b ? _a : _b; })

static int kr(a, b)
  int a;
  int b;
{
  if (a > b) return a - b;
  return b - a;
}

static int sum(int n, ...)
{
  va_list ap;
  int s = 0;
  va_start(ap, n);
  while (n-- > 0) s += va_arg(ap, int);
  va_end(ap);
  return s;
}

static int vla(int n)
{
  int a[n], s = 0;
  for (int i = 0; i < n; i++) a[i] = i * i;
  for (int i = n - 1; i >= 0; i--)
    if (a[i] & 1) s += a[i];
  return s;
}

static const char *kind(int c)
{
  switch (c) {
  case '0' ... '9': return "digit";
  case 'a' ... 'z':
  case 'A' ... 'Z': return "letter";
  case ' ': return "space";
  default: return "other";
  }
}

__attribute__((noinline, cold)) static int rare(int x) { return x * 3; }

static int hinted(int x)
{
  _Static_assert(sizeof(int) >= 2, "int too small");
  int y = 0;
  __asm__ volatile("" : "+r"(y));
  if (__builtin_expect(x > 90, 0)) return rare(x);
  return MAX(x, y + 5) + ({ int t = x; t & 1; });
}

/* A function calling setjmp keeps a volatile path register; no longjmp lands here, since a
   path cut short by one is counted within bounds but not exactly (see doc/limits.md). */
static jmp_buf env;

static int with_setjmp(int n)
{
  volatile int s = 0;  /* live across setjmp: -Wclobbered would rightly warn, more so instrumented */
  if (setjmp(env)) return -1;
  for (int i = 0; i < n; i++) s += i & 1 ? i : -i;
  return s;
}

static void die(const char *msg) __attribute__((noreturn));
static void die(const char *msg)
{
  printf("fatal: %s\n", msg);
  exit(0);
}

int main(void)
{
  long t = 0;
  const char *text = "a1 Z9?";
  for (int i = 0; i < 100; i++) t += kr(i, 50) + hinted(i);
  t += sum(4, 1, 2, 3, 4) + vla(9);
  for (const char *p = text; *p; p++) t += kind(*p)[0];
  printf("t=%ld setjmp=%d\n", t, with_setjmp(7));
  if (t > 0) die("done");
  return 1;
}
