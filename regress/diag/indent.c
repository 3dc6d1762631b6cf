/* Misleading indentation under -Wall -Werror: pathcc's code on these lines shifts columns, the
   verdict must not change. */
/* diag: -Wall -Werror */
int m(int x)
{
  int y = 0;
  if (x > 1)
    y = 1;
    y += 2;
  for (int i = 0; i < x; i++)
    y++;
    y *= 2;
  return y;
}
