/* abort() from a failed assert in a callee: SIGABRT, caught by the runtime's crash handler (and
   by gcovdump.c's __gcov_dump in the gcc build). */
#include <assert.h>
#include <stdio.h>

static int check(int v)
{
  int w = v * v;
  if (w > 10)
    w -= 10;
  assert(w != 15);
  return w;
}

static int run(int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += check(i);
  return s;
}

int main(void)
{
  printf("%d\n", run(3));
  printf("%d\n", run(6));
  return 0;
}
