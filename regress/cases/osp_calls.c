/* osp_calls.c: a hot subpath across a call and its return, shared by the cold paths of three callers (an online subpath profiling test). */
#include <stdio.h>
#include <stdlib.h>

static unsigned seed = 2463534242u;

/* xorshift32: the same blocks in every run. */
static unsigned rnd(void)
{
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

/* The shared callee: its body is the middle of the hot subpath. */
static unsigned mix(unsigned h, unsigned v)
{
  if (h != 7u) h ^= v;
  if (h != 9u) h *= 16777619u;
  return h;
}

/* Three callers, each with cold branches of its own around the shared call. */
static unsigned put(unsigned h, unsigned v)
{
  if (v & 8) v >>= 1; else v += 3;
  h = mix(h, v);
  if (h & 1) h += 5;
  return h;
}

static unsigned get(unsigned h, unsigned v)
{
  if (v & 16) v ^= 0x77; else v -= 9;
  h = mix(h, v);
  if (h & 2) h ^= 0x100;
  return h;
}

static unsigned del(unsigned h, unsigned v)
{
  switch (v % 3) {
  case 0: v += 1; break;
  case 1: v *= 7; break;
  default: v = ~v; break;
  }
  h = mix(h, v);
  return h >> 1 | h << 31;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 2000, i;
  unsigned h = 2166136261u;
  for (i = 0; i < n; i++) {
    unsigned r = rnd(), op = r % 8;
    if (op < 4) h = put(h, r >> 3);
    else if (op < 7) h = get(h, r >> 3);
    else h = del(h, r >> 3);
  }
  printf("%u\n", h);
  return 0;
}
