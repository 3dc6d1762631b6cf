/* Case: the rewrite keeps constants constant. After calls (edge mode counts their returns before
   the next declaration): null pointer constants, a static's initializer, a string for an array;
   constant &&, || and ?: over several lines in an array size, an enum value, a bit-field width,
   case labels and _Static_assert; the operands of sizeof and typeof, which run nothing. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { A = 1, B = 0 };
struct node {
  struct node *next;
  unsigned w : (A ||
                B) + 2;
};

/* may stop the program: edge mode counts the returns of the calls to it */
static int step(int x) {
  if (x < 0) exit(2);
  return x * 3 % 7;
}

static int lead(int x) {
  int a = step(x);
  struct node *p = 0;
  int b = step(a);
  static const int k = 3;
  int c = step(b);
  char s[] = "abc";
  int d = step(c);
  char *q = (void *)0;
  int e = step(d);
  int (*fp)(int) = NULL;
  int arr[A &&
          B ? 3 : 4];
  long z = (long)sizeof(A
                        && step(2));
  __typeof__(x &&
             step(x)) ty = 1;
  long cl = (long)(__typeof__(x ||
                              step(x))){2};
  enum { E = A ||
             B } en = E;
  if (p == 0 && q == 0 && fp == 0) e += (int)(sizeof arr / sizeof arr[0]) + k + s[1] + en + (int)z + ty + (int)cl;
  return a + b + c + d + e;
}

static int cases(int x) {
  switch (x % 4) {
  case A &&
       B:
    return 10;
  case (A ||
        B) ? 2 : 3:
    return 20;
  default:
    break;
  }
  _Static_assert(A ||
                 B, "constants");
  return x;
}

int main(void) {
  int t = 0;
  for (int i = 0; i < 30; i++) t += lead(i) + cases(i);
  printf("%d\n", t);
  return 0;
}
