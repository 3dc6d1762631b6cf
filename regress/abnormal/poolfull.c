/* regress/e2e/abnormal.sh "pool": five functions abandoned by longjmp (three with no argument), and
   with two arguments a reset, then two more: more partial paths than a three-slot pool holds. */
#include <setjmp.h>
#include <stdio.h>
#include <pathprof.h>
static jmp_buf jb;
void jumper(int v) { if (v >= 0) longjmp(jb, 1); }
int f1(int v) { int s = v * 2; jumper(v); return s; }
int f2(int v) { int s = v + 1; if (v > 100) s++; jumper(v); return s; }
int f3(int v) { int s = v - 1; jumper(v); return s; }
int f4(int v) { jumper(v); return v; }
int f5(int v) { int s = 0; if (v & 1) s = 1; jumper(v); return s; }
int main(int argc, char **argv) {
  int (*fs[5])(int) = { f1, f2, f3, f4, f5 };
  int n = argc > 1 ? 5 : 3, i;
  (void)argv;
  for (i = 0; i < n; i++)
    if (!setjmp(jb)) fs[i](i);
  if (argc > 2) { pathprof_reset(); for (i = 0; i < 2; i++) if (!setjmp(jb)) fs[4 - i](i); }
  return 0;
}
