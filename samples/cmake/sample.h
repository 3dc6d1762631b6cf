/* sample.h: the two libraries' interfaces */
#ifndef SAMPLE_H
#define SAMPLE_H

/* wordcount.c (static library): counts words, lines and the longest word of a text */
struct counts { int words, lines, longest; };
void count_text(const char *text, struct counts *c);

/* histo.c (shared library): a histogram of word lengths, printed as bars */
#define HISTO_MAX 12
void histo_add(int *bins, int length);
int histo_print(const int *bins, char *out, int size);

#endif
