/* Dumps while functions run, as firmware does at checkpoints: every round main() and round_of()
   are active when the counts go out as text (then reset), and the dumps, imported and added to
   what the exit handler writes, must count what one profile of the whole run counts. With an
   argument the checkpoint does nothing: the same paths run, without dumps. */
#include <stdio.h>
#include "pathprof.h"

/* The dump's sink and the checkpoints run while dumping or instead of it: left uninstrumented,
   so both runs take the same paths. */
__attribute__((no_instrument_function)) static int put(int c)
{
  return putchar(c) == EOF ? -1 : 0;
}

__attribute__((no_instrument_function)) static void dump_now(void)
{
  pathprof_dump_text(put, "round", PATHPROF_TEXT_HEX);
  pathprof_reset();
}

__attribute__((no_instrument_function)) static void skip(void)
{
}

static void (*checkpoint)(void);

static int step(int i)
{
  if (i % 3 == 0)
    return i / 3;
  return i * 2;
}

static int round_of(int r)
{
  int s = 0;
  for (int i = 0; i < r + 2; i++)
    s += step(i);
  checkpoint();
  if (s % 2)
    s++;
  return s;
}

int main(int argc, char **argv)
{
  int t = 0;
  (void)argv;
  checkpoint = argc == 1 ? dump_now : skip;
  for (int r = 0; r < 6; r++)
    t += round_of(r);
  fprintf(stderr, "total %d\n", t);
  return 0;
}
