/* Warnings gcc's optimizer gives (a value used uninitialized, control reaching the end of a
   non-void function): -fsyntax-only does not see them, the full compile of the source does. */
/* diag: -O2 -Wall -Werror */
int pick(int c)
{
  int v;
  if (c > 2)
    v = 1;
  return v + c;
}
int sign(int c)
{
  if (c > 0)
    return 1;
  if (c < 0)
    return -1;
}
