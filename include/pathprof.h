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

/* ---- Freestanding back ends (doc/formats.md section 5, samples/firmware/README.md) ----
   A program on a bare-metal target links the core (rt/core.c) and rt/freestanding.c, plus the
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

/* rt/textdump.c: writes the profile as text lines ("PP1 ..." with a CRC-32 each; doc/formats.md
   section 5) through put, one frame per unit, so the dump can be mixed into a noisy log and
   recovered with `pathprof import LOG -o PROFILE`. label names the dump (a checkpoint, a test
   case; printable characters, at most 40, no spaces; 0 for none). Needs no buffer of the
   profile, only a few hundred bytes of stack. One dump at a time: not for several threads at
   once. Returns 0, or -1 if put failed. */
int pathprof_dump_text(pathprof_putchar_fn put, const char *label, unsigned flags);
int pathprof_dump_text_to(pathprof_putc_fn put, void *ctx, const char *label, unsigned flags);

/* rt/semihost.c (ARM M, A and R profiles, AArch64, RISC-V; needs a debugger or QEMU with
   -semihosting): writes the binary profile (doc/formats.md section 2) to the file path on the
   host, replacing it. Returns 0, or -1 if the host refused to open or write it. */
int pathprof_semihost_write(const char *path);

/* rt/semihost.c: ends the program under the debugger or QEMU with the given exit status. */
void pathprof_semihost_exit(int status);

#ifdef __cplusplus
}
#endif

#endif
