/* Case: recursion thousands of activations deep that keeps frames, over several chunks of the runtime's stack of frames, down and up again (chunks reused), left by a longjmp from near the bottom, on a heap whose free memory holds all ones (as an interpreter's freed objects may). */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf top;
static char *volatile seen; /* so that the compiler keeps dirty_heap's stores */

/* Called through a pointer: a call the activation may stop in, so each activation keeps a frame. */
static int twice(int v) { return 2 * v; }
static int (*volatile op)(int) = twice;

/* n levels down; at level jump_at a longjmp back to dive's setjmp. */
static int down(int n, int jump_at)
{
  int x;
  if (n <= 0)
    return 0;
  if (n == jump_at)
    longjmp(top, n);
  x = down(n - 1, jump_at);
  if (x & 1)
    x += op(n);
  else
    x += n;
  return x % 100003;
}

/* down(n, jump_at), or -1 when it jumped back (not a tail call: the longjmp comes back to a
   running activation). */
static int dive(int n, int jump_at)
{
  int r;
  if (setjmp(top))
    return -1;
  r = down(n, jump_at);
  return r < 0 ? 0 : r;
}

/* Memory malloc hands out next, filled with all ones and given back: the runtime's stack of
   frames comes from there. */
static void dirty_heap(void)
{
  size_t n = 1 << 18;
  char *p = malloc(n);
  if (!p)
    return;
  memset(p, 0xff, n);
  seen = p;
  free(seen);
  p = malloc(n / 4);
  if (p)
    memset(p, 0xff, n / 4);
  seen = p;
  free(seen);
}

int main(void)
{
  long sum = 0;
  int i;
  dirty_heap();
  for (i = 0; i < 4; i++)
    sum += dive(1100 + 600 * i, 0);
  printf("down and up: %ld\n", sum);
  printf("longjmp from the bottom: %d\n", dive(2500, 7));
  for (i = 0; i < 3; i++)
    sum += dive(2100 + i, 0);
  printf("after: %ld\n", sum);
  return 0;
}
