/* Every <stdatomic.h> operation in branches and loops: libclang rejects GCC's expansion of most (issue 37), pathcc must still instrument and count them. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pair { int a, b; };

static atomic_int hits = ATOMIC_VAR_INIT(0);
static _Atomic(long) total;
static _Atomic unsigned flags;
static atomic_flag lock = ATOMIC_FLAG_INIT;
static _Atomic(struct pair) shared;
static _Atomic(int *) cursor;
static atomic_bool done;
static _Atomic short level;
static int cells[8];

/* A spin lock from atomic_flag: test-and-set in a loop condition, clear on the way out. */
static int locked_add(int v) {
  int spins = 0;
  while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) spins++;
  atomic_fetch_add_explicit(&total, v, memory_order_relaxed);
  atomic_flag_clear_explicit(&lock, memory_order_release);
  if (!atomic_flag_test_and_set(&lock)) atomic_flag_clear(&lock);
  return spins;
}

/* Compare-exchange loops, strong and weak, plain and explicit. */
static int bump_max(_Atomic int *p, int v) {
  int old = atomic_load(p), tries = 0;
  while (old < v && !atomic_compare_exchange_weak(p, &old, v)) tries++;
  int e = atomic_load_explicit(p, memory_order_acquire);
  if (atomic_compare_exchange_strong_explicit(p, &e, e, memory_order_acq_rel, memory_order_acquire)) tries += 10;
  e = -1;
  if (!atomic_compare_exchange_strong(p, &e, 0)) tries += 100;
  do {
    e = atomic_load(p);
  } while (!atomic_compare_exchange_weak_explicit(p, &e, e + 1, memory_order_seq_cst, memory_order_relaxed));
  return tries;
}

/* The fetch-and-op family on flags and counters, their values deciding branches. */
static unsigned bits(int i) {
  unsigned r = 0;
  if (atomic_fetch_or(&flags, 1u << (i % 5)) & 1u) r |= 1;
  if (atomic_fetch_and_explicit(&flags, ~(1u << (i % 3)), memory_order_relaxed) & 2u) r |= 2;
  if ((atomic_fetch_xor(&flags, 4u) & 4u) == 0) r |= 4;
  else if (atomic_fetch_xor_explicit(&flags, 8u, memory_order_release) & 8u) r |= 8;
  switch (atomic_load(&flags) % 4) {
  case 0: r += 16; break;
  case 1: atomic_fetch_or_explicit(&flags, 16u, memory_order_relaxed); break;
  default: atomic_fetch_and(&flags, 7u); break;
  }
  return r;
}

/* Loads, stores, exchanges, whole structs and pointers. */
static int structs(int i) {
  struct pair p = { i, -i }, q;
  atomic_store(&shared, p);
  q = atomic_load(&shared);
  struct pair r = atomic_exchange(&shared, q);
  atomic_store_explicit(&cursor, &cells[i % 8], memory_order_release);
  int *c = atomic_load_explicit(&cursor, memory_order_consume);
  *c += kill_dependency(q.a);
  int *before = atomic_exchange_explicit(&cursor, cells, memory_order_acq_rel);
  return r.a + r.b + (before == &cells[i % 8] ? 1 : 0);
}

/* _Atomic objects in expressions: increments, compound assignment, conditions. */
static int arithmetic(int n) {
  _Atomic int local;
  atomic_init(&local, n);
  int seen = 0;
  for (atomic_store(&done, false); !atomic_load(&done);) {
    local += 3;
    local--;
    level += 2;
    if (local > 3 * n) atomic_store_explicit(&done, true, memory_order_seq_cst);
    seen++;
  }
  atomic_thread_fence(memory_order_seq_cst);
  atomic_signal_fence(memory_order_acquire);
  return seen + (atomic_is_lock_free(&local) ? 1 : 0) + (local == 3 * n + 2 ? 1000 : 0);
}

/* A value compared with an atomic result (clang cannot type it), conditions on one line and
   across lines, decisions inside an atomic operation's arguments (one across lines). */
static int compare(int i) {
  int v = 0;
  if (i == atomic_fetch_add(&hits, 1)) v += 1;
  if (i > 2 && atomic_fetch_sub(&hits, 0) > 4) v += 2;
  if (i % 2 == 0 ||
      atomic_load(&hits) % 3 == 0)
    v += 4;
  atomic_fetch_add_explicit(&hits, i > 5 ? 1 : 0, memory_order_relaxed);
  atomic_fetch_sub_explicit(&hits, i > 5 ? 1 : 0, memory_order_relaxed);
  /* clang's MC/DC lists the conditions of an && inside its atomic builtin's operand in another
     order than they run: the decision stands apart */
  int mid = i > 3 && i < 9;
  atomic_fetch_add(&hits, /* mid's && */ mid);
  atomic_fetch_sub(&hits, i > 3 ? mid : 0);
  return atomic_load(&hits) > 100 ? -1 : v;
}

int main(void) {
  _Atomic int best;
  atomic_init(&best, 0);
  long sum = 0;
  for (int i = 0; i < 12; i++) {
    sum += locked_add(i);
    sum += bump_max(&best, i % 7);
    sum += bits(i);
    sum += structs(i);
    sum += compare(i);
  }
  sum += arithmetic(4);
  printf("sum %ld total %ld best %d hits %d flags %u level %d cells %d %d\n", sum, (long)atomic_load(&total),
         atomic_load(&best), atomic_load(&hits), atomic_load(&flags), (int)level, cells[0], cells[3]);
  return 0;
}
