/* hotsub.c: several cold paths sharing one hot subpath (the motivating figure of Oren's online subpath profiling thesis). */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state = 0x2545f4914f6cdd1dULL;

/* A small deterministic generator, so every run executes the same blocks. */
static unsigned next(void)
{
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (unsigned)(state >> 32);
}

/* One of six ways in (2a..2f), the shared part (3 4 5 6: every path runs it), one of six ways
   out (7a..7f): 36 Ball-Larus paths, none hot, and one hot subpath across all of them. */
static unsigned route(unsigned r, unsigned x)
{
  switch (r % 6) {            /* ways in, skewed */
  case 0: x += 1; break;
  case 1: x ^= 0x9e37u; break;
  case 2: x = x * 3 + 1; break;
  case 3: x = x >> 1 | x << 31; break;
  case 4: x -= 7; break;
  default: x = ~x; break;
  }
  if (x != 0xdeadbeefu) x ^= x >> 5;   /* 3: the hot subpath starts */
  if (x != 0xfeedfaceu) x += 0x1234;   /* 4 */
  if (x != 0xcafef00du) x *= 2654435761u; /* 5 */
  if (x != 0x0badc0deu) x ^= x >> 11;  /* 6 */
  switch ((r / 6) % 6) {      /* ways out */
  case 0: x += 5; break;
  case 1: x ^= 0x55u; break;
  case 2: x = x * 5; break;
  case 3: x >>= 2; break;
  case 4: x -= 11; break;
  default: x = x << 3 | x >> 29; break;
  }
  return x;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 2000, i;
  unsigned x = 1;
  for (i = 0; i < n; i++)
    x = route(next(), x);
  printf("%u\n", x);
  return 0;
}
