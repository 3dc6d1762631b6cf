/* SIGSEGV in a callee: show() hands a null string to fputs on its 5th activation, which faults
   inside the library; the runtime's crash handler (gcovdump.c's __gcov_dump in the gcc build)
   keeps the counts of every activation on the stack. */
#include <stdio.h>

static char area[64] = "abc";

static int show(const char *s, int n)
{
  int k = n + 1;
  fputs(s, stdout);
  putchar('\n');
  return k;
}

static int middle(int i)
{
  int r = 0;
  if (i % 2)
    r = 1;
  r += show(i < 4 ? area : (const char *)0, i);
  return r;
}

int main(void)
{
  int t = 0;
  for (int i = 0; i < 8; i++) {
    t += middle(i);
    printf("%d\n", t);
    fflush(stdout);
  }
  return 0;
}
