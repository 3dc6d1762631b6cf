/* shards.c: per-thread counter bases (pathcc's default update policies): the first thread to count
   in a unit counts in its own array, every other thread in a shard of its own, folded into the
   unit before every dump and on a crash. */
#include "posix.h"
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define DROP_MIN 262144 /* bytes of counts from which zeroing drops their whole pages */

/* Each thread counts a unit's array paths in memory only it writes, found through the unit's
   thread-local pointer (read once per activation); no atomic operation on the counting path. The
   first thread gets the unit's own array, so a one-thread program needs no more memory than
   plain counting; the others get zeroed shards. The unit's array may be counted in plainly by
   its owner at any time, so an exiting thread's shards go into the unit's retired shard, not the
   unit; all shards are folded in before every dump, so a write sees every joined thread's
   counts. */

/* One thread's shard of one unit's array counters. */
struct shard {
  struct __pathprof_unit *u;
  unsigned long long *c;       /* u->ncounters counters */
  unsigned long long **slot;   /* the owner's thread-local pointer to c (0 once retired) */
  pthread_t owner;
  int retired;                 /* the counts of exited threads: no owner, no slot */
  struct shard *next;          /* all shards, live and retired */
  struct shard *tnext;         /* the owner's other shards */
};

static pthread_mutex_t shard_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct shard *shards;
static pthread_once_t shard_once = PTHREAD_ONCE_INIT;
static pthread_key_t shard_key;
static int shard_key_ok;
/* Set by the crash handler: from then on dumps fold shards without the lock. */
static volatile sig_atomic_t crashed;

/* A move of counts between two arrays of one unit (move_counts). */
struct move {
  unsigned long long *to, *from;
};

/* Moves the counts of from[i..end) into `to`, each taken with an exchange so a count made
   meanwhile is kept for the next move; atomic, as a dump or the crash handler may be folding
   alongside. A zero counter is only read (an exchange would write its page into memory). */
static void move_run(void *ctx, unsigned long i, unsigned long end)
{
  struct move *m = ctx;
  unsigned long long v;
  for (; i < end; i++) {
    if (!__atomic_load_n(&m->from[i], __ATOMIC_RELAXED))
      continue;
    v = __atomic_exchange_n(&m->from[i], 0, __ATOMIC_RELAXED);
    if (v)
      __atomic_fetch_add(&m->to[i], v, __ATOMIC_RELAXED);
  }
}

/* Moves n counts from `from` into `to`, reading only the pages of `from` its thread wrote: a
   big function's shard is mapped lazily, and most of it is never counted in. */
static void move_counts(unsigned long long *to, unsigned long long *from, unsigned long n)
{
  struct move m;
  m.to = to;
  m.from = from;
  __pathprof_written_runs(from, n, move_run, &m);
}

/* A shard's counts go into its unit (dumps, the crash handler). */
static void fold_shard(struct shard *s)
{
  move_counts(s->u->counters, s->c, s->u->ncounters);
}

/* Unlinks s from the list of live shards; the caller holds shard_mutex. */
static void unlink_shard(struct shard *s)
{
  struct shard **p;
  for (p = &shards; *p && *p != s; p = &(*p)->next)
    ;
  if (*p)
    *p = s->next;
}

/* The retired shard of unit u, or 0: one per unit holds the counts of all its exited threads,
   so memory stays bounded however many threads come and go. The caller holds shard_mutex. */
static struct shard *retired_of(const struct __pathprof_unit *u)
{
  struct shard *s;
  for (s = shards; s && !(s->retired && s->u == u); s = s->next)
    ;
  return s;
}

/* Adds s into r (its unit's retired shard) and zeroes s. */
static void fold_into(struct shard *r, struct shard *s)
{
  move_counts(r->c, s->c, s->u->ncounters);
}

/* Ends one shard of an exiting thread: it becomes its unit's retired shard, or its counts go
   there; never into the unit, whose owner may be counting in it plainly. */
static void retire(struct shard *s)
{
  struct shard *r;
  *s->slot = 0;
  pthread_mutex_lock(&shard_mutex);
  r = retired_of(s->u);
  if (!r) {
    s->retired = 1;
    s->slot = 0;
  } else {
    fold_into(r, s);
    unlink_shard(s);
  }
  pthread_mutex_unlock(&shard_mutex);
  if (r) {
    free(s->c);
    free(s);
  }
}

/* Key destructor at thread exit: the thread's shards are retired. Code that counts after this
   (a later destructor) gets a fresh shard, and this runs again. */
static void thread_exit(void *chain)
{
  struct shard *s = chain, *t;
  while (s) {
    t = s->tnext;
    retire(s);
    s = t;
  }
}

/* Creates the key whose destructor retires a thread's shards. */
static void make_shard_key(void)
{
  shard_key_ok = pthread_key_create(&shard_key, thread_exit) == 0;
}

/* A new zeroed shard of u for the calling thread, listed for dumps and chained to the thread's
   key so that its exit retires it; 0 when out of memory. */
static unsigned long long *new_shard(struct __pathprof_unit *u, unsigned long long **slot)
{
  struct shard *s;

  pthread_once(&shard_once, make_shard_key);
  s = calloc(1, sizeof *s);
  if (s)
    s->c = calloc(u->ncounters ? u->ncounters : 1, sizeof *s->c);
  if (!s || !s->c || !shard_key_ok) {
    free(s ? s->c : 0);
    free(s);
    return 0;
  }
  s->u = u;
  s->slot = slot;
  s->owner = pthread_self();
  s->tnext = pthread_getspecific(shard_key);
  pthread_setspecific(shard_key, s);
  pthread_mutex_lock(&shard_mutex);
  s->next = shards;
  shards = s;
  pthread_mutex_unlock(&shard_mutex);
  return s->c;
}

/* The calling thread's counter base for u, asked once per thread: the unit's own array for the
   first thread to ask (*spare, the unit's flag, 1 until then, says it is free), else a new
   shard. *slot (the unit's thread-local pointer) keeps it. Out of memory: u's own array,
   counted without the thread-safety. */
unsigned long long *__pathprof_base(struct __pathprof_unit *u, unsigned long long **slot, char *spare)
{
  unsigned long long *c = 0;
  if (!__atomic_exchange_n(spare, 0, __ATOMIC_RELAXED)) {
    *slot = u->counters;  /* while the shard is made (the program's own calloc may count in
                             this unit): no recursion, those few counts go to the unit's array */
    c = new_shard(u, slot);
  }
  *slot = c ? c : u->counters;
  return *slot;
}

#if defined(__x86_64__) && defined(__LP64__) && defined(__ELF__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
extern int __pathprof_xmode, __pathprof_xmask;

/* What __pathprof_keep_call (rt/core/partial.c) needs, from what the C library asked the CPU at
   startup (glibc 2.33 and later), before any instrumented code runs: it then runs no cpuid,
   which leaves a virtual machine for its hypervisor (6 us each on the bench's machine). The
   area's size is not among it: the components of the mask end at byte 2688 of xsave's standard
   format, so 4096 holds them. */
static void __attribute__((constructor)) xsave_known(void)
{
  unsigned lo, hi;
  if (__pathprof_xmode)
    return;
  if (!CPU_FEATURE_PRESENT(OSXSAVE)) {
    __pathprof_xmode = 1;
    return;
  }
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  __pathprof_xmask = (int)(lo & 0xe7);
  __pathprof_xmode = 4096;
}
#endif
#endif

/* Before a dump: every shard's counts, live or retired, go into its unit. */
void __pathprof_backend_sync(void)
{
  struct shard *s;
  if (crashed)
    return; /* the crash handler folded them already */
  pthread_mutex_lock(&shard_mutex);
  for (s = shards; s; s = s->next)
    fold_shard(s);
  pthread_mutex_unlock(&shard_mutex);
}

/* The crash handler's fold: no lock, the list is only read. */
void __pathprof_crash_sync(void)
{
  struct shard *s;
  crashed = 1;
  for (s = shards; s; s = s->next)
    fold_shard(s);
}

/* Zeroes the nonzero counts of c[i..end): a zero is only read (its page stays unwritten). */
static void zero_run(void *ctx, unsigned long i, unsigned long end)
{
  unsigned long long *c = ctx;
  for (; i < end; i++)
    if (__atomic_load_n(&c[i], __ATOMIC_RELAXED))
      __atomic_store_n(&c[i], 0, __ATOMIC_RELAXED);
}

/* Zeroes the n counts at c, reading only the pages the process wrote; private anonymous memory
   of DROP_MIN bytes or more (never a continuous file's mapping, nor a page it shares with
   other data) has its whole pages dropped instead, which then read as zeros: no page is copied
   (a fork's child shares its parent's) or cleared. */
static void zero_counts(unsigned long long *c, unsigned long n, int anonymous)
{
  long pg = sysconf(_SC_PAGESIZE);
  unsigned long a = (unsigned long)c, page = pg > 0 ? (unsigned long)pg : 4096;
  unsigned long lo = (a + page - 1) / page * page, hi = (a + n * sizeof *c) / page * page;

  if (anonymous && n * sizeof *c >= DROP_MIN && hi > lo && madvise((void *)lo, hi - lo, MADV_DONTNEED) == 0) {
    __pathprof_written_runs(c, (lo - a) / sizeof *c, zero_run, c);
    c += (hi - a) / sizeof *c;
    __pathprof_written_runs(c, n - (hi - a) / sizeof *c, zero_run, c);
    return;
  }
  __pathprof_written_runs(c, n, zero_run, c);
}

/* See core.h. */
void __pathprof_backend_zero(struct __pathprof_unit *u)
{
  zero_counts(u->counters, u->ncounters, !__pathprof_cont_mapped(u));
}

/* pathprof_reset: every shard, live or retired, is zeroed. */
void __pathprof_backend_reset(void)
{
  struct shard *s;
  pthread_mutex_lock(&shard_mutex);
  for (s = shards; s; s = s->next)
    zero_counts(s->c, s->u->ncounters, 1);
  pthread_mutex_unlock(&shard_mutex);
}

/* In a forked child only the forking thread lives on: the other threads' shards and the
   retired ones are dropped (their counts are the parent's); the caller then zeroes the rest. */
static void drop_foreign_shards(void)
{
  struct shard **p = &shards, *s;
  while ((s = *p)) {
    if (!s->retired && pthread_equal(s->owner, pthread_self())) {
      p = &s->next;
      continue;
    }
    *p = s->next;
    free(s->c);
    free(s);
  }
}

/* Before fork: no thread is inside the shard list. */
void __pathprof_shards_prefork(void)
{
  pthread_mutex_lock(&shard_mutex);
}

/* After fork: in the child the other threads' shards go; in both the list is free again. */
void __pathprof_shards_postfork(int child)
{
  if (child)
    drop_foreign_shards();
  pthread_mutex_unlock(&shard_mutex);
}
