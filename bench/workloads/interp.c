/* bench workload: a bytecode interpreter with a switch dispatch loop.
   A stack VM with locals, calls and an array memory runs four programs assembled below
   (prime sieve, recursive Fibonacci, Collatz step sums, a GCD table sum); every result is
   checked against the same computation in C.  Usage: interp [SCALE]  (rounds, default 250). */
#include <stdio.h>
#include <stdlib.h>

typedef long long val;

enum op {
  HALT, PUSH, LOAD, STORE, ADD, SUB, MUL, DIV, MOD, LT, LE, EQ, NE, JMP, JZ, JNZ,
  DUP, POP, SWAP, CALL, RET, ALOAD, ASTORE, INC, NEG, AND, SHR, ADDI
};

#define MAXCODE 1024
#define STACK 256
#define LOCALS 4096
#define FRAMES 512

struct vm {
  val stack[STACK];
  val locals[LOCALS];
  struct { int pc, fp, lp; } frames[FRAMES];
  val *mem;
  long memsize;
  long steps;
};

static int code[MAXCODE];
static int ncode;

static int emit(int x) { code[ncode] = x; return ncode++; }
static void op0(enum op o) { emit(o); }
static void op1(enum op o, int a) { emit(o); emit(a); }
static int jump(enum op o) { emit(o); return emit(-1); }      /* returns the slot to patch */
static void patch(int slot) { code[slot] = ncode; }
static int here(void) { return ncode; }

/* Runs the code from entry with nlocals locals; args are already in locals[0..]. Returns the
   value on top of the stack at HALT, or sets *err. */
static val run(struct vm *vm, int entry, int nlocals, int *err)
{
  val *st = vm->stack, *loc = vm->locals;
  int sp = 0, fp = 0, lp = nlocals, nf = 0, pc = entry;
  val a, b;
  long steps = 0;
  *err = 0;
  for (;;) {
    steps++;
    if (sp < 0 || sp > STACK - 4) { *err = 1; return 0; }
    switch (code[pc++]) {
    case HALT: vm->steps += steps; return st[sp - 1];
    case PUSH: st[sp++] = code[pc++]; break;
    case LOAD: st[sp++] = loc[fp + code[pc++]]; break;
    case STORE: loc[fp + code[pc++]] = st[--sp]; break;
    case ADDI: st[sp - 1] += code[pc++]; break;
    case INC: loc[fp + code[pc++]]++; break;
    case ADD: b = st[--sp]; st[sp - 1] += b; break;
    case SUB: b = st[--sp]; st[sp - 1] -= b; break;
    case MUL: b = st[--sp]; st[sp - 1] *= b; break;
    case DIV:
      b = st[--sp];
      if (b == 0) { *err = 2; return 0; }
      st[sp - 1] /= b;
      break;
    case MOD:
      b = st[--sp];
      if (b == 0) { *err = 2; return 0; }
      st[sp - 1] %= b;
      break;
    case LT: b = st[--sp]; st[sp - 1] = st[sp - 1] < b; break;
    case LE: b = st[--sp]; st[sp - 1] = st[sp - 1] <= b; break;
    case EQ: b = st[--sp]; st[sp - 1] = st[sp - 1] == b; break;
    case NE: b = st[--sp]; st[sp - 1] = st[sp - 1] != b; break;
    case AND: b = st[--sp]; st[sp - 1] &= b; break;
    case SHR: b = st[--sp]; st[sp - 1] >>= b; break;
    case NEG: st[sp - 1] = -st[sp - 1]; break;
    case JMP: pc = code[pc]; break;
    case JZ: if (st[--sp] == 0) pc = code[pc]; else pc++; break;
    case JNZ: if (st[--sp] != 0) pc = code[pc]; else pc++; break;
    case DUP: st[sp] = st[sp - 1]; sp++; break;
    case POP: sp--; break;
    case SWAP: a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a; break;
    case ALOAD:
      a = st[sp - 1];
      if (a < 0 || a >= vm->memsize) { *err = 3; return 0; }
      st[sp - 1] = vm->mem[a];
      break;
    case ASTORE:                                   /* ... index value -> ... */
      b = st[--sp]; a = st[--sp];
      if (a < 0 || a >= vm->memsize) { *err = 3; return 0; }
      vm->mem[a] = b;
      break;
    case CALL: {                                   /* CALL target nargs nlocals */
      int target = code[pc], nargs = code[pc + 1], nloc = code[pc + 2], i;
      if (nf == FRAMES || lp + nloc > LOCALS) { *err = 4; return 0; }
      vm->frames[nf].pc = pc + 3; vm->frames[nf].fp = fp; vm->frames[nf].lp = lp; nf++;
      for (i = nargs - 1; i >= 0; i--) loc[lp + i] = st[--sp];
      for (i = nargs; i < nloc; i++) loc[lp + i] = 0;
      fp = lp; lp += nloc; pc = target;
      break;
    }
    case RET:
      if (nf == 0) { *err = 5; return 0; }
      nf--; pc = vm->frames[nf].pc; fp = vm->frames[nf].fp; lp = vm->frames[nf].lp;
      break;
    default: *err = 6; return 0;
    }
  }
}

/* --- programs --- */
static int p_sieve, p_fib, p_collatz, p_gcd;

static void assemble(void)
{
  int top, out, inner, next, skip, fibfn, l1, l2, e1, e2, isodd, done;
  /* sieve(n): locals n=0 i=1 j=2 count=3; mem[0..n) cleared then sieved; returns #primes < n */
  p_sieve = here();
  op1(PUSH, 0); op1(STORE, 1);
  top = here(); op1(LOAD, 1); op1(LOAD, 0); op0(LT); out = jump(JZ);
  op1(LOAD, 1); op1(PUSH, 0); op0(ASTORE); op1(INC, 1); op1(JMP, top); patch(out);
  op1(PUSH, 2); op1(STORE, 1);
  top = here(); op1(LOAD, 1); op1(LOAD, 0); op0(LT); out = jump(JZ);
  op1(LOAD, 1); op0(ALOAD); next = jump(JNZ);
  op1(INC, 3);
  op1(LOAD, 1); op1(LOAD, 1); op0(MUL); op1(STORE, 2);
  inner = here(); op1(LOAD, 2); op1(LOAD, 0); op0(LT); skip = jump(JZ);
  op1(LOAD, 2); op1(PUSH, 1); op0(ASTORE);
  op1(LOAD, 2); op1(LOAD, 1); op0(ADD); op1(STORE, 2); op1(JMP, inner);
  patch(skip); patch(next);
  op1(INC, 1); op1(JMP, top);
  patch(out); op1(LOAD, 3); op0(HALT);

  /* fib(k) by recursion: entry pushes k, calls the function, halts */
  p_fib = here();
  op1(LOAD, 0); emit(CALL); fibfn = emit(-1); emit(1); emit(1); op0(HALT);
  code[fibfn] = here();
  op1(LOAD, 0); op1(PUSH, 2); op0(LT); l1 = jump(JZ); op1(LOAD, 0); op0(RET); patch(l1);
  op1(LOAD, 0); op1(ADDI, -1); emit(CALL); emit(code[fibfn]); emit(1); emit(1);
  op1(LOAD, 0); op1(ADDI, -2); emit(CALL); emit(code[fibfn]); emit(1); emit(1);
  op0(ADD); op0(RET);

  /* collatz(m): sum over x in [1,m] of the steps to reach 1; locals m=0 x=1 y=2 sum=3 */
  p_collatz = here();
  op1(PUSH, 1); op1(STORE, 1);
  top = here(); op1(LOAD, 1); op1(LOAD, 0); op0(LE); out = jump(JZ);
  op1(LOAD, 1); op1(STORE, 2);
  l1 = here(); op1(LOAD, 2); op1(PUSH, 1); op0(NE); e1 = jump(JZ);
  op1(INC, 3);
  op1(LOAD, 2); op1(PUSH, 1); op0(AND); isodd = jump(JNZ);
  op1(LOAD, 2); op1(PUSH, 1); op0(SHR); op1(STORE, 2); op1(JMP, l1);
  patch(isodd); op1(LOAD, 2); op1(PUSH, 3); op0(MUL); op1(ADDI, 1); op1(STORE, 2); op1(JMP, l1);
  patch(e1); op1(INC, 1); op1(JMP, top);
  patch(out); op1(LOAD, 3); op0(HALT);

  /* gcdsum(m): sum of gcd(i, j) for 1 <= i, j <= m; locals m=0 i=1 j=2 a=3 b=4 sum=5 t=6 */
  p_gcd = here();
  op1(PUSH, 1); op1(STORE, 1);
  top = here(); op1(LOAD, 1); op1(LOAD, 0); op0(LE); out = jump(JZ);
  op1(PUSH, 1); op1(STORE, 2);
  l2 = here(); op1(LOAD, 2); op1(LOAD, 0); op0(LE); e2 = jump(JZ);
  op1(LOAD, 1); op1(STORE, 3); op1(LOAD, 2); op1(STORE, 4);
  l1 = here(); op1(LOAD, 4); done = jump(JZ);
  op1(LOAD, 3); op1(LOAD, 4); op0(MOD); op1(STORE, 6);
  op1(LOAD, 4); op1(STORE, 3); op1(LOAD, 6); op1(STORE, 4); op1(JMP, l1);
  patch(done); op1(LOAD, 5); op1(LOAD, 3); op0(ADD); op1(STORE, 5);
  op1(INC, 2); op1(JMP, l2);
  patch(e2); op1(INC, 1); op1(JMP, top);
  patch(out); op1(LOAD, 5); op0(HALT);
}

/* --- the same computations in C --- */
static val c_sieve(long n, char *mark)
{
  long i, j; val count = 0;
  for (i = 0; i < n; i++) mark[i] = 0;
  for (i = 2; i < n; i++)
    if (!mark[i]) { count++; for (j = i * i; j < n; j += i) mark[j] = 1; }
  return count;
}
static val c_fib(val k) { return k < 2 ? k : c_fib(k - 1) + c_fib(k - 2); }
static val c_collatz(val m)
{
  val x, y, sum = 0;
  for (x = 1; x <= m; x++)
    for (y = x; y != 1; sum++) y = (y & 1) ? 3 * y + 1 : y >> 1;
  return sum;
}
static val c_gcd(val m)
{
  val i, j, a, b, t, sum = 0;
  for (i = 1; i <= m; i++)
    for (j = 1; j <= m; j++) {
      for (a = i, b = j; b; ) { t = a % b; a = b; b = t; }
      sum += a;
    }
  return sum;
}

int main(int argc, char **argv)
{
  long rounds = argc > 1 ? atol(argv[1]) : 250, r;
  static struct vm vm;
  static char mark[1 << 16];
  val total = 0, got, want;
  int err, bad = 0;
  vm.memsize = 1 << 16;
  vm.mem = calloc((size_t)vm.memsize, sizeof *vm.mem);
  if (!vm.mem) return 2;
  assemble();
  for (r = 0; r < rounds; r++) {
    long n = 30000 + (r % 8) * 4000, k = 16 + r % 4, m = 600 + (r % 5) * 40, g = 70 + r % 6;
    vm.locals[0] = n; vm.locals[3] = 0;
    got = run(&vm, p_sieve, 4, &err); want = c_sieve(n, mark);
    if (err || got != want) { fprintf(stderr, "sieve(%ld): %lld != %lld (err %d)\n", n, got, want, err); bad = 1; }
    total += got;
    vm.locals[0] = k;
    got = run(&vm, p_fib, 1, &err); want = c_fib(k);
    if (err || got != want) { fprintf(stderr, "fib(%ld): %lld != %lld (err %d)\n", k, got, want, err); bad = 1; }
    total += got;
    vm.locals[0] = m; vm.locals[1] = vm.locals[2] = vm.locals[3] = 0;
    got = run(&vm, p_collatz, 4, &err); want = c_collatz(m);
    if (err || got != want) { fprintf(stderr, "collatz(%ld): %lld != %lld (err %d)\n", m, got, want, err); bad = 1; }
    total += got;
    vm.locals[0] = g; vm.locals[5] = 0;
    got = run(&vm, p_gcd, 7, &err); want = c_gcd(g);
    if (err || got != want) { fprintf(stderr, "gcdsum(%ld): %lld != %lld (err %d)\n", g, got, want, err); bad = 1; }
    total += got;
  }
  printf("interp: %ld rounds, %ld VM steps, checksum %lld\n", rounds, vm.steps, total);
  puts(bad ? "FAIL" : "PASS");
  free(vm.mem);
  return bad;
}
