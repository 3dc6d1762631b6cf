/* cases.c: the test cases the firmware and the host both run. */
#include "workload.h"

static const char *const names[NCASES] = {"sort", "fsm", "vm", "mixed"};

static const char messages[] =
    "$SET,12*20\n$ADD,1,2,3*08\n$GO*0\n$XY,5*7F\ngarbage$ABC,99*66\n$SET,7*2D\n"
    "$RUN,1,2*59\n$Q*51\n$BAD,1x*00\n$LONGNAME,123,45*3C\n";

/* The name of case i. */
const char *case_name(int i)
{
  return i >= 0 && i < NCASES ? names[i] : "?";
}

/* Runs case i; returns its result. */
unsigned int run_case(int i)
{
  unsigned int r = 0;
  int k;
  switch (i) {
  case 0:
    r = sort_case(1u, 40);
    break;
  case 1:
    for (k = 0; k < 3; k++)
      r += fsm_case(messages + k);
    break;
  case 2:
    r = vm_case(9u);
    break;
  case 3:
    for (k = 0; k < 5; k++)
      r = r * 31u + (k & 1 ? vm_case((unsigned int)k) : sort_case((unsigned int)k, 10 + k));
    r += fsm_case("$A*41\n$B,1*\n");
    break;
  default:
    r = 0xbad;
    break;
  }
  return r;
}
