/* Case: loops whose body ends in a branch, so the back edge's count rides on each way into the empty end of the body (translator/pathcc/rewrite.c hoisted_ends): a dispatch switch in for (;;) with break, continue and a case that falls through; an if/else ending a while body; nested loops whose inner latch is empty and whose outer one is not; a loop whose end is reached from a label by goto, with a for's increment and without; and a do-while, whose latch holds the condition (not hoisted). */
#include <stdio.h>

enum { PUSH, ADD, DUP, JNZ, SKIP, HALT };

static const int prog[] = { PUSH, 5, DUP, PUSH, -1, ADD, DUP, JNZ, 2, SKIP, SKIP, HALT };

/* A dispatch loop: every case leaves by break or continue, one falls into the next. */
static long run(void)
{
  long st[16], acc = 0;
  int sp = 0, pc = 0;
  for (;;) {
    switch (prog[pc++]) {
    case PUSH:
      st[sp++] = prog[pc++];
      break;
    case ADD:
      sp--;
      st[sp - 1] += st[sp];
      acc += st[sp - 1];
      continue;
    case DUP:
      st[sp] = st[sp - 1];
      sp++;
      break;
    case JNZ:
      if (st[--sp] != 0) pc = prog[pc];
      else pc++;
      break;
    case SKIP:
      acc++;
      /* fall through */
    default:
      acc += 2;
      break;
    case HALT:
      return acc * 100 + sp;
    }
  }
}

/* An if/else as the last statement of a while body. */
static int collatz(int n)
{
  int steps = 0;
  while (n != 1) {
    steps++;
    if (n & 1) n = 3 * n + 1;
    else n /= 2;
  }
  return steps;
}

/* The inner loop's body ends in an if (empty end: hoisted); the outer's latch increments j. */
static int grid(int w, int h)
{
  int j, i, s = 0;
  for (j = 0; j < h; j++) {
    i = 0;
    while (i < w) {
      if ((i ^ j) & 1) s += i;
      else s -= j;
      i++;
      if (i == 3) continue;
    }
  }
  return s;
}

/* The end of the body reached by a goto as well as by falling in. */
static int jumps(int n)
{
  int k, s = 0;
  for (k = 0; k < n; k++) {
    if (k % 3 == 0) goto next;
    s += k;
    if (k % 5 == 0) s *= 2;
  next:;
  }
  return s;
}

/* A while body whose empty end is a label that a goto reaches too. */
static int labels(int n)
{
  int s = 0;
  while (n > 0) {
    n--;
    if (n % 4 == 0) goto skip;
    s += n;
    if (n & 1) s ^= 5;
  skip:;
  }
  return s;
}

/* A do-while: its latch holds the condition, so its back edge keeps its own count. */
static int digits(unsigned v)
{
  int d = 0;
  do {
    d++;
    if (v % 10 == 7) d += 10;
    v /= 10;
  } while (v);
  return d;
}

int main(void)
{
  int i, c = 0;
  for (i = 1; i < 30; i++) c += collatz(i);
  printf("%ld %d %d %d %d %d\n", run(), c, grid(7, 5), jumps(40), labels(23), digits(70717u));
  return 0;
}
