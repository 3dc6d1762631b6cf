/* sostress_lib.c: the instrumented shared objects of regress/e2e/sostress.sh, one source built
   into liba.so (-DPART=1, linked to the host), libbI.so (-DPART=2 -DID=I, dlopened, several) and
   libc.so (-DPART=3, dlopened): deep recursion that keeps frames, calls into other objects at
   depth, a signal raised at depth whose handler (libc.so) recurses too. */
#include <signal.h>

#if PART == 1
/* n levels down; at level sig a signal; at every 64th level a call of cb (another object). */
int rec_a(int n, int sig, int (*cb)(int))
{
  int x;
  if (n <= 0)
    return 1;
  if (n == sig)
    raise(SIGUSR1);
  x = rec_a(n - 1, sig, cb);
  if (n % 64 == 0)
    x += cb(n / 64);
  else if (x & 1)
    x += n;
  return x % 10007;
}
#elif PART == 2
/* Recursion n deep with a branch on the way up. */
int leaf_b(int n)
{
  int x;
  if (n <= 0)
    return 0;
  x = leaf_b(n - 1);
  return x & 2 ? x + ID : x + 3;
}
#else
volatile int handled;

/* Recursion n deep, run by the signal handler. */
static int spin(int n)
{
  int x;
  if (n <= 0)
    return 0;
  x = spin(n - 1);
  return x % 3 ? x + n : x + 1;
}

/* The signal handler. */
void on_sig(int sig)
{
  handled += spin(100) + (sig == SIGUSR1);
}
#endif
