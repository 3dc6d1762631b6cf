/* Sample: static functions called through a function-pointer table (a tiny stack machine) and as qsort callbacks. */
#include <stdio.h>
#include <stdlib.h>

static int bad;

static void check(const char *what, long got, long want)
{
  printf("%-14s %ld\n", what, got);
  if (got != want) {
    printf("  wrong, want %ld\n", want);
    bad++;
  }
}

struct vm {
  long stack[32];
  int sp;
  int pc;
  int halted;
};

static void op_push(struct vm *m, int arg) { m->stack[m->sp++] = arg; }
static void op_add(struct vm *m, int arg) { (void)arg; m->sp--; m->stack[m->sp - 1] += m->stack[m->sp]; }
static void op_mul(struct vm *m, int arg) { (void)arg; m->sp--; m->stack[m->sp - 1] *= m->stack[m->sp]; }
static void op_dup(struct vm *m, int arg) { (void)arg; m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++; }
static void op_jnz(struct vm *m, int arg)
{
  if (m->stack[--m->sp] != 0)
    m->pc = arg - 1;   /* the dispatcher adds one */
}
static void op_dec(struct vm *m, int arg) { (void)arg; m->stack[m->sp - 1]--; }
static void op_swap(struct vm *m, int arg)
{
  long t = m->stack[m->sp - 1];
  (void)arg;
  m->stack[m->sp - 1] = m->stack[m->sp - 2];
  m->stack[m->sp - 2] = t;
}
static void op_over(struct vm *m, int arg) { (void)arg; m->stack[m->sp] = m->stack[m->sp - 2]; m->sp++; }
static void op_halt(struct vm *m, int arg) { (void)arg; m->halted = 1; }

enum { PUSH, ADD, MUL, DUP, JNZ, DEC, SWAP, OVER, HALT };

static void (*const ops[])(struct vm *, int) = {
  op_push, op_add, op_mul, op_dup, op_jnz, op_dec, op_swap, op_over, op_halt
};

struct insn { int op, arg; };

static long run(const struct insn *prog)
{
  struct vm m;
  m.sp = 0;
  m.pc = 0;
  m.halted = 0;
  while (!m.halted) {
    ops[prog[m.pc].op](&m, prog[m.pc].arg);
    m.pc++;
  }
  return m.stack[m.sp - 1];
}

static int cmp_up(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
  return cmp_up(b, a);
}

static int cmp_mod(const void *a, const void *b)
{
  int x = *(const int *)a % 10, y = *(const int *)b % 10;
  if (x != y)
    return x - y;
  return cmp_up(a, b);
}

static long sorted_sig(int (*cmp)(const void *, const void *))
{
  int v[24], i;
  long s = 0;
  for (i = 0; i < 24; i++)
    v[i] = (i * 53 + 7) % 97;
  qsort(v, 24, sizeof v[0], cmp);
  for (i = 0; i < 24; i++)
    s = (s * 31 + v[i]) % 1000000007;
  return s;
}

int main(void)
{
  /* acc n: while (n) { acc *= n; n--; } -> acc */
  static const struct insn fact[] = {
    { PUSH, 1 }, { PUSH, 10 },
    { DUP, 0 }, { JNZ, 6 }, { SWAP, 0 }, { HALT, 0 },
    { SWAP, 0 }, { OVER, 0 }, { MUL, 0 }, { SWAP, 0 }, { DEC, 0 },
    { PUSH, 1 }, { JNZ, 2 }
  };
  /* s n: while (n) { s += n; n--; } -> s */
  static const struct insn sum[] = {
    { PUSH, 0 }, { PUSH, 50 },
    { DUP, 0 }, { JNZ, 6 }, { SWAP, 0 }, { HALT, 0 },
    { SWAP, 0 }, { OVER, 0 }, { ADD, 0 }, { SWAP, 0 }, { DEC, 0 },
    { PUSH, 1 }, { JNZ, 2 }
  };
  long s;

  s = run(fact) * 10000 + run(sum);
  check("vm", s, 36288001275);
  check("sort_up", sorted_sig(cmp_up), 908152640);
  check("sort_down", sorted_sig(cmp_down), 67984478);
  check("sort_mod", sorted_sig(cmp_mod), 780771300);

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
