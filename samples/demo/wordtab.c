/* A chained hash table of words with counts, and sorting by frequency, for the demo program. */
#include <stdlib.h>
#include <string.h>
#include "wordtab.h"

static unsigned hash(const char *w, int len)
{
  unsigned h = 2166136261u;
  int i;
  for (i = 0; i < len; i++)
    h = (h ^ (unsigned char)w[i]) * 16777619u;
  return h;
}

int wordtab_init(struct wordtab *t, int cap)
{
  memset(t, 0, sizeof *t);
  t->all = calloc((size_t)cap, sizeof *t->all);
  if (!t->all)
    return -1;
  t->cap = cap;
  return 0;
}

void wordtab_free(struct wordtab *t)
{
  free(t->all);
  t->all = NULL;
}

struct word *wordtab_add(struct wordtab *t, const char *w, int len, int pos)
{
  unsigned b;
  struct word *p;
  if (len <= 0)
    return NULL;
  if (len >= (int)sizeof p->text)
    len = (int)sizeof p->text - 1;   /* very long words are truncated */
  b = hash(w, len) % (sizeof t->buckets / sizeof t->buckets[0]);
  t->total++;
  for (p = t->buckets[b]; p; p = p->next)
    if ((int)strlen(p->text) == len && memcmp(p->text, w, (size_t)len) == 0) {
      p->count++;
      return p;
    }
  if (t->nwords == t->cap)
    return NULL;                     /* table full: the word is counted in total only */
  p = &t->all[t->nwords++];
  memcpy(p->text, w, (size_t)len);
  p->text[len] = '\0';
  p->count = 1;
  p->first_pos = pos;
  p->next = t->buckets[b];
  t->buckets[b] = p;
  return p;
}

static int by_count(const void *a, const void *b)
{
  const struct word *x = a, *y = b;
  if (x->count != y->count)
    return y->count - x->count;
  return strcmp(x->text, y->text);
}

/* Sorts the words by falling count; the hash chains are invalid afterwards. */
void wordtab_sort(struct wordtab *t)
{
  qsort(t->all, (size_t)t->nwords, sizeof *t->all, by_count);
  memset(t->buckets, 0, sizeof t->buckets);
}
