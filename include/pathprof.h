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

/* Names the test that runs from now on (doc/formats.md section 2, TEST records): the profile
   keeps each test's counts apart as well as in the totals. name: 1 to 255 printable ASCII
   characters, or 0 (or "") for no test. The POSIX back end first writes the counts so far to
   the profile, under the previous name, and starts from $PATHPROF_TEST; a freestanding program
   dumps (then resets) before naming the next test. Not while other threads count: their counts
   of that moment may go to either test. Returns 0, or -1 for a bad name (nothing changes). */
int pathprof_set_test(const char *name);

/* POSIX back end only: merges the counts gathered so far into the profile file at path now,
   with the same locked write-aside procedure as at exit. path 0 means $PATHPROF_FILE, or
   "pathprof.out" when that is unset ("%p" in $PATHPROF_FILE is the pid, "%%" a percent sign).
   The counts written are taken out of the in-memory counters, so the write at exit (or a later
   call) adds only what was counted afterwards and nothing is counted twice.
   Returns 0, or -1 after printing one line "pathprof: <file>: <problem>" on stderr. */
int pathprof_write_file(const char *path);

/* ---- Freestanding back ends (doc/formats.md section 5, samples/firmware/README.md) ----
   A program on a bare-metal target links the core (rt/core/core.c, rt/core/partial.c) and rt/embedded/freestanding.c, plus the
   back ends it uses. Checkpoints: call a dump and then pathprof_reset() between test cases; each
   dump then carries only the counts since the previous one and `pathprof import` adds them up. */

/* A putchar-like sink: writes one character; a negative return stops the dump. */
typedef int (*pathprof_putchar_fn)(int c);
/* The same with a context pointer. */
typedef int (*pathprof_putc_fn)(void *ctx, int c);

/* Flags of the text dump: the encoding of data lines, and the line end. */
#define PATHPROF_TEXT_HEX 0u      /* 32 bytes a line as 64 hex digits (the default) */
#define PATHPROF_TEXT_BASE64 1u   /* 48 bytes a line as 64 base64 characters */
#define PATHPROF_TEXT_CRLF 2u     /* end lines with "\r\n" instead of "\n" */

/* rt/core/textdump.c: writes the profile as text lines ("PP1 ..." with a CRC-32 each; doc/formats.md
   section 5) through put, one frame per unit, then a frame of the k-slab forests in a kpath build
   and one of the OSP snapshot in an osp build, so the dump can be mixed into a noisy log and
   recovered with `pathprof import LOG -o PROFILE`. label names the dump (a checkpoint, a test
   case; printable characters, at most 40, no spaces; 0 for none). Needs no buffer of the
   profile, only a few hundred bytes of stack. One dump at a time: not for several threads at
   once. Returns 0, or -1 if put failed. */
int pathprof_dump_text(pathprof_putchar_fn put, const char *label, unsigned flags);
int pathprof_dump_text_to(pathprof_putc_fn put, void *ctx, const char *label, unsigned flags);

/* rt/embedded/semihost.c (ARM M, A and R profiles, AArch64, RISC-V; needs a debugger or QEMU with
   -semihosting): writes the binary profile (doc/formats.md section 2) to the file path on the
   host, replacing it, and in an osp build the OSP snapshot after it as a second stream. Returns
   0, or -1 if the host refused to open or write it. */
int pathprof_semihost_write(const char *path);

/* rt/embedded/semihost.c: ends the program under the debugger or QEMU with the given exit status. */
void pathprof_semihost_exit(int status);

/* ---- Online subpath profiling (pathcc --mode=osp; rt/core/osp.c; doc/formats.md section 2, OSPH) ----
   An osp build samples subpaths (runs of 2, 4, ... 2^max_log consecutive block entries, across
   calls and returns) and keeps them as a hot list of (subpath, count) pairs in a fixed memory
   bound, raising the sampling period whenever the list is full (Gibbons-Matias concise samples).
   `pathprof hot-subpaths SNAPSHOT` reports the hottest with estimated counts and error bounds. */

/* Distributions of subpath lengths. */
#define PATHPROF_OSP_GEOMETRIC 0u /* P(2^n) = 2^-n; the longest length also takes the rest */
#define PATHPROF_OSP_UNIFORM 1u   /* every length 2^1..2^max_log alike */
#define PATHPROF_OSP_LONG 2u      /* geometric mirrored: the longest most likely */

/* Sampling parameters; 0 in a field means its default. */
struct pathprof_osp_config {
  unsigned long memory;    /* bytes the hot list may use, at least 1024 and at most the build's
                              PATHPROF_OSP_MEMORY (default 32768) */
  unsigned long rate;      /* mean distance in block entries between sample starts, below 2^24
                              (default 128); it doubles at each resampling */
  unsigned long long seed; /* the generator's seed (default a fixed constant) */
  unsigned lengths;        /* PATHPROF_OSP_GEOMETRIC (default), _UNIFORM or _LONG */
  unsigned max_log;        /* longest subpath 2^max_log blocks, at most PATHPROF_OSP_MAXLOG (5) */
};

/* Empties the hot list and sets its parameters (c == 0: all defaults). The POSIX back end calls
   it once from the environment (doc/modes.md: PATHPROF_OSP_*). Returns 0, or -1 for a value out of
   range (nothing changes). */
int pathprof_osp_configure(const struct pathprof_osp_config *c);

/* Streams a snapshot of the hot list (a profile with an OSPH record) through fn in pieces of at
   most 256 bytes; may be called at any time from any thread, but not from a signal handler (the
   list is locked while fn runs). Returns 0, or -1 if fn failed. */
int pathprof_osp_snapshot(pathprof_write_fn fn, void *ctx);

/* Async-signal-safe: asks for a snapshot to be written at this thread's next block entry (the
   POSIX back end writes it to the snapshot file; SIGUSR1 calls this). */
void pathprof_osp_request(void);

/* POSIX back end only: writes a snapshot to path now, replacing the file (0: $PATHPROF_OSP_FILE,
   else "pathprof.osp"; "%p" is the pid). Returns 0, or -1 after one line on stderr. */
int pathprof_osp_write_file(const char *path);

/* The hot list's figures. */
struct pathprof_osp_stats {
  unsigned long long rate;      /* current mean gap between sample starts */
  unsigned long long samples;   /* samples counted into the list */
  unsigned long long started;   /* samples started */
  unsigned long long dropped;   /* samples lost (overlaps beyond the per-thread limit, ids out
                                   of range, rate at its maximum) */
  unsigned long long resamples; /* times the rate was doubled */
  unsigned long memory;         /* the bound M in bytes */
  unsigned long used, peak;     /* bytes in use now, at most ever; never above capacity */
  unsigned long capacity;       /* bytes the list's layout reserves, at most M */
  unsigned long entries;        /* distinct subpaths in the list */
};
void pathprof_osp_stats(struct pathprof_osp_stats *s);

#ifdef __cplusplus
}
#endif

#endif
