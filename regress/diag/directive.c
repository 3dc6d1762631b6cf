/* A #warning, which -Werror makes an error: the preprocessor's diagnostics come once. */
/* diag: -Werror */
#warning "configure me"
int k(int x)
{
  return x ? x * 2 : 1;
}
