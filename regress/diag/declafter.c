/* A declaration after a statement, under -Wdeclaration-after-statement -Werror; pathcc's own code
   before declarations must not add any. */
/* diag: -std=c99 -Wdeclaration-after-statement -Werror */
int h(int n)
{
  int s = 0;
  if (n > 2)
    s = 1;
  int t = n * 2;
  while (t-- > 0) {
    int u = t & 1;
    s += u;
  }
  return s;
}
