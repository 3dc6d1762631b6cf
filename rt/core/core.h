/* core.h: what the freestanding runtime core offers its I/O back ends (not for user programs). */
#ifndef PATHPROF_CORE_H
#define PATHPROF_CORE_H
#include "unit.h"
#include "pathprof.h"

/* Thread-local where threads exist (hosted Unix builds), plain statics elsewhere; pathcc
   declares __pathprof_sp the same way in every unit (__thread for the host, plain for other
   targets); -DPATHPROF_FRAME_TLS=0|1 overrides (0: libpathprof-notls.a, for compilers whose
   linker refuses TLS relocations). The runtime's thread-locals take the model the
   compiler picks, never initial-exec: a copy of the runtime linked into a shared object would
   take static TLS, of which glibc keeps room for a few dlopen'ed objects only. In an
   executable the linker turns the accesses into initial- or local-exec ones (the hosted build
   uses TLS descriptors where the compiler has them: Makefile's RT_TLS). */
#ifndef PATHPROF_FRAME_TLS
#if defined(__GNUC__) && (defined(__unix__) || defined(__APPLE__)) && __STDC_HOSTED__
#define PATHPROF_FRAME_TLS 1
#else
#define PATHPROF_FRAME_TLS 0
#endif
#endif

/* On a buffer a run may never touch (a mode's pool, the trace, crash and continuous buffers):
   x86-64 ELF linkers put .lbss after every .bss, so the small state every run touches shares a
   page or two instead of sitting on the page beside each buffer (a fault each, ~1 us, in a
   program that may run for 1 ms). GCC makes the section NOBITS; elsewhere, plain .bss. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(__clang__) && defined(__unix__) && \
    defined(__STDC_HOSTED__) && __STDC_HOSTED__
#define PATHPROF_BIG __attribute__((__section__(".lbss")))
#else
#define PATHPROF_BIG
#endif

/* Defined by every back end; the core calls it once, at the first registration of any unit.
   Freestanding builds link rt/embedded/freestanding.c, whose version does nothing. */
void __pathprof_backend_init(void);

/* Defined by every back end: folds counts kept outside the units (per-thread shards) into
   them before a dump, and zeroes them on pathprof_reset. Freestanding: nothing to do. */
void __pathprof_backend_sync(void);
void __pathprof_backend_reset(void);

/* Defined by every back end: zeroes u's 64-bit array counters, a zero only read (its page may
   never have been written). POSIX drops a big array's pages instead (they read as zeros again)
   and passes over pages the process never wrote: a fork's child, which starts from zero,
   otherwise copies every page its parent counted in (0.15 s a fork for 32 MiB).
   Freestanding: each counter read. */
void __pathprof_backend_zero(struct __pathprof_unit *u);

/* Defined by every back end: pathprof_set_test calls it before the test name changes, since
   the counts made so far belong to the previous test (POSIX: writes them to the profile;
   freestanding: nothing, the program dumps between tests). */
void __pathprof_backend_test(void);

/* The current test's name (pathprof_set_test, or $PATHPROF_TEST in the POSIX back end), or 0;
   dumps file their units under it too (a TEST record). __pathprof_test_init sets it without
   the back end's hook; 0 or -1 for a bad name. */
const char *__pathprof_test_name(void);
int __pathprof_test_init(const char *name);

/* pathprof_dump and pathprof_reset for the units keep accepts (all when keep is 0); the dump
   leaves out __pathprof_backend_sync (so a signal handler may call it). */
int __pathprof_dump_if(pathprof_write_fn fn, void *ctx, int (*keep)(const struct __pathprof_unit *));
void __pathprof_reset_if(int (*keep)(const struct __pathprof_unit *));

/* A hash slot whose key is being written by __pathprof_hash_add_atomic: not yet an entry. */
#define PATHPROF_KEY_BUSY (~0ULL)

/* Whether hash slot e (key, id, count) holds a complete entry with a count. */
#define PATHPROF_ENTRY_USED(e) ((e)[0] != 0 && (e)[0] != PATHPROF_KEY_BUSY && (e)[2] != 0)

/* ---- Hash tables that grow (hosted targets; rt/core/hash.c) ----
   A unit whose version has PATHPROF_UNIT_GROWS (unit.h; pathcc sets it on hosted targets unless
   --hash-cap was given) gets extra tables when its hash table has no room for a path end, each
   twice the entries it has so far, up to PATHPROF_HASH_GROW_MAX entries in all (24 bytes each:
   2^24 entries, 384 MiB of virtual memory per unit, on 64-bit hosts); past that, or when the
   back end has no memory, the end is dropped and counted in hash_dropped. */
#ifndef PATHPROF_HASH_GROW_MAX
#if defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ >= 8
#define PATHPROF_HASH_GROW_MAX (1UL << 24)
#else
#define PATHPROF_HASH_GROW_MAX (1UL << 20)
#endif
#endif
/* The tables a unit can have, its own and the extra ones: each extra table at least doubles
   the entries (from at least one), so at most log2(PATHPROF_HASH_GROW_MAX) + 2 of them. */
#define PATHPROF_HASH_TABLES 34

/* Defined by every back end: `bytes` of zeroed memory, aligned for any object, for an extra
   hash table (POSIX: an anonymous mapping, never freed; freestanding: none, 0). */
void *__pathprof_hash_more(unsigned long bytes);

/* Hash slots of u (its table's, then its extra tables'), and the entry {fn + 1, id, count} at
   slot i of them (0 past the end). */
unsigned long __pathprof_hash_slots(const struct __pathprof_unit *u);
unsigned long long *__pathprof_hash_entry(const struct __pathprof_unit *u, unsigned long i);
/* Calls fn(ctx, entries, n, first slot) for u's table and then each of its extra tables. */
void __pathprof_hash_runs(const struct __pathprof_unit *u, void (*fn)(void *, unsigned long long *, unsigned long,
                                                                         unsigned long), void *ctx);

/* The first registered unit, or 0 if none. Units registered later come first. */
struct __pathprof_unit *__pathprof_first(void);

/* The unit registered before u, or 0 at the end of the registry. */
struct __pathprof_unit *__pathprof_next(struct __pathprof_unit *u);

/* ---- Counter width (doc/formats.md section 1, "Counter width"): struct __pathprof_unit_width
   is in unit.h. ---- */

/* Array counter i of u, whatever its width (0 when i is out of range or u has no counters). */
unsigned long long __pathprof_counter_get(const struct __pathprof_unit *u, unsigned long i);

/* Sets array counter i of u (a 32-bit counter saturates at 2^32-1); out of range: no effect. */
void __pathprof_counter_set(struct __pathprof_unit *u, unsigned long i, unsigned long long v);

/* ---- Record streaming, for back ends that frame each unit separately (rt/core/textdump.c) ---- */

/* Size in bytes of u's unit record (doc/formats.md section 2); *nhash gets the number of hash
   entries the record will carry, to pass to __pathprof_dump_record. */
unsigned long __pathprof_record_size(const struct __pathprof_unit *u, unsigned long long *nhash);

/* Streams u's unit record, with exactly nhash hash entries, through fn in chunks of at most
   PATHPROF_CHUNK bytes (256 unless the core was built with another -DPATHPROF_CHUNK=N).
   Returns 0, or -1 if fn failed. */
int __pathprof_dump_record(const struct __pathprof_unit *u, unsigned long long nhash,
                           pathprof_write_fn fn, void *ctx);

/* ---- Online subpath profiling (rt/core/osp.c) ----
   Defined by every back end: the first sampled block entry calls init once (POSIX: read
   PATHPROF_OSP_*, write the snapshot at exit, on SIGUSR1 and every N seconds); request is called
   at a block entry after pathprof_osp_request() (POSIX: write the snapshot file). */
void __pathprof_osp_backend_init(void);
void __pathprof_osp_backend_request(void);

/* POSIX back end (rt/posix/posix.c): the file named by environment variable var, "%p" the pid and "%%"
   a percent sign, or dflt when var is unset or empty; malloc'ed, 0 when out of memory. */
char *__pathprof_env_path(const char *var, const char *dflt);
/* POSIX back end: the PATHPROF_* setting name, or 0 when unset or when the program runs
   privileged (AT_SECURE: setuid, setgid, capabilities), which ignores them all. */
const char *__pathprof_getenv(const char *name);
/* POSIX back end: writes profile p to path, replacing it (straight through for a device or
   pipe, else aside and renamed). Returns 0, or -1 with err saying why. */
struct pp_profile;
int __pathprof_replace(const char *path, const struct pp_profile *p, char *err, unsigned long errlen);

/* ---- Profile streams, for back ends that write records of their own (rt/core/osp.c) ----
   A stream is the header, records, and the trailer with the FNV-1a of every byte before it. */
#ifndef PATHPROF_CHUNK
#define PATHPROF_CHUNK 256
#endif
struct __pathprof_out {
  pathprof_write_fn fn;
  void *ctx;
  unsigned long fnv_lo, fnv_hi; /* the running FNV-1a 64 as two 32-bit halves */
  unsigned long n;
  int failed;
  unsigned char buf[PATHPROF_CHUNK];
};
void __pathprof_out_begin(struct __pathprof_out *o, pathprof_write_fn fn, void *ctx);
void __pathprof_out_u32(struct __pathprof_out *o, unsigned long v);
void __pathprof_out_u64(struct __pathprof_out *o, unsigned long long v);
void __pathprof_out_unit(struct __pathprof_out *o, const struct __pathprof_unit *u);
int __pathprof_out_end(struct __pathprof_out *o, unsigned long nunits);

/* ---- Extra records (doc/formats.md section 2): the k-slab forests of rt/core/kpath.c ----
   A module with records of its own registers a source at its first use, so the core calls into
   it without linking it into programs that never use it. */
struct __pathprof_records {
  struct __pathprof_records *next;
  /* Writes the source's records; with drain set, each count is zeroed once written (the POSIX
     back end's writes take the counts they save out of memory). Returns the records written. */
  unsigned long (*write)(struct __pathprof_out *o, int drain);
  /* Zeroes the source's counts (pathprof_reset). */
  void (*reset)(void);
};

/* Adds a record source once (later calls with the same source do nothing). */
void __pathprof_add_records(struct __pathprof_records *src);

/* The critical section of rt/core/core.c (interrupts masked on a single-core bare-metal target,
   or the user's PATHPROF_IRQ_SAVE/PATHPROF_IRQ_RESTORE; nothing on a host): the state to restore. */
unsigned long __pathprof_irq_save(void);
void __pathprof_irq_restore(unsigned long s);

/* rt/core/kpath.c: __pathprof_kpath_id inside that section where the forests are shared
   (pathcc --mode=kpath --update=atomic). */
void __pathprof_kpath_id_atomic(struct __pathprof_ka *a, unsigned long long r);

/* Whether a record source (k-slab forests, subpath samples) is registered. */
int __pathprof_records_any(void);

/* Streams a profile holding only the registered sources' records (no unit records), draining
   their counts when drain is set; returns 0, or -1 if fn failed. */
int __pathprof_dump_extra(pathprof_write_fn fn, void *ctx, int drain);

/* The OSP snapshot (pathprof_osp_snapshot of rt/core/osp.c) once an osp build has sampled, else
   0: the text dump then writes the snapshot as a frame of its own, without linking osp.c into
   programs that have no osp unit. */
extern int (*__pathprof_osp_dump)(pathprof_write_fn fn, void *ctx);

/* ---- Activations that never finish (rt/core/partial.c) ---- */

/* Defined by every back end: memory for a chunk of a thread's stack of frames (POSIX: malloc;
   freestanding: none, the core's one static chunk serves the one thread), and the note that
   this thread has one (POSIX: a key whose destructor, at thread exit, keeps the frames still on
   the stack as partial paths and gives the chunks back through __pathprof_partial_thread_gone). */
void *__pathprof_frames_more(unsigned long bytes);
void __pathprof_backend_frames_thread(void);
void __pathprof_partial_thread_gone(void (*release)(void *));

/* Adds a partial path to the pool (n < 0 takes a prefix back); this thread's frames, n times. */
void __pathprof_partial_add(struct __pathprof_unit *u, unsigned long fs, unsigned long long r, long long n);
void __pathprof_partial_frames(long long n);
/* Calls fn for every pool entry and every frame of this thread (count 1); returns the pool's
   dropped count. A write takes what it saved back out with __pathprof_partial_add(..., -n). */
unsigned long long __pathprof_partials_each(void (*fn)(void *, struct __pathprof_unit *, unsigned long,
                                                         unsigned long long, long long), void *ctx);
void __pathprof_partials_take_dropped(unsigned long long n);
/* pathprof_reset's part: the pool's entries of the units keep accepts go, and the prefixes of
   this thread's live frames are taken back (they count again when the activations end). */
void __pathprof_partials_reset(int (*keep)(const struct __pathprof_unit *));
/* Writes the PART record (o == 0: only sizes it) of the units keep accepts, or of unit only,
   when it has entries (or, with_dropped, a dropped count); returns its size in bytes. */
unsigned long __pathprof_out_partials(struct __pathprof_out *o, int (*keep)(const struct __pathprof_unit *),
                                      const struct __pathprof_unit *only, int with_dropped);

/* Memory for the k-slab forests: a back end returns `bytes` bytes aligned for any object, or 0
   when it has none (rt/embedded/freestanding.c: forests live in kpath.c's static pool only). */
void *__pathprof_kpath_more(unsigned long bytes);

#endif
