/* bench workload: a register VM whose dispatch function has millions of static paths.
   Values are tagged (integer, float, nil, array); each instruction picks its operands from
   registers or constants, and arithmetic cases check types and integer overflow, as scripting
   VMs do (sqlite's, Lua's), so run() has more than 10^6 Ball-Larus paths and path mode counts
   it in the hash table.  Five programs (sieve, recursive Fibonacci, a float escape-time loop,
   integer sums that overflow into floats, a string hash over arrays) are checked against C.
   Usage: vm [SCALE]  (rounds, default 60) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tag { T_NIL, T_INT, T_FLT, T_ARR };
typedef struct { int t; union { long long i; double f; int a; } u; } value;

enum op {
  HALT, MOVE, LOADI, ADD, SUB, MUL, DIV, MOD, NEG, LT, LE, EQ, JMP, JT, JF, CALL, RET,
  NEWARR, GETIDX, SETIDX, LEN, BAND, BOR, BXOR, SHL, SHR, TOFLT, TOINT, ADDI, FORLOOP, NOP
};
#define KB 1   /* operand b is constant b, not register b */
#define KC 2   /* operand c is constant c */
#define HOT 4  /* count this instruction in the hot-spot table */

typedef struct { unsigned char op, fl; short a, b, c; } ins;

#define MAXCODE 2048
#define MAXK 64
#define NREG 4096
#define NFRAME 256
#define HEAP (1 << 20)

static ins code[MAXCODE];
static int ncode;
static value kst[MAXK];
static int nk;

struct vm {
  value reg[NREG];
  struct { int pc, base, ret; } fr[NFRAME];
  long long heap[HEAP];
  int hlen[64], hbase[64], narr, htop;
  long steps, errors, hot[MAXCODE / 64 + 1], slices, calls, gcs, floats;
  long stop_at, opcount[32];
  int opstats;
  int maxdepth, callhook;
  int hook_every, hook_left;
  unsigned long long hookhash;
};

static int emit(int op, int fl, int a, int b, int c)
{
  ins i;
  i.op = (unsigned char)op; i.fl = (unsigned char)fl; i.a = (short)a; i.b = (short)b; i.c = (short)c;
  code[ncode] = i;
  return ncode++;
}
static int kint(long long v) { kst[nk].t = T_INT; kst[nk].u.i = v; return nk++; }
static int kflt(double v) { kst[nk].t = T_FLT; kst[nk].u.f = v; return nk++; }

static int isnum(const value *v) { return v->t == T_INT || v->t == T_FLT; }
static double num(const value *v) { return v->t == T_INT ? (double)v->u.i : v->u.f; }

/* The dispatch loop: runs from pc with registers at base until HALT; returns R[0]. */
static value run(struct vm *vm, int pc, int base)
{
  value *R = vm->reg + base, *rb, *rc, res;
  const value *arr, *ix;
  const ins *I;
  int nf = 0;
  long long x, y;
  double f, g;
  int bad;
  for (;;) {
    I = &code[pc++];
    vm->steps++;
    if (vm->hook_every) {  /* a debug hook, as interpreters have */
      if (--vm->hook_left == 0) {
        vm->hook_left = vm->hook_every;
        vm->hookhash = vm->hookhash * 31 + (unsigned)pc;
      }
    }
    if ((vm->steps & 0xffff) == 0)  /* a time slice: where a real VM checks for interrupts */
      vm->slices++;
    if (vm->opstats)  /* per-opcode statistics, when asked for */
      vm->opcount[I->op & 31]++;
    if (I->fl & KB)
      rb = &kst[I->b];
    else
      rb = &R[I->b];
    if (I->fl & KC)
      rc = &kst[I->c];
    else
      rc = &R[I->c];
    if (I->fl & HOT)
      vm->hot[pc >> 6]++;
    if (I->a < 0 || I->a >= 64) {  /* a register outside the frame's window: skip the instruction */
      vm->errors++;
      continue;
    }
    switch (I->op) {
    case HALT:
      return R[0];
    case NOP:
      break;
    case MOVE:
      R[I->a] = *rb;
      break;
    case LOADI:
      R[I->a].t = T_INT; R[I->a].u.i = I->b;
      break;
    case ADD: case SUB: case MUL:
      if (rb->t == T_INT && rc->t == T_INT) {
        x = rb->u.i; y = rc->u.i;
        switch (I->op) {
        case ADD:
          if ((y > 0 && x > 0x3fffffffffffffffLL - y) || (y < 0 && x < -0x3fffffffffffffffLL - y)) {
            res.t = T_FLT; res.u.f = (double)x + (double)y;   /* overflow: a float */
          } else {
            res.t = T_INT; res.u.i = x + y;
          }
          break;
        case SUB:
          if ((y < 0 && x > 0x3fffffffffffffffLL + y) || (y > 0 && x < -0x3fffffffffffffffLL + y)) {
            res.t = T_FLT; res.u.f = (double)x - (double)y;
          } else {
            res.t = T_INT; res.u.i = x - y;
          }
          break;
        default:
          if ((x < 0x7fffffff && x > -0x7fffffff && y < 0x7fffffff && y > -0x7fffffff) || x == 0) {
            res.t = T_INT; res.u.i = x * y;
          } else {
            res.t = T_FLT; res.u.f = (double)x * (double)y;
          }
          break;
        }
      } else {
        bad = 0;
        if (rb->t == T_INT) f = (double)rb->u.i;
        else if (rb->t == T_FLT) f = rb->u.f;
        else bad = 1;
        if (rc->t == T_INT) g = (double)rc->u.i;
        else if (rc->t == T_FLT) g = rc->u.f;
        else bad = 1;
        if (bad) {
          vm->errors++;
          res.t = T_NIL;
        } else {
          res.t = T_FLT;
          if (I->op == ADD) res.u.f = f + g;
          else if (I->op == SUB) res.u.f = f - g;
          else res.u.f = f * g;
        }
      }
      R[I->a] = res;
      break;
    case DIV:
      if (isnum(rb) && isnum(rc) && num(rc) != 0.0) {
        R[I->a].t = T_FLT; R[I->a].u.f = num(rb) / num(rc);
      } else {
        vm->errors++;
        R[I->a].t = T_NIL;
      }
      break;
    case MOD:
      if (rb->t == T_INT && rc->t == T_INT && rc->u.i != 0) {
        x = rb->u.i % rc->u.i;
        if (x != 0 && (x ^ rc->u.i) < 0) x += rc->u.i;   /* floored, as Lua's */
        R[I->a].t = T_INT; R[I->a].u.i = x;
      } else {
        vm->errors++;
        R[I->a].t = T_NIL;
      }
      break;
    case NEG:
      if (rb->t == T_INT) { R[I->a].t = T_INT; R[I->a].u.i = -rb->u.i; }
      else if (rb->t == T_FLT) { R[I->a].t = T_FLT; R[I->a].u.f = -rb->u.f; }
      else { vm->errors++; R[I->a].t = T_NIL; }
      break;
    case LT: case LE: case EQ:
      if (rb->t == T_INT && rc->t == T_INT) {
        if (I->op == LT) x = rb->u.i < rc->u.i;
        else if (I->op == LE) x = rb->u.i <= rc->u.i;
        else x = rb->u.i == rc->u.i;
      } else {
        bad = 0;
        if (rb->t == T_INT) f = (double)rb->u.i;
        else if (rb->t == T_FLT) f = rb->u.f;
        else bad = 1;
        if (rc->t == T_INT) g = (double)rc->u.i;
        else if (rc->t == T_FLT) g = rc->u.f;
        else bad = 1;
        if (!bad) {
          if (I->op == LT) x = f < g;
          else if (I->op == LE) x = f <= g;
          else x = f == g;
        } else if (I->op == EQ) {
          x = rb->t == rc->t && (rb->t == T_NIL || rb->u.a == rc->u.a);
        } else {
          vm->errors++;
          x = 0;
        }
      }
      R[I->a].t = T_INT; R[I->a].u.i = x;
      break;
    case JMP:
      pc += I->b;
      break;
    case JT: case JF:
      if ((R[I->a].t != T_NIL && !(R[I->a].t == T_INT && R[I->a].u.i == 0)) == (I->op == JT))
        pc += I->b;
      break;
    case FORLOOP:  /* R[a] += 1; loop back by b while R[a] < R[a+1] */
      if (R[I->a].t == T_INT && R[I->a + 1].t == T_INT) {
        if (++R[I->a].u.i < R[I->a + 1].u.i) pc += I->b;
      } else {
        vm->errors++;
      }
      break;
    case ADDI:
      if (rb->t == T_INT) { R[I->a].t = T_INT; R[I->a].u.i = rb->u.i + I->c; }
      else if (rb->t == T_FLT) { R[I->a].t = T_FLT; R[I->a].u.f = rb->u.f + I->c; }
      else { vm->errors++; R[I->a].t = T_NIL; }
      break;
    case CALL:  /* call code at b with arguments from register a + 1 on; result to register a */
      if (nf == NFRAME) {
        vm->errors++;
        R[I->a].t = T_NIL;
        break;
      }
      if (base + I->a + 64 >= NREG) {  /* no room for the callee's registers */
        vm->errors++;
        R[I->a].t = T_NIL;
        break;
      }
      if (I->b < 0 || I->b >= ncode) {
        vm->errors++;
        R[I->a].t = T_NIL;
        break;
      }
      if (code[I->b].op == HALT) {  /* calling an empty function */
        R[I->a].t = T_NIL;
        break;
      }
      vm->fr[nf].pc = pc; vm->fr[nf].base = base; vm->fr[nf].ret = I->a;
      nf++;
      if (nf > vm->maxdepth)
        vm->maxdepth = nf;
      if (vm->hook_every) {
        if (vm->callhook)
          vm->hookhash = vm->hookhash * 37 + (unsigned)I->b;
      }
      if (I->fl & HOT)
        vm->calls++;
      base += I->a;
      R = vm->reg + base;
      if (R[1].t == T_NIL)  /* a missing first argument is 0 */
        R[1].t = T_INT, R[1].u.i = 0;
      pc = I->b;
      break;
    case RET:
      if (nf == 0) return R[I->a];
      res = R[I->a];
      if (res.t == T_ARR && res.u.a >= vm->narr) {
        vm->errors++;
        res.t = T_NIL;
      }
      nf--;
      pc = vm->fr[nf].pc; base = vm->fr[nf].base;
      R = vm->reg + base;
      R[vm->fr[nf].ret] = res;
      if (vm->hook_every) {
        if (vm->callhook)
          vm->hookhash = vm->hookhash * 41 + (unsigned)pc;
      }
      break;
    case NEWARR:
      if (rb->t == T_INT && rb->u.i >= 0 && vm->narr < 64 && vm->htop + rb->u.i <= HEAP) {
        vm->hbase[vm->narr] = vm->htop; vm->hlen[vm->narr] = (int)rb->u.i;
        memset(vm->heap + vm->htop, 0, sizeof(long long) * (size_t)rb->u.i);
        vm->htop += (int)rb->u.i;
        R[I->a].t = T_ARR; R[I->a].u.a = vm->narr++;
      } else {
        vm->errors++;
        R[I->a].t = T_NIL;
      }
      break;
    case GETIDX: case SETIDX:  /* GETIDX R[a] = R[b][c]; SETIDX R[a][b] = c; negative indices count from the end */
      arr = I->op == GETIDX ? rb : &R[I->a];
      ix = I->op == GETIDX ? rc : rb;
      if (arr->t != T_ARR) {
        vm->errors++;
        if (I->op == GETIDX) R[I->a].t = T_NIL;
        break;
      }
      if (ix->t == T_INT) {
        x = ix->u.i;
      } else if (ix->t == T_FLT && ix->u.f == (double)(long long)ix->u.f) {
        x = (long long)ix->u.f;
      } else {
        vm->errors++;
        if (I->op == GETIDX) R[I->a].t = T_NIL;
        break;
      }
      if (x < 0)
        x += vm->hlen[arr->u.a];
      if (x < 0 || x > vm->hlen[arr->u.a] || (x == vm->hlen[arr->u.a] && I->op == GETIDX)) {
        vm->errors++;
        if (I->op == GETIDX) R[I->a].t = T_NIL;
        break;
      }
      if (I->op == GETIDX) {
        R[I->a].t = T_INT; R[I->a].u.i = vm->heap[vm->hbase[arr->u.a] + x];
        break;
      }
      if (x == vm->hlen[arr->u.a]) {  /* appending to the newest array grows it */
        if (arr->u.a != vm->narr - 1 || vm->htop == HEAP) {
          vm->errors++;
          break;
        }
        vm->hlen[arr->u.a]++;
        vm->htop++;
      }
      if (rc->t == T_INT)
        vm->heap[vm->hbase[arr->u.a] + x] = rc->u.i;
      else if (rc->t == T_FLT)
        vm->heap[vm->hbase[arr->u.a] + x] = (long long)rc->u.f;
      else
        vm->heap[vm->hbase[arr->u.a] + x] = 0;
      break;
    case LEN:
      if (rb->t == T_ARR) { R[I->a].t = T_INT; R[I->a].u.i = vm->hlen[rb->u.a]; }
      else { vm->errors++; R[I->a].t = T_NIL; }
      break;
    case BAND: case BOR: case BXOR: case SHL: case SHR:
      bad = 0;
      if (rb->t == T_INT) x = rb->u.i;
      else if (rb->t == T_FLT && rb->u.f == (double)(long long)rb->u.f) x = (long long)rb->u.f;
      else bad = 1;
      if (rc->t == T_INT) y = rc->u.i;
      else if (rc->t == T_FLT && rc->u.f == (double)(long long)rc->u.f) y = (long long)rc->u.f;
      else bad = 1;
      if (bad) {
        vm->errors++;
        R[I->a].t = T_NIL;
        break;
      }
      switch (I->op) {
      case BAND: x &= y; break;
      case BOR: x |= y; break;
      case BXOR: x ^= y; break;
      case SHL: x = y >= 64 || y < 0 ? 0 : (long long)((unsigned long long)x << y); break;
      default: x = y >= 64 || y < 0 ? 0 : (long long)((unsigned long long)x >> y); break;
      }
      R[I->a].t = T_INT; R[I->a].u.i = x;
      break;
    case TOFLT:
      if (isnum(rb)) { R[I->a].t = T_FLT; R[I->a].u.f = num(rb); }
      else { vm->errors++; R[I->a].t = T_NIL; }
      break;
    case TOINT:
      if (rb->t == T_INT) R[I->a] = *rb;
      else if (rb->t == T_FLT && rb->u.f > -9e18 && rb->u.f < 9e18) { R[I->a].t = T_INT; R[I->a].u.i = (long long)rb->u.f; }
      else { vm->errors++; R[I->a].t = T_NIL; }
      break;
    default:
      vm->errors++;
      break;
    }
    if (nf > 0 && vm->fr[nf - 1].base + 64 > NREG) {  /* frame overflow guard */
      vm->errors++;
      return R[0];
    }
    if (vm->htop > HEAP / 2) {  /* where a real VM would collect garbage */
      vm->gcs++;
    }
    if (I->op <= NEG && R[I->a].t == T_FLT)  /* statistics: arithmetic results that are floats */
      vm->floats++;
    if (vm->steps == vm->stop_at)  /* a step limit, as a progress handler sets */
      return R[0];
    if (pc < 0 || pc >= ncode) {  /* a jump out of the code */
      vm->errors++;
      return R[0];
    }
  }
}

/* ---- the programs: register 0 gets the result ---- */

/* sieve of Eratosthenes below n: the number of primes. */
static int prog_sieve(void)
{
  int at = ncode, top, inner;
  emit(NEWARR, KB, 1, kint(0), 0);        /* placeholder: patched below to use n in R[9] */
  code[at].fl = 0; code[at].b = 9;
  emit(LOADI, 0, 0, 0, 0);                /* count */
  emit(LOADI, 0, 2, 2, 0);                /* i = 2 */
  top = emit(LT, 0, 3, 2, 9);             /* while i < n */
  emit(JF, 0, 3, 0, 0);
  emit(GETIDX, HOT, 4, 1, 2);
  emit(JT, 0, 4, 0, 0);                   /* composite: skip */
  emit(ADDI, 0, 0, 0, 1);
  emit(MUL, 0, 5, 2, 2);                  /* j = i*i */
  inner = emit(LT, 0, 3, 5, 9);
  emit(JF, 0, 3, 0, 0);
  emit(SETIDX, KC, 1, 5, kint(1));
  emit(ADD, 0, 5, 5, 2);
  emit(JMP, 0, 0, inner - ncode - 1, 0);
  code[inner + 1].b = (short)(ncode - inner - 2);
  code[top + 3].b = (short)(ncode - top - 4);
  emit(ADDI, 0, 2, 2, 1);
  emit(JMP, 0, 0, top - ncode - 1, 0);
  code[top + 1].b = (short)(ncode - top - 2);
  return at;
}

/* fib(n) recursively through CALL/RET; n in R[1], result in R[0] of the frame. A call at
   register 6 gives the callee registers 6.. of its caller, so R[5] survives it. */
static int prog_fib(void)
{
  int at = ncode;
  emit(LT, KC, 2, 1, kint(2));            /* n < 2 ? */
  emit(JF, 0, 2, 2, 0);
  emit(MOVE, 0, 0, 1, 0);
  emit(RET, 0, 0, 0, 0);
  emit(ADDI, 0, 7, 1, -1);                /* the callee's R[1] */
  emit(CALL, 0, 6, at, 0);
  emit(MOVE, 0, 5, 6, 0);
  emit(ADDI, 0, 7, 1, -2);
  emit(CALL, 0, 6, at, 0);
  emit(ADD, 0, 0, 5, 6);
  emit(RET, 0, 0, 0, 0);
  return at;
}

/* escape-time iteration count over a grid of n x n points (floats). */
static int prog_escape(void)
{
  int at = ncode, yl, xl, it, done;
  int k4 = kflt(4.0), kstep = kflt(3.0), ktwo = kflt(2.0), kx0 = kflt(-2.0), ky0 = kflt(-1.5);
  emit(LOADI, 0, 0, 0, 0);
  emit(LOADI, 0, 1, 0, 0);                /* y */
  yl = emit(LT, 0, 3, 1, 9);
  emit(JF, 0, 3, 0, 0);
  emit(LOADI, 0, 2, 0, 0);                /* x */
  xl = emit(LT, 0, 3, 2, 9);
  emit(JF, 0, 3, 0, 0);
  emit(TOFLT, 0, 4, 2, 0); emit(MUL, KC, 4, 4, kstep); emit(TOFLT, 0, 5, 9, 0); emit(DIV, 0, 4, 4, 5);
  emit(ADD, KC, 4, 4, kx0);               /* cr */
  emit(TOFLT, 0, 6, 1, 0); emit(MUL, KC, 6, 6, kstep); emit(DIV, 0, 6, 6, 5); emit(ADD, KC, 6, 6, ky0);
  emit(MOVE, KB, 7, kflt(0.0), 0); emit(MOVE, KB, 8, kflt(0.0), 0);
  emit(LOADI, 0, 10, 0, 0);
  it = emit(LT, KC, 3, 10, kint(50));
  emit(JF, 0, 3, 0, 0);
  emit(MUL, 0, 11, 7, 7); emit(MUL, 0, 12, 8, 8); emit(ADD, 0, 13, 11, 12);
  emit(LT, KB, 3, k4, 13);
  done = emit(JT, 0, 3, 0, 0);
  emit(MUL, 0, 13, 7, 8); emit(MUL, KB, 13, ktwo, 13); emit(ADD, 0, 8, 13, 6);
  emit(SUB, 0, 7, 11, 12); emit(ADD, 0, 7, 7, 4);
  emit(ADDI, HOT, 10, 10, 1);
  emit(JMP, 0, 0, it - ncode - 1, 0);
  code[it + 1].b = code[done].b = 0;
  code[it + 1].b = (short)(ncode - it - 2);
  code[done].b = (short)(ncode - done - 1);
  emit(ADD, 0, 0, 0, 10);
  emit(ADDI, 0, 2, 2, 1);
  emit(JMP, 0, 0, xl - ncode - 1, 0);
  code[xl + 1].b = (short)(ncode - xl - 2);
  emit(ADDI, 0, 1, 1, 1);
  emit(JMP, 0, 0, yl - ncode - 1, 0);
  code[yl + 1].b = (short)(ncode - yl - 2);
  return at;
}

/* sum of i*i*i*2^24 for i < n: the integer sum overflows into a float on the way; then the
   integer part mod 1000003. */
static int prog_sums(void)
{
  int at = ncode, top, big = kint(1LL << 24);
  emit(LOADI, 0, 0, 0, 0);
  emit(LOADI, 0, 1, 0, 0);
  emit(MOVE, 0, 2, 9, 0);                 /* FORLOOP pair: R[1] counter, R[2] limit */
  top = emit(MUL, 0, 3, 1, 1);
  emit(MUL, 0, 3, 3, 1);
  emit(MUL, KC, 3, 3, big);
  emit(ADD, HOT, 0, 0, 3);
  emit(FORLOOP, 0, 1, top - ncode - 1, 0);
  emit(TOINT, 0, 4, 0, 0);
  emit(MOD, KC, 0, 4, kint(1000003));
  emit(HALT, 0, 0, 0, 0);
  return at;
}

/* FNV-style hash (31 bits) of an array of n pseudo-random bytes, with shifts and masks. */
static int prog_hash(void)
{
  int at = ncode, fill, loop, mask = kint(0x7fffffff);
  emit(NEWARR, 0, 1, 9, 0);
  emit(LOADI, 0, 2, 0, 0);
  emit(LOADI, 0, 5, 12345, 0);
  fill = emit(LT, 0, 3, 2, 9);
  emit(JF, 0, 3, 0, 0);
  emit(MUL, KC, 5, 5, kint(1103515245)); emit(ADD, KC, 5, 5, kint(12345)); emit(BAND, KC, 5, 5, mask);
  emit(SHR, KC, 6, 5, kint(16)); emit(BAND, KC, 6, 6, kint(255));
  emit(SETIDX, 0, 1, 2, 6);
  emit(ADDI, 0, 2, 2, 1);
  emit(JMP, 0, 0, fill - ncode - 1, 0);
  code[fill + 1].b = (short)(ncode - fill - 2);
  emit(MOVE, KB, 0, kint(0x11c9dc5), 0);
  emit(LOADI, 0, 2, 0, 0);
  emit(LEN, 0, 7, 1, 0);
  loop = emit(LT, 0, 3, 2, 7);
  emit(JF, 0, 3, 0, 0);
  emit(GETIDX, HOT, 6, 1, 2);
  emit(BXOR, 0, 0, 0, 6);
  emit(MUL, KC, 0, 0, kint(16777619));
  emit(BAND, KC, 0, 0, mask);
  emit(SHL, KC, 8, 0, kint(3)); emit(BOR, 0, 8, 8, 6); emit(BXOR, 0, 0, 0, 8); emit(BAND, KC, 0, 0, mask);
  emit(ADDI, 0, 2, 2, 1);
  emit(JMP, 0, 0, loop - ncode - 1, 0);
  code[loop + 1].b = (short)(ncode - loop - 2);
  emit(HALT, 0, 0, 0, 0);
  return at;
}

/* ---- the same computations in C ---- */

static long long c_sieve(int n)
{
  char *comp = calloc((size_t)n + 1, 1);
  long long count = 0;
  for (long long i = 2; i < n; i++) {
    if (comp[i]) continue;
    count++;
    for (long long j = i * i; j < n; j += i) comp[j] = 1;
  }
  free(comp);
  return count;
}

static long long c_fib(int n) { return n < 2 ? n : c_fib(n - 1) + c_fib(n - 2); }

static long long c_escape(int n)
{
  long long total = 0;
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      double cr = (double)x * 3.0 / n + -2.0, ci = (double)y * 3.0 / n + -1.5, zr = 0, zi = 0, t;
      int it = 0;
      while (it < 50) {
        double r2 = zr * zr, i2 = zi * zi;
        if (4.0 < r2 + i2) break;
        t = zr * zi; zi = 2.0 * t + ci;
        zr = r2 - i2 + cr;
        it++;
      }
      total += it;
    }
  return total;
}

/* prog_sums in C, with the VM's rules: integer products while both factors are below 2^31,
   integer sums until one would pass 2^62, floats from then on. */
static long long c_sums(int n)
{
  long long acc = 0, t;
  double facc = 0;
  int isf = 0;
  for (long long i = 0; i < n; i++) {
    t = i * i * i * (1LL << 24);   /* i < 2^10: every product here stays integer */
    if (!isf && !(acc > 0x3fffffffffffffffLL - t)) { acc += t; continue; }
    if (!isf) { facc = (double)acc + (double)t; isf = 1; continue; }
    facc += (double)t;
  }
  if (isf) acc = (long long)facc;
  acc %= 1000003;
  return acc;
}

static long long c_hash(int n)
{
  long long h = 0x11c9dc5, s = 12345;
  long long *a = malloc(sizeof *a * (size_t)n);
  for (int i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    a[i] = (s >> 16) & 255;
  }
  for (int i = 0; i < n; i++) {
    h ^= a[i];
    h = (h * 16777619) & 0x7fffffff;
    h ^= (h << 3) | a[i];
    h &= 0x7fffffff;
  }
  free(a);
  return h;
}

static struct vm vm;

static long long go(int entry, int arg)
{
  value r;
  vm.narr = 0;
  vm.htop = 0;
  memset(vm.reg, 0, sizeof vm.reg);
  vm.reg[9].t = T_INT; vm.reg[9].u.i = arg;   /* the programs' n */
  vm.reg[1].t = T_INT; vm.reg[1].u.i = arg;   /* fib's n */
  r = run(&vm, entry, 0);
  return r.t == T_INT ? r.u.i : r.t == T_FLT ? (long long)r.u.f : -1;
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 60, bad = 0;
  int sieve = prog_sieve(), fib, esc, sums, hash;
  unsigned long long sum = 0;
  emit(HALT, 0, 0, 0, 0);
  fib = prog_fib();
  esc = prog_escape();
  emit(HALT, 0, 0, 0, 0);
  sums = prog_sums();
  hash = prog_hash();
  vm.hook_every = 1000;
  vm.hook_left = 1000;
  vm.opstats = 1;
  for (int r = 0; r < rounds; r++) {
    int n = 20000 + (r % 7) * 1000, f = 16 + r % 3, e = 24 + r % 5, s = 1000 + r % 37, h = 6000 + (r % 5) * 100;
    long long got[5], want[5];
    got[0] = go(sieve, n); want[0] = c_sieve(n);
    got[1] = go(fib, f); want[1] = c_fib(f);
    got[2] = go(esc, e); want[2] = c_escape(e);
    got[3] = go(sums, s); want[3] = c_sums(s);
    got[4] = go(hash, h); want[4] = c_hash(h);
    for (int k = 0; k < 5; k++) {
      if (got[k] != want[k] && bad++ < 5) printf("round %d program %d: vm %lld, C %lld\n", r, k, got[k], want[k]);
      sum = sum * 1000003 + (unsigned long long)got[k];
    }
  }
  printf("vm: %d rounds, %ld steps, %ld type errors, hook %llx, result %llx\n", rounds, vm.steps, vm.errors,
         vm.hookhash, sum);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
