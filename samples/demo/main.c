/* Demo: counts word frequencies in a built-in text and prints the most frequent words and a few statistics. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "wordtab.h"

static int is_word_char(int c)
{
  return isalpha(c) || c == '\'';
}

static int tokenize(const char *text, struct wordtab *t)
{
  char buf[64];
  int len = 0, pos = 0, words = 0;
  const char *p;
  for (p = text; ; p++) {
    int c = (unsigned char)*p;
    if (c != '\0' && is_word_char(c)) {
      if (len < (int)sizeof buf)
        buf[len++] = (char)tolower(c);
      continue;
    }
    /* end of a word: strip quotes around it */
    if (len > 0) {
      int start = 0, end = len;
      while (start < end && buf[start] == '\'')
        start++;
      while (end > start && buf[end - 1] == '\'')
        end--;
      if (end > start) {
        wordtab_add(t, buf + start, end - start, pos);
        words++;
        pos++;
      }
      len = 0;
    }
    if (c == '\0')
      break;
  }
  return words;
}

int main(void)
{
  static struct wordtab t;
  const struct word *longest = NULL;
  long sum = 0;
  int words, i, once = 0;

  if (wordtab_init(&t, 1000) != 0) {
    fprintf(stderr, "wordfreq: out of memory\n");
    return 2;
  }
  words = tokenize(demo_text, &t);
  for (i = 0; i < t.nwords; i++) {
    sum += t.all[i].count;
    if (t.all[i].count == 1)
      once++;
    if (!longest || strlen(t.all[i].text) > strlen(longest->text))
      longest = &t.all[i];
  }
  printf("%d words, %d distinct, %d used once, longest \"%s\"\n",
         words, t.nwords, once, longest ? longest->text : "");
  wordtab_sort(&t);
  printf("rank  count  word\n");
  for (i = 0; i < 10 && i < t.nwords; i++)
    printf("%4d  %5d  %s\n", i + 1, t.all[i].count, t.all[i].text);
  wordtab_free(&t);
  /* every word went either into a count or nowhere (table full): the sums must agree */
  return sum == words && t.total == words ? 0 : 1;
}
