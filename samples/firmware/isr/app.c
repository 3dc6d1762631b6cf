/* app.c: the main loop and the timer handler's work, both calling filter(). The main loop makes
   the timer fire at fixed points (board_tick) while its own activation is open, so the handler's
   instrumented code runs inside it; the counts are then the same on every target and on the host,
   whatever the update policy. */
#include "app.h"

static int acc;
static int ticks;

/* Called from the main loop and from the handler. */
int filter(int x)
{
  int s = 0, i;

  for (i = 0; i < (x & 3); i++) {
    if ((x >> i) & 1)
      s += i;
    else
      s -= 1;
  }
  switch (x % 3) {
  case 0:
    return s;
  case 1:
    return s + 1;
  default:
    return -s;
  }
}

void app_isr(void)
{
  ticks++;
  if (ticks & 1)
    acc += filter(ticks);
  else
    acc ^= filter(ticks + 7);
}

int app_run(void)
{
  int i, t = 0;

  for (i = 0; i < 60; i++) {
    t += filter(i);
    if (i % 4 == 1)
      board_tick(); /* the handler runs here, inside this activation */
    else if (i % 7 == 0)
      t -= filter(t & 15);
  }
  return t + acc + ticks;
}
