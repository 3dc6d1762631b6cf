/* bench workload "bigpaths": functions with far more acyclic paths than an array indexed by
   path number could once hold. route22() has 22 independent two-way decisions in a row,
   2^22 = 4,194,304 paths (path mode counts them in a lazily mapped array); route26() has 26,
   2^26 = 67,108,864 paths, past the array bound of 2^24 counters (counted in the unit's hash
   table). Each call takes the path its argument's bits choose; the arguments come from a pool of
   40,000 values, the first ones far more often than the last, so a run touches at most that
   many paths of each, some much more than others, as a real program's big function runs a small
   part of its paths. Each result is checked against the same steps read
   from a table by a loop. Usage: bigpaths [SCALE]  (rounds of 100,000 calls, default 40) */
#include <stdio.h>
#include <stdlib.h>

unsigned long route22(unsigned long x)
{
  unsigned long s = x;
  if (x & (1UL << 0)) s = s * 11UL + 1; else s -= 43UL;
  if (x & (1UL << 1)) s += 6UL; else s = (s << 3) ^ (s >> 8);
  if (x & (1UL << 2)) s = s * 39UL + 1; else s += 60UL;
  if (x & (1UL << 3)) s = (s << 3) ^ (s >> 15); else s += 7UL;
  if (x & (1UL << 4)) s -= 28UL; else s += 17UL;
  if (x & (1UL << 5)) s += 37UL; else s -= 5UL;
  if (x & (1UL << 6)) s = (s << 3) ^ (s >> 9); else s ^= 0x2aUL;
  if (x & (1UL << 7)) s = s + (s >> 39); else s += 38UL;
  if (x & (1UL << 8)) s = (s << 3) ^ (s >> 27); else s += 16UL;
  if (x & (1UL << 9)) s += 37UL; else s ^= 0x14UL;
  if (x & (1UL << 10)) s -= 11UL; else s = (s << 3) ^ (s >> 9);
  if (x & (1UL << 11)) s = (s << 3) ^ (s >> 21); else s = (s << 3) ^ (s >> 54);
  if (x & (1UL << 12)) s = s + (s >> 13); else s += 39UL;
  if (x & (1UL << 13)) s = (s << 3) ^ (s >> 42); else s ^= 0x19UL;
  if (x & (1UL << 14)) s += 37UL; else s = s + (s >> 6);
  if (x & (1UL << 15)) s = (s << 3) ^ (s >> 5); else s = (s << 3) ^ (s >> 15);
  if (x & (1UL << 16)) s -= 45UL; else s = (s << 3) ^ (s >> 29);
  if (x & (1UL << 17)) s = s * 31UL + 1; else s = (s << 3) ^ (s >> 31);
  if (x & (1UL << 18)) s = s * 21UL + 1; else s ^= 0x34UL;
  if (x & (1UL << 19)) s ^= 0x2eUL; else s ^= 0x7UL;
  if (x & (1UL << 20)) s = (s << 3) ^ (s >> 21); else s = (s << 3) ^ (s >> 33);
  if (x & (1UL << 21)) s = s * 48UL + 1; else s -= 20UL;
  return s;
}

unsigned long route26(unsigned long x)
{
  unsigned long s = x;
  if (x & (1UL << 0)) s = (s << 3) ^ (s >> 6); else s += 34UL;
  if (x & (1UL << 1)) s -= 12UL; else s = s * 11UL + 1;
  if (x & (1UL << 2)) s -= 28UL; else s += 44UL;
  if (x & (1UL << 3)) s += 50UL; else s = (s << 3) ^ (s >> 38);
  if (x & (1UL << 4)) s = s * 23UL + 1; else s = s + (s >> 24);
  if (x & (1UL << 5)) s = (s << 3) ^ (s >> 33); else s = (s << 3) ^ (s >> 53);
  if (x & (1UL << 6)) s -= 6UL; else s += 19UL;
  if (x & (1UL << 7)) s -= 46UL; else s = s + (s >> 6);
  if (x & (1UL << 8)) s += 48UL; else s = s + (s >> 21);
  if (x & (1UL << 9)) s = s + (s >> 38); else s = s + (s >> 54);
  if (x & (1UL << 10)) s -= 20UL; else s = s + (s >> 26);
  if (x & (1UL << 11)) s = s + (s >> 24); else s += 31UL;
  if (x & (1UL << 12)) s = s * 12UL + 1; else s = (s << 3) ^ (s >> 9);
  if (x & (1UL << 13)) s -= 5UL; else s ^= 0x33UL;
  if (x & (1UL << 14)) s = s * 10UL + 1; else s = s + (s >> 17);
  if (x & (1UL << 15)) s -= 27UL; else s -= 7UL;
  if (x & (1UL << 16)) s ^= 0x1eUL; else s -= 37UL;
  if (x & (1UL << 17)) s = s * 58UL + 1; else s ^= 0x36UL;
  if (x & (1UL << 18)) s -= 57UL; else s = (s << 3) ^ (s >> 19);
  if (x & (1UL << 19)) s = s + (s >> 28); else s = s * 45UL + 1;
  if (x & (1UL << 20)) s -= 16UL; else s ^= 0x7UL;
  if (x & (1UL << 21)) s ^= 0xbUL; else s ^= 0x2cUL;
  if (x & (1UL << 22)) s ^= 0x2UL; else s -= 55UL;
  if (x & (1UL << 23)) s = (s << 3) ^ (s >> 13); else s = s * 20UL + 1;
  if (x & (1UL << 24)) s += 11UL; else s -= 36UL;
  if (x & (1UL << 25)) s = s * 41UL + 1; else s = (s << 3) ^ (s >> 22);
  return s;
}

/* The steps of route22 and route26 as data: when bit i is set, step {kind, k} of column 0-1,
   else of column 2-3 (kinds: add, xor, multiply-add, subtract, shift-xor, add-shifted). */
static const unsigned char t22[22][4] = {
  { 2, 11, 3, 43 },
  { 0, 6, 4, 8 },
  { 2, 39, 0, 60 },
  { 4, 15, 0, 7 },
  { 3, 28, 0, 17 },
  { 0, 37, 3, 5 },
  { 4, 9, 1, 42 },
  { 5, 39, 0, 38 },
  { 4, 27, 0, 16 },
  { 0, 37, 1, 20 },
  { 3, 11, 4, 9 },
  { 4, 21, 4, 54 },
  { 5, 13, 0, 39 },
  { 4, 42, 1, 25 },
  { 0, 37, 5, 6 },
  { 4, 5, 4, 15 },
  { 3, 45, 4, 29 },
  { 2, 31, 4, 31 },
  { 2, 21, 1, 52 },
  { 1, 46, 1, 7 },
  { 4, 21, 4, 33 },
  { 2, 48, 3, 20 }
};
static const unsigned char t26[26][4] = {
  { 4, 6, 0, 34 },
  { 3, 12, 2, 11 },
  { 3, 28, 0, 44 },
  { 0, 50, 4, 38 },
  { 2, 23, 5, 24 },
  { 4, 33, 4, 53 },
  { 3, 6, 0, 19 },
  { 3, 46, 5, 6 },
  { 0, 48, 5, 21 },
  { 5, 38, 5, 54 },
  { 3, 20, 5, 26 },
  { 5, 24, 0, 31 },
  { 2, 12, 4, 9 },
  { 3, 5, 1, 51 },
  { 2, 10, 5, 17 },
  { 3, 27, 3, 7 },
  { 1, 30, 3, 37 },
  { 2, 58, 1, 54 },
  { 3, 57, 4, 19 },
  { 5, 28, 2, 45 },
  { 3, 16, 1, 7 },
  { 1, 11, 1, 44 },
  { 1, 2, 3, 55 },
  { 4, 13, 2, 20 },
  { 0, 11, 3, 36 },
  { 2, 41, 4, 22 }
};

static unsigned long by_table(const unsigned char (*t)[4], int n, unsigned long x)
{
  unsigned long s = x;
  for (int i = 0; i < n; i++) {
    const unsigned char *step = (x >> i) & 1 ? t[i] : t[i] + 2;
    unsigned long k = step[1];
    switch (step[0]) {
    case 0: s += k; break;
    case 1: s ^= k; break;
    case 2: s = s * k + 1; break;
    case 3: s -= k; break;
    case 4: s = (s << 3) ^ (s >> k); break;
    default: s = s + (s >> k); break;
    }
  }
  return s;
}

static unsigned long long seed = 0x2545F4914F6CDD1DULL;
static unsigned long next_rand(void) {
  seed ^= seed >> 12; seed ^= seed << 25; seed ^= seed >> 27;
  return (unsigned long)(seed * 0x2545F4914F6CDD1DULL);
}

int main(int argc, char **argv)
{
  long rounds = argc > 1 ? atol(argv[1]) : 40;
  enum { POOL = 40000 };
  static unsigned long pool[POOL];
  for (int i = 0; i < POOL; i++) pool[i] = next_rand();
  unsigned long sum = 0;
  for (long r = 0; r < rounds; r++)
    for (int i = 0; i < 100000; i++) {
      unsigned long x = pool[(next_rand() % POOL) >> (next_rand() % 16)];  /* low indices far more often */
      sum += route22(x) ^ (route26(x) >> 1);
    }
  for (int i = 0; i < POOL; i += 97)
    if (route22(pool[i]) != by_table(t22, 22, pool[i]) || route26(pool[i]) != by_table(t26, 26, pool[i])) {
      printf("FAIL: route and table differ at %d\n", i);
      return 1;
    }
  printf("bigpaths: %ld rounds, sum %lu\nPASS\n", rounds, sum);
  return 0;
}
