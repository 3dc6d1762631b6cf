/* Case (issue 26, class 3): PCRE2-style recursion without the C stack (pcre2_match.c's RMATCH):
   a macro saves a return point, jumps to the matcher's top and comes back through a switch to
   the label the macro planted, all on the macro's line. The line counts the macro's runs, as gcov
   and llvm-cov do, whether the code after it continues the label's block or starts another; a
   switch with a user label right after default: counts what ran. */
#include <stdio.h>

#define RMATCH(ra, rb) \
  { fr[depth].start = start; fr[depth++].id = rb; start = ra; goto RECURSE; L_##rb:; }
#define RRETURN(v) { rrc = (v); goto RETURN_SWITCH; }

struct frame { const char *start; int id; };

static int match(const char *s)
{
  struct frame fr[32];
  const char *start = s;
  int depth = 0, rrc = 0;
RECURSE:
  if (*start == 0 || depth >= 30) RRETURN(1);
  if (*start == 'a') {
    RMATCH(start + 1, 1);
    if (rrc > 100) RRETURN(rrc);
    RRETURN(rrc + 1);
  }
  if (*start == 'b') {
    RMATCH(start + 1, 2);
  }
  if (*start == 'c') RMATCH(start + 1, 3);
  RMATCH(start + 1, 4);
  RRETURN(rrc * 2);
RETURN_SWITCH:
  if (depth == 0) return rrc;
  depth--;
  start = fr[depth].start;
  switch (fr[depth].id) {
  case 1: goto L_1;
  case 2: goto L_2;
  case 3: goto L_3;
  case 4: goto L_4;
  default:
  bad:
    return -1;
  }
  goto bad;
}

int main(void)
{
  static const char *const in[] = { "ab", "ba", "cab", "abc", "", "bbb" };
  int s = 0;
  for (int i = 0; i < 12; i++) s += match(in[i % 6]);
  printf("%d\n", s);
  return 0;
}
