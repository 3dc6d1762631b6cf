/* Case (issue 26, classes 4 to 7): lines gcov gets wrong, where pathprof keeps what ran (each
   equals llvm-cov's count; coverage_gcov_known.txt lists them as gcov differences). */
#include <stdio.h>
#include <string.h>

int sink;

/* class 4: a case label whose statement emits no code: gcov gives it the next block's count */
static int kind(int c)
{
  int r = 0;
  switch (c) {
  case 1: r = 10; break;
  default:;
  }
  r++;
  return r;
}

/* class 5: jumps out of a scope with locals in memory go through one cleanup block that GCC
   gives the line of the scope's first return */
static int scan(const char *s, int n)
{
  int t = 0;
  for (int i = 0; i < n; i++) {
    char buf[16];
    strncpy(buf, s, sizeof buf - 1);
    buf[15] = 0;
    if (buf[0] == 'a')
      return 1;
    if (buf[0] == 'b')
      return 2;
    t += buf[1];
  }
  return t;
}

/* class 6: always_inline calls are inlined before gcov counts: the caller's line is counted
   once more per inlined return */
static inline __attribute__((always_inline)) int clamp(int x, int hi)
{
  if (x > hi)
    return hi;
  return x;
}

static int often(int x) { return clamp(x, 5) + clamp(x + 1, 5); }

/* class 7: a statement over lines with a call on a later line that GCC inlines: gcov counts the
   first line twice */
static int add3(int a, int b, int c) { return a + b + c; }

static int spread(int x)
{
  int v = add3(x,
               clamp(x, 3),
               x + 1);
  return v;
}

int main(void)
{
  int s = 0;
  for (int i = 0; i < 10; i++) {
    s += kind(i % 3);
    s += scan(i % 2 ? "bx" : "cx", 3);
    s += spread(i) + often(i);
  }
  printf("%d %d\n", s, sink);
  return 0;
}
