/* core.c: the freestanding runtime core: unit registry, array counters, profile dump, reset (the hash table: hash.c).
   Needs no library at all: no malloc, no stdio, no libgcc helpers (no 64-bit division, shift by a
   variable amount or, on 32-bit targets, 64-bit multiplication), no 64-bit atomics, no
   constructors. Builds warning-free with -ffreestanding -nostdlib for arm-none-eabi (Cortex-M0+,
   M3, M4) and riscv64-unknown-elf (rv64 and rv32). */
#include "core.h"

#define UNIT_TAG 0x54494E55UL  /* "UNIT" */
#define END_TAG 0x00444E45UL   /* "END\0" */
#define TEST_TAG 0x54534554UL  /* "TEST" */
#define FNV_BASIS 0xcbf29ce484222325ULL
#define SAT32 0xffffffffUL
/* Bytes handed to a write_fn at once: -DPATHPROF_CHUNK=N (1..256) trades stack for calls. */
#ifndef PATHPROF_CHUNK
#define PATHPROF_CHUNK 256
#endif
#if PATHPROF_CHUNK < 1 || PATHPROF_CHUNK > 256
#error "PATHPROF_CHUNK must be between 1 and 256"
#endif
#define CHUNK PATHPROF_CHUNK


/* The registry ends in this sentinel, so a registered unit's next is never 0. */
static struct __pathprof_unit sentinel;
/* The next of a unit whose registration a thread has claimed (or whose layout was refused): the
   sentinel too, which needs no second struct in RAM; such a unit is not reachable from head. */
#define CLAIMED (&sentinel)
/* Newest registered unit; units are pushed at the front. */
static struct __pathprof_unit *head = &sentinel;
/* Set once the back end has been initialised. */
static int backend_ready;
/* Modules with records of their own (rt/core/kpath.c), newest first. */
static struct __pathprof_records *sources;
/* rt/core/osp.c's snapshot, once it has configured itself. */
int (*__pathprof_osp_dump)(pathprof_write_fn fn, void *ctx);

/* The critical section of targets without the atomic instructions a step needs: interrupts
   masked on a single core. The user's own (-DPATHPROF_IRQ_SAVE()=expr
   -DPATHPROF_IRQ_RESTORE(s)=stmt: expr returns an unsigned long state that stmt restores; an
   RTOS's critical section, say) comes first; else PRIMASK on ARM M-profile, SREG's I bit on AVR,
   mstatus.MIE on RISC-V in machine mode; else nothing: such a target must not count from an
   interrupt handler while the main program counts. Targets whose atomics cover every use (RV64A)
   define the section without using it, hence __unused__. */
#if defined(PATHPROF_IRQ_SAVE) && defined(PATHPROF_IRQ_RESTORE)
#define IRQ_SAVE() (PATHPROF_IRQ_SAVE())
#define IRQ_RESTORE(s) PATHPROF_IRQ_RESTORE(s)
#elif defined(__GNUC__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
/* Masks interrupts (PRIMASK) and returns the previous mask. */
__attribute__((__unused__)) static unsigned long irq_save(void)
{
  unsigned long s;
  __asm__ __volatile__("mrs %0, primask\n\tcpsid i" : "=r"(s) : : "memory");
  return s;
}

/* Restores the mask irq_save returned. */
__attribute__((__unused__)) static void irq_restore(unsigned long s)
{
  __asm__ __volatile__("msr primask, %0" : : "r"(s) : "memory");
}
#define IRQ_SAVE() irq_save()
#define IRQ_RESTORE(s) irq_restore(s)
#elif defined(__GNUC__) && defined(__AVR__)
/* Clears the global interrupt flag and returns the previous status register. */
__attribute__((__unused__)) static unsigned long irq_save(void)
{
  unsigned char s;
  __asm__ __volatile__("in %0, __SREG__\n\tcli" : "=r"(s) : : "memory");
  return s;
}

/* Restores the status register irq_save returned (its I bit with it). */
__attribute__((__unused__)) static void irq_restore(unsigned long s)
{
  __asm__ __volatile__("out __SREG__, %0" : : "r"((unsigned char)s) : "memory");
}
#define IRQ_SAVE() irq_save()
#define IRQ_RESTORE(s) irq_restore(s)
#elif defined(__GNUC__) && defined(__riscv)
/* Clears mstatus.MIE (bit 3) and returns the previous mstatus. */
__attribute__((__unused__)) static unsigned long irq_save(void)
{
  unsigned long s;
  /* csrrci %0, mstatus, 8, spelled as its encoding: assemblers that know RV32I without Zicsr
     refuse the mnemonic (the uimm field 8 is written as register x8) */
  __asm__ __volatile__(".insn i 0x73, 7, %0, x8, 0x300" : "=r"(s) : : "memory");
  return s;
}

/* Sets mstatus.MIE again if it was set before irq_save. */
__attribute__((__unused__)) static void irq_restore(unsigned long s)
{
  if (s & 8UL)
    __asm__ __volatile__(".insn i 0x73, 6, x0, x8, 0x300" : : : "memory"); /* csrsi mstatus, 8 */
}
#define IRQ_SAVE() irq_save()
#define IRQ_RESTORE(s) irq_restore(s)
#else
#define IRQ_SAVE() 0UL
#define IRQ_RESTORE(s) ((void)(s))
#endif

/* The section for the other modules of the core (rt/core/kpath.c). */
unsigned long __pathprof_irq_save(void)
{
  return IRQ_SAVE();
}

void __pathprof_irq_restore(unsigned long s)
{
  IRQ_RESTORE(s);
}

/* How the registry's links are published, best first:
   - GNU atomics, where pointers and ints are lock-free (no libatomic call): hosts, Cortex-M3/M4,
     RISC-V with the A extension;
   - else the critical section above (IRQ_SAVE: the user's, PRIMASK, SREG, mstatus), or plain
     loads and stores where there is none: registrations must not race then (one thread, no
     instrumented interrupt handler whose unit registers while the main program registers
     another). */
#if defined(__GNUC__) && defined(__GCC_ATOMIC_POINTER_LOCK_FREE) && \
    __GCC_ATOMIC_POINTER_LOCK_FREE == 2 && __GCC_ATOMIC_INT_LOCK_FREE == 2
/* Reads a shared link so that the unit it points to is fully visible (acquire). */
static struct __pathprof_unit *load_link(struct __pathprof_unit **p)
{
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Publishes a link written before the unit becomes reachable (release). */
static void store_link(struct __pathprof_unit **p, struct __pathprof_unit *v)
{
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Replaces *p by v if it still holds *expect; on failure *expect gets the current value. */
static int swap_link(struct __pathprof_unit **p, struct __pathprof_unit **expect,
                     struct __pathprof_unit *v)
{
  return __atomic_compare_exchange_n(p, expect, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* Sets the back-end flag and says whether this caller was the first to set it. */
static int first_to_set(int *flag)
{
  return __atomic_exchange_n(flag, 1, __ATOMIC_ACQ_REL) == 0;
}

/* Pushes a record source onto *list, publishing its fields first (release). */
static void push_source(struct __pathprof_records **list, struct __pathprof_records *src)
{
  struct __pathprof_records *h = __atomic_load_n(list, __ATOMIC_ACQUIRE);
  do
    src->next = h;
  while (!__atomic_compare_exchange_n(list, &h, src, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
}
#else

/* Plain read of a link (aligned pointer loads are single accesses on every supported core). */
static struct __pathprof_unit *load_link(struct __pathprof_unit **p)
{
  return *p;
}

/* Plain store of a link. */
static void store_link(struct __pathprof_unit **p, struct __pathprof_unit *v)
{
  *p = v;
}

/* Compare-and-swap with the same contract as the GNU version, inside the critical section. */
static int swap_link(struct __pathprof_unit **p, struct __pathprof_unit **expect,
                     struct __pathprof_unit *v)
{
  unsigned long s = IRQ_SAVE();
  int ok = *p == *expect;
  if (ok)
    *p = v;
  else
    *expect = *p;
  IRQ_RESTORE(s);
  return ok;
}

/* Sets the flag and says whether it was clear before, inside the critical section. */
static int first_to_set(int *flag)
{
  unsigned long s = IRQ_SAVE();
  int was = *flag;
  *flag = 1;
  IRQ_RESTORE(s);
  return was == 0;
}

/* Pushes a record source onto *list inside the critical section. */
static void push_source(struct __pathprof_records **list, struct __pathprof_records *src)
{
  unsigned long s = IRQ_SAVE();
  src->next = *list;
  *list = src;
  IRQ_RESTORE(s);
}
#endif

/* The width view of a version-2 unit, or 0 for a version-1 unit. A version-2 unit registers
   the address of its first member, which converts back to the whole struct (C99 6.7.2.1p13). */
static const struct __pathprof_unit_width *width_view(const struct __pathprof_unit *u)
{
  return (u->version & PATHPROF_UNIT_LAYOUT) == PATHPROF_UNIT_VERSION_WIDTH ? (const struct __pathprof_unit_width *)u : 0;
}

/* Whether the core can read u's fields: a known layout version and counter width. */
static int layout_ok(const struct __pathprof_unit *u)
{
  const struct __pathprof_unit_width *w;
  if (u->version & ~(PATHPROF_UNIT_LAYOUT | PATHPROF_UNIT_GROWS))
    return 0; /* a flag this core does not know */
  if ((u->version & PATHPROF_UNIT_LAYOUT) == PATHPROF_UNIT_VERSION)
    return 1;
  w = width_view(u);
  return w && (w->counter_bits == 64 || w->counter_bits == 32);
}

/* Links u into the registry once, even when several threads race to register it.
   A unit with an unknown layout version is marked but never linked (its fields can't be read). */
void __pathprof_register(struct __pathprof_unit *u)
{
  struct __pathprof_unit *expect = 0, *h;

  if (!u || u == &sentinel)
    return;
  if (!swap_link(&u->next, &expect, CLAIMED))
    return; /* already registered, or another thread is doing it */
  if (!layout_ok(u))
    return;
  h = load_link(&head);
  do
    store_link(&u->next, h);
  while (!swap_link(&head, &h, u));
  if (first_to_set(&backend_ready))
    __pathprof_backend_init();
}

/* The newest registered unit, or 0 when nothing is registered. */
struct __pathprof_unit *__pathprof_first(void)
{
  struct __pathprof_unit *u = load_link(&head);
  return u == &sentinel ? 0 : u;
}

/* The unit after u in the registry, or 0 at the sentinel. */
struct __pathprof_unit *__pathprof_next(struct __pathprof_unit *u)
{
  struct __pathprof_unit *n = load_link(&u->next);
  return (n == &sentinel || n == 0) ? 0 : n;
}


/* Array counter i of u, whatever its width. */
unsigned long long __pathprof_counter_get(const struct __pathprof_unit *u, unsigned long i)
{
  const struct __pathprof_unit_width *w;

  if (!u || i >= u->ncounters)
    return 0;
  w = width_view(u);
  if (w && w->counter_bits == 32)
    return w->counters32 ? w->counters32[i] : 0;
  return u->counters ? u->counters[i] : 0;
}

/* Sets array counter i of u; a 32-bit counter saturates. Stores go through a volatile lvalue
   so that a zeroing loop is not turned into a call to memset, which -nostdlib lacks. */
void __pathprof_counter_set(struct __pathprof_unit *u, unsigned long i, unsigned long long v)
{
  const struct __pathprof_unit_width *w;

  if (!u || i >= u->ncounters)
    return;
  w = width_view(u);
  if (w && w->counter_bits == 32) {
    if (w->counters32)
      *(volatile unsigned int *)&w->counters32[i] = (unsigned int)(v > SAT32 ? SAT32 : v);
  } else if (u->counters) {
    *(volatile unsigned long long *)&u->counters[i] = v;
  }
}

/* Zeroes every counter, hash entry and dropped count of every registered unit. */
void pathprof_reset(void)
{
  __pathprof_backend_reset();
  __pathprof_reset_if(0);
}

/* Zeroes the units keep accepts (all when keep is 0). */
void __pathprof_reset_if(int (*keep)(const struct __pathprof_unit *))
{
  struct __pathprof_records *src;
  struct __pathprof_unit *u;
  volatile unsigned long long *e;
  unsigned long i;

  for (u = __pathprof_first(); u; u = __pathprof_next(u)) {
    if (keep && !keep(u))
      continue;
    if (u->counters) /* 64-bit */
      __pathprof_backend_zero(u);
    for (i = 0; !u->counters && i < u->ncounters; i++) /* 32-bit: only counters that count */
      if (__pathprof_counter_get(u, i))
        __pathprof_counter_set(u, i, 0);
    for (i = 0; (e = __pathprof_hash_entry(u, i)); i++) /* keys and ids stay: inline caches point at them */
      e[2] = 0;
    u->hash_dropped = 0;
  }
  for (src = keep ? 0 : sources; src; src = src->next) /* the forests: with every unit */
    src->reset();
  __pathprof_partials_reset(keep);
}

/* The dump's state (struct __pathprof_out, core.h): chunk buffer, running FNV-1a, sink. */
#define out __pathprof_out

/* Starts a dump into fn. */
static void out_init(struct __pathprof_out *o, pathprof_write_fn fn, void *ctx)
{
  o->fn = fn;
  o->ctx = ctx;
  o->fnv_lo = (unsigned long)(FNV_BASIS & SAT32);
  o->fnv_hi = (unsigned long)(FNV_BASIS >> 32);
  o->n = 0;
  o->failed = 0;
}

/* Hands the buffered bytes to the sink; after one failure the sink is not called again. */
static void flush(struct __pathprof_out *o)
{
  if (o->n && !o->failed && o->fn(o->ctx, o->buf, o->n) != 0)
    o->failed = 1;
  o->n = 0;
}

/* One FNV-1a 64 step, h = (h ^ b) * 0x100000001b3 (= 2^40 + 0x1b3), in 32-bit halves: no 64-bit
   multiply, which cores without a 32x32->64 multiply (Cortex-M0) would call a library for. */
static void fnv_step(struct __pathprof_out *o, unsigned char b)
{
  unsigned long lo = o->fnv_lo ^ b, p0, p1, t;

  p0 = (lo & 0xffffUL) * 0x1b3UL;          /* < 2^25 */
  p1 = ((lo >> 16) & 0xffffUL) * 0x1b3UL;  /* < 2^25 */
  t = (p0 >> 16) + p1;                     /* lo * 0x1b3 >> 16 */
  o->fnv_lo = ((t & 0xffffUL) << 16) | (p0 & 0xffffUL);
  o->fnv_hi = (o->fnv_hi * 0x1b3UL + (t >> 16) + (lo << 8)) & SAT32;
}

/* Appends one byte to the chunk and to the running checksum. */
static void put_byte(struct __pathprof_out *o, unsigned char b)
{
  fnv_step(o, b);
  o->buf[o->n++] = b;
  if (o->n == CHUNK)
    flush(o);
}

/* Appends a little-endian 32-bit integer, whatever the host byte order. */
static void put_u32(struct __pathprof_out *o, unsigned long v)
{
  int i;
  for (i = 0; i < 4; i++)
    put_byte(o, (unsigned char)((v >> (8 * i)) & 0xff));
}

/* Appends a little-endian 64-bit integer as two halves (constant shifts only). */
static void put_u64(struct __pathprof_out *o, unsigned long long v)
{
  put_u32(o, (unsigned long)(v & 0xffffffffUL));
  put_u32(o, (unsigned long)(v >> 32));
}

/* Adds a record source once; its write and reset join every dump and reset from now on. */
void __pathprof_add_records(struct __pathprof_records *src)
{
  struct __pathprof_records *p;

  for (p = sources; p; p = p->next)
    if (p == src)
      return;
  push_source(&sources, src);
}

/* Byte i of a unit's name. On AVR pathcc puts names in program memory (a Harvard machine copies
   const data to RAM otherwise), read with lpm; elsewhere it is an ordinary string. */
static unsigned char name_byte(const char *s, unsigned long i)
{
#if defined(__GNUC__) && defined(__AVR__)
  unsigned char b;
  __asm__("lpm %0, Z" : "=r"(b) : "z"(s + i));
  return b;
#else
  return (unsigned char)s[i];
#endif
}

/* Length of the unit's name (its tables path), capped to what a u32 can say. */
static unsigned long name_len(const char *s)
{
  unsigned long n = 0;
  while (s && name_byte(s, n) && n < 0xffffffffUL)
    n++;
  return n;
}

/* Number of used hash entries (key set, count > 0) the record will carry. */
static unsigned long long used_entries(const struct __pathprof_unit *u)
{
  unsigned long long n = 0, *e;
  unsigned long i;
  for (i = 0; (e = __pathprof_hash_entry(u, i)); i++)
    if (PATHPROF_ENTRY_USED(e))
      n++;
  return n;
}

/* Writes the used hash entries, exactly nhash of them: if the table changed since they were
   counted, missing ones are padded with zero-count entries, which readers ignore. */
static void put_hash(struct __pathprof_out *o, const struct __pathprof_unit *u, unsigned long long nhash)
{
  unsigned long i;
  unsigned long long *e;

  for (i = 0; nhash > 0 && !o->failed && (e = __pathprof_hash_entry(u, i)); i++) {
    if (!PATHPROF_ENTRY_USED(e))
      continue;
    put_u64(o, e[0] - 1);
    put_u64(o, e[1]);
    put_u64(o, e[2]);
    nhash--;
  }
  for (; nhash > 0 && !o->failed; nhash--) {
    put_u64(o, 0);
    put_u64(o, 0);
    put_u64(o, 0);
  }
}

/* Writes one unit record: fixed fields, padded name, array counters, nhash hash entries. */
static void put_unit(struct __pathprof_out *o, const struct __pathprof_unit *u, unsigned long long nhash)
{
  unsigned long len = name_len(u->tables), i;

  put_u32(o, UNIT_TAG);
  put_u32(o, len);
  put_u64(o, u->checksum);
  put_u64(o, u->ncounters);
  put_u64(o, nhash);
  put_u64(o, u->hash_dropped);
  for (i = 0; i < len; i++)
    put_byte(o, name_byte(u->tables, i));
  for (; i % 8; i++)
    put_byte(o, 0);
  for (i = 0; i < u->ncounters && !o->failed; i++)
    put_u64(o, __pathprof_counter_get(u, i));
  put_hash(o, u, nhash);
}

/* Size of u's record: 40 fixed bytes, the padded name, 8 per counter, 24 per hash entry; then
   the PART record of u's partial paths, if it has any (the first unit's carries the pool's
   dropped count). */
unsigned long __pathprof_record_size(const struct __pathprof_unit *u, unsigned long long *nhash)
{
  unsigned long len = name_len(u->tables);
  unsigned long long n = used_entries(u);

  if (nhash)
    *nhash = n;
  return 40 + (len + 7) / 8 * 8 + 8 * u->ncounters + 24 * (unsigned long)n +
         __pathprof_out_partials(0, 0, u, u == __pathprof_first());
}

/* Streams one unit record, and its PART record, through fn. */
int __pathprof_dump_record(const struct __pathprof_unit *u, unsigned long long nhash,
                           pathprof_write_fn fn, void *ctx)
{
  struct __pathprof_out o;

  if (!fn || !u)
    return -1;
  out_init(&o, fn, ctx);
  put_unit(&o, u, nhash);
  __pathprof_out_partials(&o, 0, u, u == __pathprof_first());
  flush(&o);
  return o.failed ? -1 : 0;
}

/* Starts a profile stream of the given format version: the header (doc/formats.md section 2). */
static void out_begin(struct __pathprof_out *o, pathprof_write_fn fn, void *ctx, unsigned long version)
{
  const char *magic = "PATHPROF";
  int i;

  out_init(o, fn, ctx);
  for (i = 0; i < 8; i++)
    put_byte(o, (unsigned char)magic[i]);
  put_u32(o, version);
  put_u32(o, 0);
}

/* Starts a profile stream: the header (doc/formats.md section 2). */
void __pathprof_out_begin(struct __pathprof_out *o, pathprof_write_fn fn, void *ctx)
{
  out_begin(o, fn, ctx, 1);
}

/* Appends a little-endian 32-bit integer to a profile stream. */
void __pathprof_out_u32(struct __pathprof_out *o, unsigned long v)
{
  put_u32(o, v);
}

/* Appends a little-endian 64-bit integer to a profile stream. */
void __pathprof_out_u64(struct __pathprof_out *o, unsigned long long v)
{
  put_u64(o, v);
}

/* Appends u's unit record with all its used hash entries. */
void __pathprof_out_unit(struct __pathprof_out *o, const struct __pathprof_unit *u)
{
  put_unit(o, u, used_entries(u));
}

/* Ends a profile stream: the trailer naming nunits unit records, then the last chunk.
   Returns 0, or -1 if the sink failed at any point. */
int __pathprof_out_end(struct __pathprof_out *o, unsigned long nunits)
{
  unsigned long lo, hi;

  put_u32(o, END_TAG);
  put_u32(o, nunits);
  lo = o->fnv_lo; /* the checksum covers every byte before it: read it before writing it */
  hi = o->fnv_hi;
  put_u32(o, lo);
  put_u32(o, hi);
  flush(o);
  return o->failed ? -1 : 0;
}

/* Writes every registered source's records (the k-slab forests); drain zeroes what they write. */
static void put_sources(struct __pathprof_out *o, int drain)
{
  struct __pathprof_records *src;

  for (src = sources; src && !o->failed; src = src->next)
    src->write(o, drain);
}

/* Whether any record source joined the dumps. */
int __pathprof_records_any(void)
{
  return sources != 0;
}

/* Streams a profile of the registered sources' records only (the POSIX back end's snapshot). */
int __pathprof_dump_extra(pathprof_write_fn fn, void *ctx, int drain)
{
  struct __pathprof_out o;

  if (!fn)
    return -1;
  __pathprof_out_begin(&o, fn, ctx);
  put_sources(&o, drain);
  return __pathprof_out_end(&o, 0);
}

/* Streams the profile of all registered units through fn in chunks of at most 256 bytes. */
int pathprof_dump(pathprof_write_fn fn, void *ctx)
{
  if (!fn)
    return -1;
  __pathprof_backend_sync();
  return __pathprof_dump_if(fn, ctx, 0);
}

/* ---- per-test counts (doc/formats.md section 2, TEST records) ---- */

#define TEST_NAME_MAX 255
static char test_name[TEST_NAME_MAX + 1];  /* empty: no test */

/* 1 to 255 printable ASCII characters. */
static int test_name_ok(const char *name)
{
  unsigned long n = 0;
  for (; name[n]; n++)
    if ((unsigned char)name[n] < 0x20 || (unsigned char)name[n] > 0x7e || n >= TEST_NAME_MAX)
      return 0;
  return n > 0;
}

/* Sets the name without the back end's hook (the POSIX back end, from $PATHPROF_TEST). */
int __pathprof_test_init(const char *name)
{
  unsigned long i;
  if (name && *name && !test_name_ok(name))
    return -1;
  for (i = 0; name && name[i]; i++)
    test_name[i] = name[i];
  test_name[i] = 0;
  return 0;
}

/* The counts made so far belong to the previous test: the back end deals with them first. */
int pathprof_set_test(const char *name)
{
  if (name && *name && !test_name_ok(name))
    return -1;
  __pathprof_backend_test();
  return __pathprof_test_init(name);
}

const char *__pathprof_test_name(void)
{
  return test_name[0] ? test_name : 0;
}

/* The TEST record filing the units keep accepts (nunits of them) under the current test. */
static void put_test(struct __pathprof_out *o, int (*keep)(const struct __pathprof_unit *), unsigned long nunits)
{
  struct __pathprof_unit *u;
  unsigned long len = name_len(test_name), i;

  put_u32(o, TEST_TAG);
  put_u32(o, len);
  put_u64(o, nunits);
  for (i = 0; i < len; i++)
    put_byte(o, (unsigned char)test_name[i]);
  for (; i % 8; i++)
    put_byte(o, 0);
  for (u = __pathprof_first(); u && !o->failed && nunits; u = __pathprof_next(u))
    if (!keep || keep(u)) {
      put_unit(o, u, used_entries(u));
      nunits--;
    }
}

/* The same for the units keep accepts (all when keep is 0), without the back end's sync. With a
   test name set the units go out twice: as the totals, and in the test's record (version 2). */
int __pathprof_dump_if(pathprof_write_fn fn, void *ctx, int (*keep)(const struct __pathprof_unit *))
{
  struct __pathprof_out o;
  struct __pathprof_unit *u;
  unsigned long nunits = 0;

  if (!fn)
    return -1;
  out_begin(&o, fn, ctx, test_name[0] ? 2 : 1);
  for (u = __pathprof_first(); u && !o.failed; u = __pathprof_next(u)) {
    if (keep && !keep(u))
      continue;
    put_unit(&o, u, used_entries(u));
    nunits++;
  }
  put_sources(&o, 0);
  if (test_name[0])
    put_test(&o, keep, nunits);
  __pathprof_out_partials(&o, keep, 0, 1); /* what never finished, and this thread's live frames */
  return __pathprof_out_end(&o, nunits);
}
