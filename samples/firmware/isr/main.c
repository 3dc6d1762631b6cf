/* main.c: the interrupt sample's main, on every target and the host (not profiled): runs the
   main loop, prints its result, dumps the counts as text on the UART and, where the target has
   semihosting (SEMIHOST=1), writes them to isr.prof on the host too. */
#include "pathprof.h"
#include "app.h"

#ifndef SEMIHOST
#define SEMIHOST 0
#endif
#ifdef PLAIN_BUILD /* the baseline of pathprof size: the same program without profiling */
#define pathprof_dump_text(put, label, flags) ((void)(put), (void)(label), 0)
#define pathprof_semihost_write(file) ((void)(file), 0)
#endif

static void puts_(const char *s)
{
  while (*s)
    board_putc(*s++);
}

int main(void)
{
  unsigned int r;
  int shift, rc = 0;

  board_init();
  r = (unsigned int)app_run();
  puts_("isr: result ");
  for (shift = 12; shift >= 0; shift -= 4)
    board_putc("0123456789abcdef"[(r >> shift) & 0xf]);
  puts_("\n");
  if (pathprof_dump_text(board_putc, "isr", PATHPROF_TEXT_HEX) != 0)
    rc = 1;
  if (SEMIHOST && pathprof_semihost_write("isr.prof") != 0)
    rc = 2;
  puts_(rc ? "isr: dump failed\n" : "isr: done\n");
  board_exit(rc);
  return rc;
}
