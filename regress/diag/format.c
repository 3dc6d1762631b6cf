/* A format that does not match its argument, under -Wformat -Werror. */
/* diag: -Wformat -Werror */
#include <stdio.h>
void show(int n)
{
  if (n > 0)
    printf("%s\n", n);
  else
    printf("none\n");
}
