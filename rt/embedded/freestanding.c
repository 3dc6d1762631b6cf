/* freestanding.c: the back end for bare-metal programs: nothing to set up, nothing at exit.
   A freestanding program links rt/core/core.c, this file and the I/O back ends it calls
   (rt/core/textdump.c, rt/embedded/semihost.c); it gets its counts out by calling them at checkpoints. */
#include "core/core.h"

/* Called by the core at the first registration: a bare-metal program has no atexit to hook. */
void __pathprof_backend_init(void)
{
}

/* Nothing is kept outside the units here (no threads, no shards). */
void __pathprof_backend_sync(void)
{
}

/* See __pathprof_backend_sync. */
void __pathprof_backend_reset(void)
{
}

/* Zeroes u's nonzero counts (a volatile store: -nostdlib has no memset). */
void __pathprof_backend_zero(struct __pathprof_unit *u)
{
  unsigned long i;
  for (i = 0; i < u->ncounters; i++)
    if (u->counters[i])
      *(volatile unsigned long long *)&u->counters[i] = 0;
}

/* A new test name: the program has dumped the previous test's counts itself (and reset them). */
void __pathprof_backend_test(void)
{
}

/* Per-thread bases need threads: a unit built with them still links, and counts in its own
   array (a bare-metal program has one thread). */
unsigned long long *__pathprof_base(struct __pathprof_unit *u, unsigned long long **slot, char *spare)
{
  *spare = 0;
  *slot = u->counters;
  return u->counters;
}

/* A bare-metal program has no mapped file: a relocatable unit registers as any other. */
void __pathprof_register_relocatable(struct __pathprof_unit *u)
{
  __pathprof_register(u);
}

/* Tracing builds (pathcc --trace) are for the host's test oracle; on a target the events are
   dropped so such a build still links. */
void __pathprof_trace_block(struct __pathprof_unit *u, unsigned long fn, unsigned long block)
{
  (void)u;
  (void)fn;
  (void)block;
}

/* See __pathprof_trace_block. */
void __pathprof_trace_leave(struct __pathprof_unit *u, unsigned long fn)
{
  (void)u;
  (void)fn;
}

/* Online subpath profiling needs no setup here: the program configures it with
   pathprof_osp_configure (or keeps the defaults) and dumps with pathprof_osp_snapshot. */
void __pathprof_osp_backend_init(void)
{
}

/* A requested snapshot has nowhere to go on a bare target: the program dumps it itself. */
void __pathprof_osp_backend_request(void)
{
}

/* A bare-metal program's one thread keeps its frames in the core's static chunk; deeper frames
   than that are not kept. */
void *__pathprof_frames_more(unsigned long bytes)
{
  (void)bytes;
  return 0;
}

/* One thread, never gone: nothing to note. */
void __pathprof_backend_frames_thread(void)
{
}

/* A bare-metal program's k-slab forests live in rt/core/kpath.c's static pool only. */
void *__pathprof_kpath_more(unsigned long bytes)
{
  (void)bytes;
  return 0;
}

/* A bare-metal unit's hash table keeps its size: path ends it has no room for are dropped
   (counted and reported). */
void *__pathprof_hash_more(unsigned long bytes)
{
  (void)bytes;
  return 0;
}
