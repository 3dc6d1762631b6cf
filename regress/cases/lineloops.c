/* Case (issue 26, class 2): loop heads without a condition (for (;;), while (1)) count the
   loop's rounds, as llvm-cov does, except a for (;;) alone on its line: it counts the loop's
   entries and the '{' below it the rounds (issue 40, clang's regions); GCC folds the test and gcov
   shows no count, or, when the body's scope has locals, the rounds that reached the body's end.
   A label after such a loop counts every entry. */
#include <stdio.h>

static int g;

static int rounds(int n)
{
  int i = 0;
  for (;;) {
    if (i >= n) break;
    i++;
  }
  while (1) {
    int t = i * 2;
    if (--i < 0 || t > 1000) break;
    g++;
  }
  for (;;)
  {
    g++;
    if (g > 3 * n) goto done;
  }
done:
  return g;
}

int main(void)
{
  int s = 0;
  for (int x = 0; x < 10; x++) s += rounds(x);
  printf("%d\n", s);
  return 0;
}
