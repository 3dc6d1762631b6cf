/* One-path helpers whose counts pathprof derives from their callers' paths (pathcc --derive):
   called in conditions, in both arms of ?:, in a loop's condition and increment, in a switch,
   from a recursive function, inside another helper's argument, through a macro, and before an
   exit in the same statement (main's partial path). clamp is called where its block may skip
   it (the right of &&, an arm of ?:) and twice through a pointer: both count themselves. */
#include <stdio.h>
#include <stdlib.h>

struct obj { int refcnt, type; };
#define TYPE(o) type_of(o)
static inline int type_of(const struct obj *o) { return o->type; }
static inline void incref(struct obj *o) { o->refcnt++; }
static inline int clamp(int x) { return x < 0 ? 0 : x; }  /* ?: is no branch of the CFG here */
static inline int plus(int a, int b) { return a + b; }
static int twice(int x) { return 2 * x; }
static int (*volatile fp)(int) = twice;

static int walk(struct obj *o, int depth) {
  if (depth <= 0) return TYPE(o);
  incref(o);
  return plus(walk(o, depth - 1), depth % 2 ? o->type : clamp(-depth));
}

static int work(struct obj *o, int n) {
  int s = 0;
  for (int i = 0; plus(i, 0) < n; i = plus(i, 1)) {
    if (type_of(o) == i % 3 && clamp(i) > 2) incref(o);
    else if (i % 5 == 0) { incref(o); incref(o); }
    switch (plus(i, type_of(o)) % 4) {
    case 0: s += plus(plus(s, 1), type_of(o)); break;
    case 1: s = clamp(s - 7); /* fall through */
    case 2: s += fp(i); break;
    default: incref(o);
    }
    s += i % 7 ? o->type : i + 2;
  }
  return s;
}

int main(int argc, char **argv) {
  struct obj o = { 0, 1 };
  int n = argc > 1 ? atoi(argv[1]) : 300;
  printf("%d %d %d\n", work(&o, n), walk(&o, 9), o.refcnt);
  o.type = 2;
  printf("%d\n", work(&o, n / 3));
  if (n == 299) { incref(&o); exit(plus(type_of(&o), o.refcnt) & 7); }
  return 0;
}
