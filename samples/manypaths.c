/* Sample: functions with very many paths: 20 sequential ifs (hash counters) and 70 (more paths than 2^64). */
#include <stdio.h>

static int bad;

static void check(const char *what, long got, long want)
{
  printf("%-14s %ld\n", what, got);
  if (got != want) {
    printf("  wrong, want %ld\n", want);
    bad++;
  }
}

/* 2^20 paths: one if per bit of x. */
static unsigned twenty(unsigned x)
{
  unsigned r = 0;
  if (x & (1u << 0)) r += 1;
  if ((x >> 1) & 1u) { r ^= 131u; r++; }
  if (x & (1u << 2)) r = r * 3 + 2; else r += 2;
  if (x & (1u << 3)) r += 22;
  if ((x >> 4) & 1u) { r ^= 524u; r++; }
  if (x & (1u << 5)) r = r * 3 + 5; else r += 2;
  if (x & (1u << 6)) r += 43;
  if ((x >> 7) & 1u) { r ^= 917u; r++; }
  if (x & (1u << 8)) r = r * 3 + 8; else r += 2;
  if (x & (1u << 9)) r += 64;
  if ((x >> 10) & 1u) { r ^= 1310u; r++; }
  if (x & (1u << 11)) r = r * 3 + 11; else r += 2;
  if (x & (1u << 12)) r += 85;
  if ((x >> 13) & 1u) { r ^= 1703u; r++; }
  if (x & (1u << 14)) r = r * 3 + 14; else r += 2;
  if (x & (1u << 15)) r += 106;
  if ((x >> 16) & 1u) { r ^= 2096u; r++; }
  if (x & (1u << 17)) r = r * 3 + 17; else r += 2;
  if (x & (1u << 18)) r += 127;
  if ((x >> 19) & 1u) { r ^= 2489u; r++; }
  return r;
}

/* 70 sequential ifs: 2^70 paths, more than any 64-bit path register can number. */
static unsigned long long seventy(unsigned long long x, unsigned y)
{
  unsigned long long r = 1;
  if ((x >> 0) & 1u) r = r * 5 + 0;
  if ((x >> 1) & 1u) r = r * 5 + 1;
  if ((x >> 2) & 1u) r = r * 5 + 2;
  if ((x >> 3) & 1u) r = r * 5 + 3;
  if ((x >> 4) & 1u) r = r * 5 + 4;
  if ((x >> 5) & 1u) r = r * 5 + 5;
  if ((x >> 6) & 1u) r = r * 5 + 6;
  if ((x >> 7) & 1u) r = r * 5 + 7;
  if ((x >> 8) & 1u) r = r * 5 + 8;
  if ((x >> 9) & 1u) r = r * 5 + 9;
  if ((x >> 10) & 1u) r = r * 5 + 10;
  if ((x >> 11) & 1u) r = r * 5 + 11;
  if ((x >> 12) & 1u) r = r * 5 + 12;
  if ((x >> 13) & 1u) r = r * 5 + 13;
  if ((x >> 14) & 1u) r = r * 5 + 14;
  if ((x >> 15) & 1u) r = r * 5 + 15;
  if ((x >> 16) & 1u) r = r * 5 + 16;
  if ((x >> 17) & 1u) r = r * 5 + 17;
  if ((x >> 18) & 1u) r = r * 5 + 18;
  if ((x >> 19) & 1u) r = r * 5 + 19;
  if ((x >> 20) & 1u) r = r * 5 + 20;
  if ((x >> 21) & 1u) r = r * 5 + 21;
  if ((x >> 22) & 1u) r = r * 5 + 22;
  if ((x >> 23) & 1u) r = r * 5 + 23;
  if ((x >> 24) & 1u) r = r * 5 + 24;
  if ((x >> 25) & 1u) r = r * 5 + 25;
  if ((x >> 26) & 1u) r = r * 5 + 26;
  if ((x >> 27) & 1u) r = r * 5 + 27;
  if ((x >> 28) & 1u) r = r * 5 + 28;
  if ((x >> 29) & 1u) r = r * 5 + 29;
  if ((x >> 30) & 1u) r = r * 5 + 30;
  if ((x >> 31) & 1u) r = r * 5 + 31;
  if ((x >> 32) & 1u) r = r * 5 + 32;
  if ((x >> 33) & 1u) r = r * 5 + 33;
  if ((x >> 34) & 1u) r = r * 5 + 34;
  if ((x >> 35) & 1u) r = r * 5 + 35;
  if ((x >> 36) & 1u) r = r * 5 + 36;
  if ((x >> 37) & 1u) r = r * 5 + 37;
  if ((x >> 38) & 1u) r = r * 5 + 38;
  if ((x >> 39) & 1u) r = r * 5 + 39;
  if ((x >> 40) & 1u) r = r * 5 + 40;
  if ((x >> 41) & 1u) r = r * 5 + 41;
  if ((x >> 42) & 1u) r = r * 5 + 42;
  if ((x >> 43) & 1u) r = r * 5 + 43;
  if ((x >> 44) & 1u) r = r * 5 + 44;
  if ((x >> 45) & 1u) r = r * 5 + 45;
  if ((x >> 46) & 1u) r = r * 5 + 46;
  if ((x >> 47) & 1u) r = r * 5 + 47;
  if ((x >> 48) & 1u) r = r * 5 + 48;
  if ((x >> 49) & 1u) r = r * 5 + 49;
  if ((x >> 50) & 1u) r = r * 5 + 50;
  if ((x >> 51) & 1u) r = r * 5 + 51;
  if ((x >> 52) & 1u) r = r * 5 + 52;
  if ((x >> 53) & 1u) r = r * 5 + 53;
  if ((x >> 54) & 1u) r = r * 5 + 54;
  if ((x >> 55) & 1u) r = r * 5 + 55;
  if ((x >> 56) & 1u) r = r * 5 + 56;
  if ((x >> 57) & 1u) r = r * 5 + 57;
  if ((x >> 58) & 1u) r = r * 5 + 58;
  if ((x >> 59) & 1u) r = r * 5 + 59;
  if ((x >> 60) & 1u) r = r * 5 + 60;
  if ((x >> 61) & 1u) r = r * 5 + 61;
  if ((x >> 62) & 1u) r = r * 5 + 62;
  if ((x >> 63) & 1u) r = r * 5 + 63;
  if ((y >> 0) & 1u) r += 64;
  if ((y >> 1) & 1u) r += 65;
  if ((y >> 2) & 1u) r += 66;
  if ((y >> 3) & 1u) r += 67;
  if ((y >> 4) & 1u) r += 68;
  if ((y >> 5) & 1u) r += 69;
  return r;
}

int main(void)
{
  unsigned long long seed = 12345, h = 0;
  long s = 0;
  int i;

  for (i = 0; i < 200; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    s = (s * 31 + (long)twenty((unsigned)(seed >> 33))) % 1000000007;
  }
  check("twenty", s, 344740125);
  for (i = 0; i < 150; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    h = h * 1099511628211ull ^ seventy(seed, (unsigned)(seed >> 58));
  }
  check("seventy", (long)(h % 1000000007ull), 420772473);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
