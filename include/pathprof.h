/* pathprof.h: the public runtime API a profiled program may call (dump, reset, write the file). */
#ifndef PATHPROF_H
#define PATHPROF_H

#ifdef __cplusplus
extern "C" {
#endif

/* A sink for profile bytes: called with consecutive pieces of at most 256 bytes.
   Returns 0 when the piece was taken, anything else to stop the dump. */
typedef int (*pathprof_write_fn)(void *ctx, const void *buf, unsigned long len);

/* Streams the whole profile of every registered unit (doc/formats.md section 2) through fn,
   in pieces of at most 256 bytes, without buffering the profile. Returns 0, or -1 if fn failed. */
int pathprof_dump(pathprof_write_fn fn, void *ctx);

/* Zeroes every counter, hash entry and dropped count of every registered unit. */
void pathprof_reset(void);

/* POSIX back end only: merges the counts gathered so far into the profile file at path now,
   with the same locked write-aside procedure as at exit. path 0 means $PATHPROF_FILE, or
   "pathprof.out" when that is unset ("%p" in $PATHPROF_FILE is the pid, "%%" a percent sign).
   The counts written are taken out of the in-memory counters, so the write at exit (or a later
   call) adds only what was counted afterwards and nothing is counted twice.
   Returns 0, or -1 after printing one line "pathprof: <file>: <problem>" on stderr. */
int pathprof_write_file(const char *path);

#ifdef __cplusplus
}
#endif

#endif
