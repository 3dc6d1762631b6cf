/* fsm.c: a line protocol ("$CMD,arg,arg*ck" with a checksum) parsed byte by byte by a state
   machine: a loop around a switch on the state, with error recovery. */
#include "workload.h"

enum state { IDLE, CMD, ARG, CK1, CK2, SKIP };

struct parser {
  enum state st;
  unsigned int sum, ck, cmd, arg, nargs;
  unsigned int good, bad, total;
};

/* Value of a hex digit, or -1. */
static int hexdigit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Acts on one complete, checked message. */
static void execute(struct parser *p)
{
  switch (p->cmd % 5u) {
  case 0:
    p->total += p->arg;
    break;
  case 1:
    p->total ^= p->arg << 3;
    break;
  case 2:
    if (p->nargs > 1)
      p->total += p->nargs;
    else
      p->total -= 1u;
    break;
  default:
    p->total = p->total * 3u + p->cmd;
    break;
  }
  p->good++;
}

/* Feeds one byte to the parser. */
static void step(struct parser *p, char c)
{
  int d;
  switch (p->st) {
  case IDLE:
    if (c == '$') {
      p->st = CMD;
      p->sum = 0;
      p->cmd = 0;
      p->arg = 0;
      p->nargs = 0;
    }
    break;
  case CMD:
    if (c >= 'A' && c <= 'Z') {
      p->cmd = p->cmd * 26u + (unsigned int)(c - 'A');
      p->sum ^= (unsigned int)c;
    } else if (c == ',') {
      p->st = ARG;
      p->nargs++;
      p->sum ^= (unsigned int)c;
    } else if (c == '*') {
      p->st = CK1;
    } else {
      p->st = SKIP;
      p->bad++;
    }
    break;
  case ARG:
    if (c >= '0' && c <= '9') {
      p->arg = p->arg * 10u + (unsigned int)(c - '0');
      p->sum ^= (unsigned int)c;
    } else if (c == ',') {
      p->nargs++;
      p->sum ^= (unsigned int)c;
    } else if (c == '*') {
      p->st = CK1;
    } else {
      p->st = SKIP;
      p->bad++;
    }
    break;
  case CK1:
  case CK2:
    d = hexdigit(c);
    if (d < 0) {
      p->st = SKIP;
      p->bad++;
      break;
    }
    p->ck = (p->st == CK1 ? 0u : p->ck << 4) | (unsigned int)d;
    if (p->st == CK1) {
      p->st = CK2;
    } else {
      if (p->ck == (p->sum & 0xffu))
        execute(p);
      else
        p->bad++;
      p->st = IDLE;
    }
    break;
  case SKIP:
    if (c == '\n')
      p->st = IDLE;
    break;
  }
}

/* Parses a whole input; returns a digest of what it did. */
unsigned int fsm_case(const char *input)
{
  struct parser p;
  p.st = IDLE;
  p.sum = p.ck = p.cmd = p.arg = p.nargs = 0;
  p.good = p.bad = p.total = 0;
  while (*input)
    step(&p, *input++);
  return p.total * 7u + p.good * 1000u + p.bad;
}
