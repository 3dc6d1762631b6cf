/* survive_prog.c: known paths for regress/e2e/survive.sh: work(n) is function 0; "sig N MODE"
   raises signal N with no handler, its own handler or ignored; "wait FILE" works, waits for FILE
   to exist, works again; "stress" works for a while (the writer a random SIGKILL may hit);
   "_exit" leaves by _exit (no exit handler runs). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Takes n paths through a loop with two kinds of iteration. */
static int work(int n)
{
  int i, s = 0;
  for (i = 0; i < n; i++) {
    if (i % 3)
      s += i;
    else
      s -= 1;
  }
  return s;
}

static volatile sig_atomic_t got;
static void mine(int s) { got = s; }

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  int s = work(100), i;
  if (!strcmp(mode, "sig") && argc > 3) {
    int sig = atoi(argv[2]);
    if (!strcmp(argv[3], "own"))
      signal(sig, mine);
    if (!strcmp(argv[3], "ignore"))
      signal(sig, SIG_IGN);
    raise(sig);
    return got != (!strcmp(argv[3], "own") ? sig : 0);
  }
  if (!strcmp(mode, "_exit"))
    _exit(s == 12345);
  if (!strcmp(mode, "wait") && argc > 2) {
    while (access(argv[2], F_OK) != 0)
      usleep(2000);
    s += work(100);
  }
  for (i = 0; !strcmp(mode, "stress") && i < 40; i++) { /* 40 ms or more: time to be killed */
    s += work(100);
    usleep(1000);
  }
  return s == 12345;
}
