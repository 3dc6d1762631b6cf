/* Linked into the gcc --coverage builds of the crash cases only: gcov writes nothing when a
   fatal signal ends the program, so this handler dumps its counts first, as pathprof's runtime
   does by itself. */
#include <signal.h>

extern void __gcov_dump(void);

static void dump(int sig)
{
  __gcov_dump();
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void)
{
  signal(SIGSEGV, dump);
  signal(SIGABRT, dump);
}
