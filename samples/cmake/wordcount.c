/* wordcount.c: the static library */
#include "sample.h"

static int is_space(char ch)
{
  return ch == ' ' || ch == '\t' || ch == '\n';
}

void count_text(const char *text, struct counts *c)
{
  int len = 0;
  c->words = c->lines = c->longest = 0;
  for (; *text; text++) {
    if (*text == '\n')
      c->lines++;
    if (is_space(*text)) {
      if (len > c->longest)
        c->longest = len;
      len = 0;
    } else if (len++ == 0) {
      c->words++;
    }
  }
  if (len > c->longest)
    c->longest = len;
}
