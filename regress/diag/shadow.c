/* A local that shadows a parameter, under -Wshadow -Werror. */
/* diag: -Wshadow -Werror */
int g(int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) {
    int n = i * 2;
    s += n;
  }
  return s;
}
