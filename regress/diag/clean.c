/* Clean code under every warning the matrix asks for: no diagnostics at all, through pathcc as
   without (nothing pathcc inserts may warn). */
/* diag: -std=c99 -O2 -Wall -Wextra -Wshadow -Wdeclaration-after-statement -Wimplicit-fallthrough -pedantic -Werror */
#include <stdio.h>
#include <stdlib.h>
static int collatz(unsigned long n)
{
  int steps = 0;
  while (n != 1) {
    if (n % 2)
      n = 3 * n + 1;
    else
      n /= 2;
    steps++;
  }
  return steps;
}
int main(int argc, char **argv)
{
  int total = 0, i;
  for (i = 1; i < argc; i++) {
    switch (argv[i][0]) {
    case 'q':
      return 0;
    case 'x':
      total += 2;
      break;
    default:
      total += collatz(strtoul(argv[i], NULL, 10));
    }
  }
  printf("%d\n", total);
  return 0;
}
