/* Warnings without -Werror: status 0 and the same warning lines, from the source. */
/* diag: -Wall -Wextra */
#include <stdio.h>
static int unused_fn(void) { return 1; }
int n(int a, unsigned b)
{
  int r = 0;
  if (a < b)
    r = 1;
  switch (a) {
  case 1: r++;
  case 2: r--; break;
  }
  printf("%d\n", r);
  return r;
}
