/* die() in another unit (diedie.c) ends the program from inside parse(): the example. */
#include <stdio.h>
#include <stdlib.h>

void die(const char *msg);

static int parse(const char *s)
{
  int v = atoi(s);
  if (v < 0)
    die("negative");
  return v * 2;
}

int main(int argc, char **argv)
{
  int t = 0;
  for (int i = 1; i < argc; i++) {
    t += parse(argv[i]);
    printf("%d\n", t);
  }
  return 0;
}
