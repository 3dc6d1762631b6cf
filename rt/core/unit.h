/* The unit descriptor: the one contract between instrumented C and the runtime (doc/formats.md). */
#ifndef PATHPROF_UNIT_H
#define PATHPROF_UNIT_H
/* __PATHPROF_EXT marks declarations that use long long: the rewriter writes __extension__ there
   for GNU-compatible compilers, so -std=c89 -pedantic stays quiet. */
#ifdef __GNUC__
#define __PATHPROF_EXT __extension__
#else
#define __PATHPROF_EXT
#endif
/* __PATHPROF_COLD marks an entry point calls to which are rare (GNU compilers then keep its
   calls out of hot loops' registers); the rewriter writes the attribute for them, else nothing. */
#ifdef __GNUC__
#define __PATHPROF_COLD __attribute__((__cold__))
#define __PATHPROF_NORETURN __attribute__((__noreturn__))
#else
#define __PATHPROF_COLD
#define __PATHPROF_NORETURN
#endif
/* pathprof:prelude-begin */
__PATHPROF_EXT struct __pathprof_unit {
  struct __pathprof_unit *next;
  unsigned long version;
  unsigned long long checksum;
  const char *tables;
  unsigned long ncounters;
  unsigned long long *counters;
  unsigned long hash_cap;
  unsigned long long *hash;
  unsigned long long hash_dropped;
};
/* Layout version 2 (pathcc --counter-bits=32): the instrumented code registers &base; with
   counter_bits 32 the counters are counters32 (saturating, base.counters is 0). */
struct __pathprof_unit_width {
  struct __pathprof_unit base;
  unsigned long counter_bits;
  unsigned int *counters32;
};
void __pathprof_register(struct __pathprof_unit *);
void __pathprof_register_relocatable(struct __pathprof_unit *);
__PATHPROF_EXT void __pathprof_hash_add(struct __pathprof_unit *, unsigned long, unsigned long long);
void __pathprof_trace_block(struct __pathprof_unit *, unsigned long, unsigned long);
void __pathprof_trace_leave(struct __pathprof_unit *, unsigned long);
__PATHPROF_EXT void __pathprof_hash_add_atomic(struct __pathprof_unit *, unsigned long, unsigned long long);
__PATHPROF_EXT void __pathprof_hash_miss(struct __pathprof_unit *, unsigned long, unsigned long long, unsigned long long **);
__PATHPROF_EXT void __pathprof_hash_miss_atomic(struct __pathprof_unit *, unsigned long, unsigned long long, unsigned long long **);
__PATHPROF_EXT unsigned long long *__pathprof_base(struct __pathprof_unit *, unsigned long long **, char *);
int __pathprof_execv(const char *, char *const *);
int __pathprof_execve(const char *, char *const *, char *const *);
int __pathprof_execvp(const char *, char *const *);
int __pathprof_execvpe(const char *, char *const *, char *const *);
int __pathprof_execl(const char *, const char *, ...);
int __pathprof_execle(const char *, const char *, ...);
int __pathprof_execlp(const char *, const char *, ...);
int __pathprof_fexecve(int, char *const *, char *const *);
void __pathprof_osp_block(struct __pathprof_unit *, unsigned long, unsigned long);
struct __pathprof_kfn {
  struct __pathprof_unit *unit;
  unsigned long fn;
  unsigned long km1;
  void **cache;
};
struct __pathprof_ka {
  const struct __pathprof_kfn *f;
  unsigned long pos;
  void *fun;
  void *top;
  void *bottom;
};
__PATHPROF_EXT void __pathprof_kpath_id(struct __pathprof_ka *, unsigned long long);
__PATHPROF_EXT __PATHPROF_COLD void __pathprof_residual(struct __pathprof_unit *, unsigned long, unsigned long long);
__PATHPROF_EXT struct __pathprof_frame {
  struct __pathprof_unit *unit;
  unsigned long fs;
  unsigned long long r;
};
struct __pathprof_frame *__pathprof_grow(struct __pathprof_frame *);
void __pathprof_sjmark(struct __pathprof_frame *);
int __pathprof_sjret(struct __pathprof_frame *, volatile void *, int, int);
__PATHPROF_NORETURN void __pathprof__exit(int);
__PATHPROF_NORETURN void __pathprof__Exit(int);
__PATHPROF_NORETURN void __pathprof_quick_exit(int);
struct sigaction;
int __pathprof_sigaction(int, const struct sigaction *, struct sigaction *);
void (*__pathprof_signal(int, void (*)(int)))(int);
void (*__pathprof_sysv_signal(int, void (*)(int)))(int);
/* pathprof:prelude-end */
#define PATHPROF_UNIT_VERSION 1
#define PATHPROF_UNIT_VERSION_WIDTH 2
/* The version's low byte is the layout (1 or 2); above it, flags: PATHPROF_UNIT_GROWS, the
   unit's hash table may grow when full (hosted targets, --hash-cap not given: rt/core/core.h). */
#define PATHPROF_UNIT_LAYOUT 0xffUL
#define PATHPROF_UNIT_GROWS 0x100UL
/* struct __pathprof_frame: a frame whose fs is PATHPROF_FRAME_END is no frame but the end of a
   thread's stack of frames: pushing onto it calls __pathprof_grow. */
#define PATHPROF_FRAME_END (~0UL)
/* struct __pathprof_frame: fs holds the function's index above PATHPROF_SITE_BITS bits of call
   site (0: the activation has made no call yet; 0x7fff: a site past the field). A partial path
   whose site has PATHPROF_SITE_BEFORE set ends before the site's block (a __builtin_setjmp's
   path taken back: gcov counts its receiver's second entry). */
#define PATHPROF_SITE_BITS 16
#define PATHPROF_SITE_MASK 0xffffUL
#define PATHPROF_SITE_BEFORE 0x8000UL
#endif
