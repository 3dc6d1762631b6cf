/* posix.h: what the pieces of the POSIX back end share. posix.c (the exit write) uses the others;
   crash.c uses shards.c, continuous.c and trace.c; none of them calls back into posix.c but for the
   pattern expansion in __pathprof_env_path and __pathprof_replace (osp_posix.c). */
#ifndef PATHPROF_POSIX_H
#define PATHPROF_POSIX_H
#include <stddef.h>
#include "core/core.h"

/* Whether continuous mode is on ("%c" in $PATHPROF_FILE): counters live in the mapped profile
   file, so there is nothing to write at exit, exec or crash for the mapped units. */
int __pathprof_continuous(void);

/* continuous.c: opens (creating) the continuous profile at path; maps a relocatable unit's
   counters into it; whether a unit is mapped (async-signal-safe); adds an unmapped unit's
   snapshot into its region; at exit, the mapped units' dropped counts; after fork, the move
   to the child's own file when path differs. */
int __pathprof_cont_open(const char *path, char *err, size_t errlen);
int __pathprof_cont_map(struct __pathprof_unit *u);
int __pathprof_cont_mapped(const struct __pathprof_unit *u);
void __pathprof_cont_exit(void);
void __pathprof_cont_fork(const char *path);
/* Adds the units of p in place into the continuous file fd at path, whose lock the caller holds
   (its counters may be mapped by continuous processes), all or nothing. 0, or -1 with err set
   and no count added (what the caller then saves aside is counted once). */
int __pathprof_cont_add_file(int fd, const char *path, const struct pp_profile *p, char *err, size_t errlen);
/* The continuous profile's path ("" when off). */
const char *__pathprof_cont_path(void);

/* snapshot.c: one write's counts: each unit's nonzero counters as (index, count) pairs, its
   partial paths (the pool's and this thread's frames', which a save takes back: the live ones
   count again when they end) and its hash entries (sorted, with the slot each came from), the sparse view of them sorted by
   checksum (unique: no checksum twice), and the k-slab forests (their counts taken out of
   memory as they are copied). */
#include "profile/profile.h"
struct __pathprof_snap {
  struct __pathprof_unit *u;
  unsigned long long nset, *idx, *val, nhash, dropped;
  struct pp_hent *hash;
  unsigned long *slot;
  unsigned long long npart;     /* the unit's partial paths: the pool's and this thread's frames' */
  struct pp_part *part;
  long long *taken;             /* per partial path, the count a save takes back */
  unsigned long *fs;            /* and the frame field it came from */
};
struct __pathprof_snapshot {
  size_t n;
  struct __pathprof_snap *s;
  struct pp_sparse *units;
  int unique;
  struct pp_profile forests;
  unsigned long long part_dropped;
  int failed;
};
int __pathprof_snapshot_take(struct __pathprof_snapshot *ss, int (*keep)(const struct __pathprof_unit *));
int __pathprof_snapshot_profile(const struct __pathprof_snapshot *ss, struct pp_profile *p, char *err, size_t errlen);
void __pathprof_snapshot_subtract(const struct __pathprof_snapshot *ss);
void __pathprof_snapshot_free(struct __pathprof_snapshot *ss);
/* Calls fn(ctx, i, end) for each run c[i..end) of the n 64-bit words at c that lie on pages the
   process ever wrote (Linux's /proc/self/pagemap; elsewhere, or for less than 64 KiB, one run of
   all n): a big function's shard, mapped lazily, is read only where its thread counted. */
void __pathprof_written_runs(unsigned long long *c, unsigned long n,
                             void (*fn)(void *ctx, unsigned long i, unsigned long end), void *ctx);

/* filemerge.c: opens path (never through a link; created when missing) and locks it, retrying
   while writers rename new files over it: the locked fd (*st, when st is not 0, its status as
   the lock found it), or -1 with err set. Merges p into the profile file at path under that
   lock (appended, rewritten, or added in place into a continuous file), synced with sync: 0,
   or -1 with err set and the file as it was. */
#include <sys/stat.h>
int __pathprof_open_locked(const char *path, struct stat *st, char *err, size_t errlen);
int __pathprof_merge_file(const char *path, const struct __pathprof_snapshot *ss, int sync, char *err, size_t errlen);

/* shards.c: folds the per-thread shards into the units without taking the shard lock (the
   crash path: the process is going down, a thread holding the lock will not let go); the fork
   handlers' halves (postfork: child is 1 in the child). */
void __pathprof_crash_sync(void);
void __pathprof_shards_prefork(void);
void __pathprof_shards_postfork(int child);

/* trace.c: flushes the trace log at exit (reporting a failed write), before exec and before
   fork (holding it across the fork); the crash handler's flush uses write(2) only. */
void __pathprof_trace_flush(void);
void __pathprof_trace_prefork(void);
void __pathprof_trace_postfork(void);
void __pathprof_trace_crash(void);

/* crash.c: installs the fatal and terminating signals' handlers (at the first registration)
   for the profile path; __pathprof_crash_names prepares the names again (after fork);
   write_begin/end bracket a profile write (the handled signals held off in its thread, other
   threads' handlers waiting for it). */
#include <signal.h>
void __pathprof_write_begin(sigset_t *old);
void __pathprof_write_end(const sigset_t *old);
void __pathprof_crash_init(const char *path);
void __pathprof_crash_names(const char *path);
/* crash.c: a pathprof_write_fn writing to the fd *(int *)ctx with write(2) only
   (async-signal-safe); makes an empty file at name when there is none, never through a link
   (async-signal-safe); the name of the mark that crash dumps lie beside the profile at path,
   "<dir>/.<name>.crashed", into buf of len bytes ("" when it does not fit). */
int __pathprof_write_fd(void *ctx, const void *buf, unsigned long len);
void __pathprof_touch(const char *name);
void __pathprof_mark_name(const char *path, char *buf, size_t len);

/* linkdir.c: the directory the program was linked into, from the note pathcc's link adds, or 0. */
const char *__pathprof_link_dir(void);

#endif
