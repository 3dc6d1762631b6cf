/* Case: a program reads, saves and restores signal actions (as CPython's signal module does at startup and its tests after): it must see what it would see without the runtime, whose crash handler stands for the default action. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t got;

static void on_usr(int sig)
{
  got = sig;
}

/* What a signal's action looks like from here. */
static const char *action(int sig)
{
  struct sigaction sa;
  if (sigaction(sig, NULL, &sa) != 0)
    return "error";
  if (sa.sa_flags & SA_SIGINFO)
    return "siginfo";
  if (sa.sa_handler == SIG_DFL)
    return "default";
  if (sa.sa_handler == SIG_IGN)
    return "ignored";
  return sa.sa_handler == on_usr ? "ours" : "someone else's";
}

int main(void)
{
  const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGABRT, SIGUSR2, SIGALRM };
  struct sigaction saved, mine;
  void (*before)(int);
  unsigned i;

  for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    printf("%d: %s\n", sigs[i], action(sigs[i]));
  /* save, replace, restore: what was saved must be accepted back */
  memset(&mine, 0, sizeof mine);
  mine.sa_handler = on_usr;
  if (sigaction(SIGTERM, &mine, &saved) != 0)
    return 1;
  printf("replaced: %s\n", action(SIGTERM));
  if (sigaction(SIGTERM, &saved, NULL) != 0)
    return 2;
  printf("restored: %s\n", action(SIGTERM));
  before = signal(SIGUSR2, on_usr);
  printf("signal() returned %s\n", before == SIG_DFL ? "default" : before == SIG_IGN ? "ignored" : "a handler");
  raise(SIGUSR2);
  printf("handled %s\n", got == SIGUSR2 ? "SIGUSR2" : "nothing");
  printf("back: %s\n", signal(SIGUSR2, before) == on_usr ? "ours" : "other");
  printf("now: %s\n", action(SIGUSR2));
  return 0;
}
