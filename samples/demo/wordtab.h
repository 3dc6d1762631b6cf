/* Word table interface for the demo word-frequency counter. */
#ifndef WORDTAB_H
#define WORDTAB_H

struct word {
  char text[24];
  int count;
  int first_pos;     /* index of the first occurrence in the text */
  struct word *next; /* hash chain */
};

struct wordtab {
  struct word *buckets[211];
  struct word *all;  /* every word, in order of first occurrence */
  int nwords;        /* distinct words */
  int cap;
  long total;        /* words added */
};

int wordtab_init(struct wordtab *t, int cap);
void wordtab_free(struct wordtab *t);
struct word *wordtab_add(struct wordtab *t, const char *w, int len, int pos);
void wordtab_sort(struct wordtab *t);

extern const char demo_text[];

#endif
