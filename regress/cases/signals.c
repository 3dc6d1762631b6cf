/* Case: an instrumented signal handler interrupting instrumented code at arbitrary points (interval timer). */
/* regress: timing-dependent (how often the loop runs depends on the clock; exact.sh compares no two runs) */
/* The handler runs classify() too: a plain increment (a load and a store at -O0) that it
   interrupts loses the handler's count, so the case counts atomically, which is signal-safe.
   regress: pathcc-flags --update=atomic */
#define _XOPEN_SOURCE 700
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;

static int classify(unsigned long v)
{
  if (v & 1)
    return 1;
  if (v & 2)
    return 2;
  return 3;
}

static void on_alarm(int sig)
{
  (void)sig;
  ticks += classify((unsigned long)ticks) > 1 ? 1 : 2;
}

int main(void)
{
  struct sigaction sa;
  struct itimerval it;
  unsigned long i, s = 0;

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  if (sigaction(SIGALRM, &sa, NULL) != 0)
    return 2;
  memset(&it, 0, sizeof it);
  it.it_interval.tv_usec = 1000;
  it.it_value = it.it_interval;
  if (setitimer(ITIMER_REAL, &it, NULL) != 0)
    return 3;
  for (i = 0; ticks < 40; i++) {
    if (i % 3 == 0)
      s += (unsigned long)classify(i);
    else
      s ^= i;
  }
  memset(&it, 0, sizeof it);
  setitimer(ITIMER_REAL, &it, NULL);
  printf("ticks %s\n", ticks >= 40 ? "done" : "short");
  return s == 0xdeadbeef;   /* s depends on timing; only its use is checked */
}
