/* execv from a callee: the process image is replaced while main and launch() run. */
#include <stdio.h>
#include <unistd.h>

static int launch(int n)
{
  char *argv[] = { "true", 0 };
  if (n < 3)
    return n;
  fflush(stdout);
  execv("/bin/true", argv);
  perror("execv");
  return -1;
}

int main(void)
{
  int s = 0;
  for (int i = 0; i < 5; i++) {
    s += launch(i);
    printf("%d\n", s);
  }
  return 0;
}
