/* ISO C90 has no long long: -std=c89 -pedantic-errors fails, with pathcc's own counters (long
   long too) as quiet as without. */
/* diag: -std=c89 -pedantic-errors */
long long wide(int n)
{
  long long s = 0;
  int i;
  for (i = 0; i < n; i++)
    s += i;
  return s;
}
