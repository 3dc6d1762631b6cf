/* The built-in text the demo word counter reads. */
#include "wordtab.h"

const char demo_text[] =
  "A path profiler counts how often each path through a function runs. A path here is a route\n"
  "from the entry of the function, or from the head of a loop, to its exit or back to the head of\n"
  "a loop. The idea comes from Ball and Larus: number the paths so that the sum of small values\n"
  "placed on the edges of the graph is a unique number for every path, then keep that sum in a\n"
  "register while the function runs and count it when the path ends.\n"
  "\n"
  "Why paths and not edges? Edge counts say how often each branch was taken, but not which\n"
  "branches were taken together. Two programs can have the same edge counts and very different\n"
  "paths. The hot path of a loop is the one an optimizer wants to lay out straight, and it is the\n"
  "one a tester wants to see covered. A path that never ran is a question: is it dead code, or is\n"
  "it a case the tests forgot?\n"
  "\n"
  "The instrumented program is plain C. Each function keeps its own register, so recursion and\n"
  "threads do no harm. At the end of the run the counts go to a file, and the reporter turns the\n"
  "numbers back into blocks and lines of the source: 'this path ran ten thousand times; that one\n"
  "ran once; these never ran at all.' The counts are exact, and the tests check that they are.\n";
