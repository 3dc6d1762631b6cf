/* Case: null statements. A ';' runs nothing and has no line: after a braced macro body
   ('for (...) MACRO(...);' leaves a ';' after the loop), alone in a loop body, after a label,
   doubled, and as a whole function body. Line counts must match gcov's. */
#include <stdio.h>

typedef struct { int v, t; } Val;

#define COPY(a, b) { Val *d_ = (a); const Val *s_ = (b); d_->v = s_->v; d_->t = s_->t; }

static void move(Val *res, const Val *src, int n, int wanted)
{
  int i;
  for (i = 0; i < n; i++)
    COPY(res + i, src + i);
  for (; i < wanted; i++)
    res[i].t = 0;
  if (n > 2)
    COPY(res, src + 1);
  ;;
}

static int skip_spaces(const char *s)
{
  const char *p = s;
  while (*p == ' ')
    p++;
  for (; *p == '-'; p++)
    ;
  return (int)(p - s);
}

static int labels(int n)
{
  int k = 0;
again:
  ;
  k += n;
  if (k < 10) goto again;
  if (n == 2)
    ;
  else
    k++;
  return k;
}

static void nothing(void) { ; }

int main(void)
{
  Val a[8], b[8];
  int k, s = 0;
  for (k = 0; k < 8; k++) { b[k].v = k; b[k].t = 1; a[k].v = a[k].t = 0; }
  for (k = 0; k < 40; k++) {
    move(a, b, k % 4, 5);
    s += a[1].t + a[0].v;
    nothing();
  }
  s += skip_spaces("   --x") + skip_spaces("y");
  for (k = 1; k < 4; k++) s += labels(k);
  printf("%d\n", s);
  return 0;
}
