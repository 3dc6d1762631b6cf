/* histo.c: the shared library */
#include <stdio.h>
#include "sample.h"

void histo_add(int *bins, int length)
{
  if (length <= 0)
    return;
  if (length >= HISTO_MAX)
    length = HISTO_MAX - 1;
  bins[length]++;
}

int histo_print(const int *bins, char *out, int size)
{
  int n = 0, i, k;
  for (i = 1; i < HISTO_MAX; i++) {
    if (!bins[i])
      continue;
    n += snprintf(out + n, (size_t)(size - n), "%2d ", i);
    for (k = 0; k < bins[i] && n < size - 2; k++)
      out[n++] = '#';
    out[n++] = '\n';
    out[n] = 0;
  }
  return n;
}
