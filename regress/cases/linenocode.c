/* Case (issue 26, a convention): statements that compile to nothing (an assert under NDEBUG, a
   debug macro of do {} while (0), (void)x through a macro, a constant condition) count their
   executions, as llvm-cov counts them; gcov shows no line for them, and pathprof coverage
   --no-code=gcov leaves them out the same way. */
#include <stdio.h>
#define NDEBUG
#include <assert.h>

#define DBG(x) do { } while (0)
#define UNUSED(x) (void)(x)

static int f(int x, int y)
{
  assert(x >= 0);
  DBG(x);
  UNUSED(y);
  (void)y;
  enum { check = 1 / (int)(sizeof(int) == 4) };
  if (sizeof(int) != 4)
    return -1;
  return x + 1;
}

int main(void)
{
  int s = 0;
  for (int i = 0; i < 10; i++) s += f(i, i);
  printf("%d\n", s);
  return 0;
}
