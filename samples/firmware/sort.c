/* sort.c: insertion sort, a binary search and a checksum: nested loops with early exits. */
#include "workload.h"

#define MAXN 64

static unsigned int data[MAXN];

/* The next value of a 32-bit linear congruential generator. */
static unsigned int lcg(unsigned int *s)
{
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

/* Sorts a[0..n) in place. */
static void insertion_sort(unsigned int *a, int n)
{
  int i, j;
  for (i = 1; i < n; i++) {
    unsigned int v = a[i];
    for (j = i - 1; j >= 0 && a[j] > v; j--)
      a[j + 1] = a[j];
    a[j + 1] = v;
  }
}

/* Index of key in sorted a[0..n), or -1. */
static int search(const unsigned int *a, int n, unsigned int key)
{
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key)
      return mid;
    if (a[mid] < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* Fills, sorts, checks and searches n values; returns a checksum. */
unsigned int sort_case(unsigned int seed, int n)
{
  unsigned int sum = 0, s = seed;
  int i, found = 0;

  if (n > MAXN)
    n = MAXN;
  for (i = 0; i < n; i++)
    data[i] = lcg(&s) % 1000u;
  insertion_sort(data, n);
  for (i = 1; i < n; i++)
    if (data[i - 1] > data[i])
      return 0xdeadu; /* not sorted */
  for (i = 0; i < 2 * n; i++) {
    int k = search(data, n, lcg(&s) % 1000u);
    if (k >= 0) {
      found++;
      sum += (unsigned int)k * 31u;
    } else {
      sum ^= (unsigned int)i;
    }
  }
  return sum + (unsigned int)found;
}
