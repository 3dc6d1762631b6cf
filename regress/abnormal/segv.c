/* SIGSEGV in a callee's own code: fill() writes through a null pointer on its 5th activation.
   Built with pathcc --frames=all: fill makes no call that may stop, so only then do it and
   middle() keep frames; the runtime's crash handler (gcovdump.c's __gcov_dump in the gcc build)
   keeps the counts of every activation on the stack. */
#include <stdio.h>
#include <string.h>

static char area[64];

static int fill(char *dst, int n)
{
  int k = n + 1;
  memset(area + 32, 'x', (size_t)k);
  dst[k] = 0;
  return k;
}

static int middle(int i)
{
  int r = 0;
  if (i % 2)
    r = 1;
  r += fill(i < 4 ? area : (char *)0, i);
  return r;
}

int main(void)
{
  int t = 0;
  for (int i = 0; i < 8; i++) {
    t += middle(i);
    printf("%d\n", t);
  }
  return 0;
}
