/* ends.c: the ends of a program or thread our exit handler does not see: _exit, _Exit and
   quick_exit as instrumented code calls them (pathcc renames the calls) write the profile first;
   a thread that ends inside its activations (pthread_exit, cancellation) leaves them as partial
   paths, found by a key destructor that also gives its stack of frames back. */
#define _GNU_SOURCE
#include "posix.h"
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t frames_key;
static int frames_key_ok;

/* Before the process ends without running exit handlers: the trace and the profile, with the
   activations still running as partial paths. */
static void before_end(void)
{
  __pathprof_trace_flush();
  if (__pathprof_first())
    pathprof_write_file(0);
}

void __pathprof__exit(int status)
{
  before_end();
  _exit(status);
}

void __pathprof__Exit(int status)
{
  before_end();
  _Exit(status);
}

void __pathprof_quick_exit(int status)
{
  before_end();
  quick_exit(status);
}

/* Memory for a chunk of a thread's stack of frames. */
void *__pathprof_frames_more(unsigned long bytes)
{
  return malloc(bytes);
}

/* Key destructor at thread exit: frames still on the thread's stack belong to activations that
   never finish (the thread called pthread_exit, or was cancelled, inside them). A destructor
   that runs instrumented code after this one grows a new stack, and this runs again. */
static void thread_gone(void *unused)
{
  (void)unused;
  __pathprof_partial_frames(1);
  __pathprof_partial_thread_gone(free);
}

static void make_key(void)
{
  frames_key_ok = pthread_key_create(&frames_key, thread_gone) == 0;
}

/* The thread has a stack of frames now: its destructor will run when the thread ends. */
void __pathprof_backend_frames_thread(void)
{
  pthread_once(&key_once, make_key);
  if (frames_key_ok)
    pthread_setspecific(frames_key, (void *)1);
}
