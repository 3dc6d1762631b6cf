/* Case: computed goto (a threaded interpreter), asm-free; noreturn calls end paths. */
#include <stdio.h>
#include <stdlib.h>

static int run(const unsigned char *code, int n) {
  static void *ops[] = { &&op_inc, &&op_dec, &&op_dbl, &&op_end };
  int acc = 0, pc = 0;
  if (n <= 0) return -1;
  goto *ops[code[pc]];
op_inc:
  acc++;
  goto *ops[code[++pc]];
op_dec:
  acc--;
  if (acc < -100) goto op_end;
  goto *ops[code[++pc]];
op_dbl:
  acc *= 2;
  goto *ops[code[++pc]];
op_end:
  return acc;
}

static void fail(const char *why) __attribute__((noreturn));
static void fail(const char *why) {
  printf("fail: %s\n", why);
  exit(3);
}

static int check(int v) {
  if (v > 1000) fail("too big");
  return v + 1;
}

int main(void) {
  unsigned char prog[] = { 0, 0, 2, 1, 2, 0, 2, 2, 1, 3 };
  int t = 0;
  for (int i = 0; i < 50; i++) {
    prog[i % 9] = (unsigned char)(i % 3);
    t += check(run(prog, 10));
  }
  printf("%d\n", t);
  if (t > 100) exit(0);
  return 1;
}
