/* main.c: the program, using the static and the shared library */
#include <stdio.h>
#include <string.h>
#include "sample.h"

static const char *text =
  "A path profiler counts how often each acyclic path\n"
  "through a function runs, not just each line or branch.\n"
  "Ball and Larus numbered the paths so that one register\n"
  "and one counter update per path end are enough.\n";

int main(void)
{
  struct counts c;
  int bins[HISTO_MAX] = {0};
  char word[64], out[512];
  const char *p = text;
  int n;

  count_text(text, &c);
  while (sscanf(p, "%63s%n", word, &n) == 1) {
    histo_add(bins, (int)strlen(word));
    p += n;
  }
  histo_print(bins, out, (int)sizeof out);
  printf("%d words, %d lines, longest %d\n%s", c.words, c.lines, c.longest, out);
  return c.words == 38 ? 0 : 1;
}
