/* vm.c: a small stack machine; the interpreter is a loop around a switch on the opcode. */
#include "workload.h"

enum op { PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, LT, JZ, JMP, DUP, HALT };

#define STACK 16
#define VARS 4

/* Runs code with v0 = arg; returns v1 when it halts (or an error code). */
static unsigned int run(const unsigned char *code, unsigned int arg)
{
  unsigned int st[STACK], var[VARS] = {0, 0, 0, 0}, a, b;
  int sp = 0, pc = 0, steps = 0;

  var[0] = arg;
  for (;;) {
    if (++steps > 100000)
      return 0xffffu;
    switch ((enum op)code[pc++]) {
    case PUSH:
      if (sp == STACK)
        return 0xfffeu;
      st[sp++] = code[pc++];
      break;
    case LOAD:
      if (sp == STACK)
        return 0xfffeu;
      st[sp++] = var[code[pc++] % VARS];
      break;
    case STORE:
      var[code[pc++] % VARS] = st[--sp];
      break;
    case DUP:
      st[sp] = st[sp - 1];
      sp++;
      break;
    case ADD:
    case SUB:
    case MUL:
    case MOD:
    case LT:
      b = st[--sp];
      a = st[--sp];
      switch ((enum op)code[pc - 1]) {
      case ADD: a += b; break;
      case SUB: a -= b; break;
      case MUL: a *= b; break;
      case MOD: a = b ? a % b : 0; break;
      default: a = a < b; break;
      }
      st[sp++] = a;
      break;
    case JZ:
      if (st[--sp] == 0) {
        pc = code[pc];
        break;
      }
      pc++;
      break;
    case JMP:
      pc = code[pc];
      break;
    case HALT:
      return var[1];
    default:
      return 0xfffdu;
    }
  }
}

/* v1 = sum of i*i mod 7 for i < v0, counting down v0. */
static const unsigned char squares[] = {
  PUSH, 0, STORE, 1,                   /* 0: v1 = 0 */
  LOAD, 0, JZ, 24,                     /* 4: while v0 */
  LOAD, 0, DUP, MUL, PUSH, 7, MOD,     /* 8: v0*v0 % 7 */
  LOAD, 1, ADD, STORE, 1,              /* 15: v1 += */
  LOAD, 0, JMP, 26,                    /* 20 */
  HALT, HALT,                          /* 24 */
  PUSH, 1, SUB, STORE, 0, JMP, 4       /* 26: v0 -= 1 */
};

/* Runs the program for arg and arg+3. */
unsigned int vm_case(unsigned int arg)
{
  return run(squares, arg) * 100u + run(squares, arg + 3u);
}
