/* An unused variable and parameter under -Wall -Wextra -Werror. */
/* diag: -Wall -Wextra -Werror */
int f(int a, int b)
{
  int unused_here = 3;
  return a > 0 ? a : 0;
}
