/* host_main.c: the firmware's test cases on the host, built with `pathcc gcc`: the reference the
   target's counts must equal. Without arguments the profile is written at exit ($PATHPROF_FILE);
   with --text each case is followed by a text dump on stdout and a reset, as on the board. */
#include <stdio.h>
#include <string.h>
#include "pathprof.h"
#include "workload.h"

static unsigned int lines;

/* The same noisy sink as the board's. */
static int noisy_putc(int c)
{
  putchar(c);
  if (c == '\n' && ++lines % 5u == 0)
    printf("[sensor] t=%08x ok\n", lines);
  return c;
}

int main(int argc, char **argv)
{
  int i, text = argc > 1 && !strcmp(argv[1], "--text");
  unsigned int r;
  const char *name;

  printf("firmware: start\n");
  for (i = 0; i < NCASES; i++) {
    r = run_case(i);
    name = case_name(i);
    printf("case %s: result 0x%08x\n", name, r);
    if (text) {
      if (pathprof_dump_text(noisy_putc, name, (i & 1) ? PATHPROF_TEXT_BASE64 : PATHPROF_TEXT_HEX) != 0)
        printf("firmware: dump failed\n");
      pathprof_reset();
    }
  }
  printf("firmware: done\n");
  return 0;
}
