/* board-host.c: the interrupt sample on the host: the "timer" fires by calling the handler's work
   at the points where the targets make it fire; the profile is written at exit as usual. */
#include <stdio.h>
#include <stdlib.h>
#include "app.h"

void board_init(void)
{
}

int board_putc(int c)
{
  return putchar(c);
}

void board_tick(void)
{
  app_isr();
}

void board_exit(int status)
{
  exit(status);
}
