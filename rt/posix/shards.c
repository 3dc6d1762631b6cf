/* shards.c: per-thread shards of the array counters (pathcc --update=prefer-atomic): each thread
   counts in its own copy, folded into the units at thread exit, before every dump and on a crash. */
#include "posix.h"
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

/* Each thread counts a unit's array paths in its own zeroed copy of the counters, found through
   the unit's thread-local pointer; no atomic operation on the counting path. A thread's shards
   are added into the units when it exits (a key destructor) and all live shards are folded in
   before every dump, so a write sees every joined thread's counts. */

/* One thread's shard of one unit's array counters. */
struct shard {
  struct __pathprof_unit *u;
  unsigned long long *c;       /* u->ncounters counters */
  unsigned long long **slot;   /* the owner's thread-local pointer to c */
  pthread_t owner;
  struct shard *next;          /* all live shards */
  struct shard *tnext;         /* the owner's other shards */
};

static pthread_mutex_t shard_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct shard *shards;
static pthread_once_t shard_once = PTHREAD_ONCE_INIT;
static pthread_key_t shard_key;
static int shard_key_ok;
/* Set by the crash handler: from then on dumps fold shards without the lock. */
static volatile sig_atomic_t crashed;

/* Adds shard s into its unit and zeroes it; atomic, as the owner may still be counting. */
static void fold_shard(struct shard *s)
{
  unsigned long i, v;
  for (i = 0; i < s->u->ncounters; i++) {
    v = __atomic_exchange_n(&s->c[i], 0, __ATOMIC_RELAXED);
    if (v)
      __atomic_fetch_add(&s->u->counters[i], v, __ATOMIC_RELAXED);
  }
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

/* Key destructor at thread exit: the thread's shards go into their units and are freed. Code
   that counts after this (a later destructor) gets a fresh shard, and this runs again. */
static void thread_exit(void *chain)
{
  struct shard *s = chain, *t;
  while (s) {
    t = s->tnext;
    pthread_mutex_lock(&shard_mutex);
    fold_shard(s);
    unlink_shard(s);
    pthread_mutex_unlock(&shard_mutex);
    *s->slot = 0;
    free(s->c);
    free(s);
    s = t;
  }
}

/* Creates the key whose destructor folds a thread's shards. */
static void make_shard_key(void)
{
  shard_key_ok = pthread_key_create(&shard_key, thread_exit) == 0;
}

/* The calling thread's shard of u, made on its first count; *slot (the unit's thread-local
   pointer) gets it. Out of memory: u's own array, counted without the thread-safety. */
unsigned long long *__pathprof_shard(struct __pathprof_unit *u, unsigned long long **slot)
{
  struct shard *s;

  pthread_once(&shard_once, make_shard_key);
  s = calloc(1, sizeof *s);
  if (s)
    s->c = calloc(u->ncounters ? u->ncounters : 1, sizeof *s->c);
  if (!s || !s->c || !shard_key_ok) {
    free(s ? s->c : 0);
    free(s);
    return u->counters;
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
  *slot = s->c;
  return s->c;
}

/* Before a dump: every live shard's counts go into its unit. */
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

/* pathprof_reset: every live shard is zeroed. */
void __pathprof_backend_reset(void)
{
  struct shard *s;
  unsigned long i;
  pthread_mutex_lock(&shard_mutex);
  for (s = shards; s; s = s->next)
    for (i = 0; i < s->u->ncounters; i++)
      __atomic_store_n(&s->c[i], 0, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&shard_mutex);
}

/* In a forked child only the forking thread lives on: the other threads' shards are dropped
   (their counts are the parent's); the caller then zeroes the rest. */
static void drop_foreign_shards(void)
{
  struct shard **p = &shards, *s;
  while ((s = *p)) {
    if (pthread_equal(s->owner, pthread_self())) {
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
