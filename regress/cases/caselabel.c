/* Case: a user label right after a case label ('default: retry: {') that a goto reaches from
   another case. GCC makes the two labels one block, so the line counts the switch's dispatches
   to default and the gotos; line counts must match gcov's. */
#include <stdio.h>

static int scan(const char *p, int s)
{
top:
  if (*p) {
    switch (*p) {
    case '$': {
      if (p[1] != 0)
        goto other;
      s += 100;
      break;
    }
    case '#':
      s += 7;
      p++;
      goto top;
    default: other: {
      const char *next = p + 1;
      if (*next == 'x') {
        p = next + 1;
        goto top;
      }
      s++;
      p = next;
      goto top;
    }
    }
  }
  return s;
}

int main(void)
{
  int t = 0, k;
  for (k = 0; k < 10; k++) t += scan(k % 3 ? "ab$cx$d#xe$" : "#$", k);
  printf("%d\n", t);
  return 0;
}
