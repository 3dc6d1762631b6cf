/* Sample: four sorting algorithms (insertion, shell, heap, merge) checked against each other. */
#include <stdio.h>
#include <string.h>

#define N 120

static void insertion(int *a, int n)
{
  int i, j, v;
  for (i = 1; i < n; i++) {
    v = a[i];
    for (j = i; j > 0 && a[j - 1] > v; j--)
      a[j] = a[j - 1];
    a[j] = v;
  }
}

static void shell(int *a, int n)
{
  int gap, i, j, v;
  for (gap = n / 2; gap > 0; gap /= 2)
    for (i = gap; i < n; i++) {
      v = a[i];
      j = i;
      while (j >= gap && a[j - gap] > v) {
        a[j] = a[j - gap];
        j -= gap;
      }
      a[j] = v;
    }
}

static void sift(int *a, int root, int n)
{
  int child, t;
  while ((child = 2 * root + 1) < n) {
    if (child + 1 < n && a[child + 1] > a[child])
      child++;
    if (a[root] >= a[child])
      return;
    t = a[root]; a[root] = a[child]; a[child] = t;
    root = child;
  }
}

static void heap(int *a, int n)
{
  int i, t;
  for (i = n / 2 - 1; i >= 0; i--)
    sift(a, i, n);
  for (i = n - 1; i > 0; i--) {
    t = a[0]; a[0] = a[i]; a[i] = t;
    sift(a, 0, i);
  }
}

static void merge_rec(int *a, int *tmp, int lo, int hi)
{
  int mid, i, j, k;
  if (hi - lo < 2)
    return;
  mid = lo + (hi - lo) / 2;
  merge_rec(a, tmp, lo, mid);
  merge_rec(a, tmp, mid, hi);
  i = lo; j = mid; k = lo;
  while (i < mid && j < hi)
    tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < mid)
    tmp[k++] = a[i++];
  while (j < hi)
    tmp[k++] = a[j++];
  memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof *a);
}

static int sorted(const int *a, int n)
{
  int i;
  for (i = 1; i < n; i++)
    if (a[i - 1] > a[i])
      return 0;
  return 1;
}

int main(void)
{
  int orig[N], a[N], b[N], c[N], d[N], tmp[N];
  unsigned x = 2463534242u;
  long sig = 0;
  int i, bad = 0;

  for (i = 0; i < N; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    orig[i] = (int)(x % 1000) - 300;
  }
  memcpy(a, orig, sizeof a); insertion(a, N);
  memcpy(b, orig, sizeof b); shell(b, N);
  memcpy(c, orig, sizeof c); heap(c, N);
  memcpy(d, orig, sizeof d); merge_rec(d, tmp, 0, N);
  if (!sorted(a, N) || memcmp(a, b, sizeof a) || memcmp(a, c, sizeof a) || memcmp(a, d, sizeof a))
    bad = 1;
  for (i = 0; i < N; i++)
    sig = (sig * 1009 + a[i]) % 1000000007;
  printf("min %d max %d median %d sig %ld\n", a[0], a[N - 1], a[N / 2], sig);
  if (sig != -653548221)
    bad |= 2;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
