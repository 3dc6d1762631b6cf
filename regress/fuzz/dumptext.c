/* Seed program for the importer's corpus: counts a few paths, then dumps them as text (hex and
   base64) between lines of noise, as firmware would on a serial line. */
#include <stdio.h>
#include "pathprof.h"

/* Classifies n so that several paths get counts. */
static int classify(int n)
{
  if (n % 15 == 0)
    return 3;
  if (n % 5 == 0)
    return 2;
  return n % 3 == 0;
}

/* Writes one character of the dump to stdout. */
static int put(int c)
{
  return putchar(c) == EOF ? -1 : 0;
}

int main(void)
{
  int i, sum = 0;
  for (i = 0; i < 100; i++)
    sum += classify(i);
  printf("boot: sum %d\n", sum);
  pathprof_dump_text(put, "hex", PATHPROF_TEXT_HEX);
  printf("noise between dumps\n");
  pathprof_dump_text(put, "b64", PATHPROF_TEXT_BASE64 | PATHPROF_TEXT_CRLF);
  return 0;
}
