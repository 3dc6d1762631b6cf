/* longjmp over three activations (c3 -> c2 -> c1) back into main's setjmp, five times. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static int depth_seen;

static void c3(int d)
{
  depth_seen = d;
  if (d % 2)
    longjmp(env, d);
  printf("c3 %d\n", d);
}

static void c2(int d)
{
  if (d > 0)
    c3(d + 1);
  printf("c2 %d\n", d);
}

static void c1(int d)
{
  int k = d * 2;
  c2(k);
  printf("c1 %d\n", k);
}

int main(void)
{
  int jumps = 0;
  for (int i = 0; i < 6; i++) {
    if (setjmp(env) == 0) {
      c1(i);
      printf("returned %d\n", i);
    } else {
      jumps++;
      printf("jumped %d\n", depth_seen);
    }
  }
  printf("%d jumps\n", jumps);
  return 0;
}
