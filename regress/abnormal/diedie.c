/* The other unit of diemain.c: a die() that is not declared noreturn. */
#include <stdio.h>
#include <stdlib.h>

void die(const char *msg)
{
  fprintf(stderr, "error: %s\n", msg);
  if (msg[0])
    exit(2);
  fprintf(stderr, "empty message\n");
}
