/* Case: GNU statement expressions with control flow inside (loops, break, continue, labels, goto, return, switch, nested), in conditions, initializers, arguments and ?: arms; glibc's fwrite_unlocked macro (a for loop with break) at -O2 through a gnulib-style "#define fwrite fwrite_unlocked". */
#define _DEFAULT_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define fwrite fwrite_unlocked /* gnulib's unlocked-io */

/* A macro with a local label, expanded twice in one function. */
#define CLAMP(v, hi) __extension__ ({ __label__ done; int _v = (v); \
  if (_v <= (hi)) { goto done; } _v = (hi); done: _v; })

static int total;
static volatile size_t lengths[2] = { 4, 2 };  /* unknown to the optimizer: __builtin_constant_p stays 0 */

/* A function to pass statement expressions to. */
static int abs_like(int v)
{
  return v < 0 ? -v : v;
}

/* Output through glibc's fwrite_unlocked: a small constant size takes the macro's loop. */
static size_t out(const char *s, size_t n)
{
  size_t w = 0;
  if (n == 2)
    w += fwrite(s, 1, 2, stdout);
  else
    w += fwrite(s, 1, n, stdout);
  w += fwrite("\n", 1, 1, stdout);
  return w;
}

/* Loops, break and continue bound inside the statement expression. */
static int inner_loops(int n)
{
  int s = __extension__ ({
    int acc = 0, i;
    for (i = 0; i < n; i++) {
      if (i % 3 == 0)
        continue;
      if (acc > 20)
        break;
      acc += i;
    }
    acc;
  });
  return s + CLAMP(n, 4) + CLAMP(s, 10);
}

/* break and continue inside a statement expression bound to the function's own loop. */
static int outer_jumps(int n)
{
  int i, k = 0;
  for (i = 0; i < n; i++) {
    k += __extension__ ({
      int t = i * 2;
      if (t == 6)
        continue;
      if (t > 12)
        break;
      t;
    });
  }
  while (k > 0) {
    switch (__extension__ ({ int r = k % 4; if (r == 3) break; r; })) {
    case 0: k -= 3; break;
    default: k -= 1; break;
    }
  }
  return k + i;
}

/* goto out of a statement expression, return inside one, a switch inside one. */
static int escapes(int x)
{
  int y = __extension__ ({
    int z = x;
    switch (z & 3) {
    case 0: z += 10; break;
    case 1: goto odd;
    case 2: return -x;
    default: z--;
    }
    z;
  });
  return y;
odd:
  return 1000 + x;
}

/* Nested statement expressions, one in a while condition, one as an argument, one in a ?: arm. */
static int nested(int n)
{
  int c = 0;
  while (__extension__ ({ int m = n--; while (m > 5) m -= 5; m > 0; }))
    c += __extension__ ({ int a = __extension__ ({ int j = 0; do j++; while (j < n % 3); j; }); a + 1; });
  c += abs_like(CLAMP(c, 50));
  return n > -3 ? __extension__ ({ int q = 0; for (;;) { if (++q >= 2) break; } q; }) : c;
}

/* A void statement expression in a ?: arm, ones in a for's init and increment, a break inside
   one bound to a switch of the function, a label its value follows, one in a typeof (never
   run), one after &&, and a call that never returns inside one. */
static int shapes(int n)
{
  int s = 0, i;
  n > 2 ? __extension__ ({ int j; for (j = 0; j < n; j++) s += j; }) : (void)0;
  for (i = __extension__ ({ int t = 0; while (t < 2) t++; t; }); i < n; i += __extension__ ({ int u = 1; if (i & 1) u = 2; u; }))
    s++;
  for (i = 0; i < n; i++) {
    switch (i % 3) {
    case 0:
      s += __extension__ ({ int v = i; if (v > 4) break; v; });
      break;
    default:
      s--;
    }
  }
  s += __extension__ ({ int w = n; if (w > 5) goto out; w *= 2; out: w; });
  __typeof__(__extension__ ({ int q = 0; while (q < 1) q++; q; })) z = 3;
  s += z;
  if (n > 1 && __extension__ ({ int m = n; while (m > 3) m -= 3; m == 2; }))
    s += 100;
  s += __extension__ ({ if (n > 1000) abort(); 1; });
  return s;
}

int main(void)
{
  int i;
  for (i = 0; i < 9; i++) {
    total += inner_loops(i) + outer_jumps(i) + escapes(i) + nested(i) + shapes(i);
    out(i & 1 ? "ab" : "abcd", lengths[i & 1]);
  }
  if (__extension__ ({ int ok = total != 0; ok; }))
    printf("%d\n", total);
  return 0;
}
