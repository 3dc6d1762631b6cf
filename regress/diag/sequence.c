/* Calls an activation may stop in (name() may exit), two in the unsequenced operands of one
   expression: a call's arguments, a sum. pathcc marks each such call in the activation's frame;
   the marks must not be unsequenced stores (-Wsequence-point, clang's -Wunsequenced). */
/* diag: -std=c99 -O2 -Wall -Wextra -Wsequence-point -pedantic -Werror */
#include <stdio.h>
#include <stdlib.h>
static int name(int x)
{
  if (x > 100)
    exit(3);
  return x * 2;
}
static int both(int a, int b)
{
  return printf("%d %d\n", name(a), name(b)) + name(a) * (b ? name(b) : name(a));
}
int main(int argc, char **argv)
{
  (void)argv;
  return both(argc, argc + 1) == 0;
}
