/* core.c: the freestanding runtime core: unit registry, bounded hash counters, profile dump, reset.
   Needs no library at all: no malloc, no stdio, no libgcc helpers (no 64-bit division, shift by a
   variable amount or, on 32-bit targets, 64-bit multiplication), no 64-bit atomics, no
   constructors. Builds warning-free with -ffreestanding -nostdlib for arm-none-eabi (Cortex-M0+,
   M3, M4) and riscv64-unknown-elf (rv64 and rv32). */
#include "core.h"

#define UNIT_TAG 0x54494E55UL  /* "UNIT" */
#define END_TAG 0x00444E45UL   /* "END\0" */
#define TEST_TAG 0x54534554UL  /* "TEST" */
#define FNV_BASIS 0xcbf29ce484222325ULL
#define MAX_PROBES 64
#define SAT32 0xffffffffUL
/* Bytes handed to a write_fn at once: -DPATHPROF_CHUNK=N (1..256) trades stack for calls. */
#ifndef PATHPROF_CHUNK
#define PATHPROF_CHUNK 256
#endif
#if PATHPROF_CHUNK < 1 || PATHPROF_CHUNK > 256
#error "PATHPROF_CHUNK must be between 1 and 256"
#endif
#define CHUNK PATHPROF_CHUNK

/* Targets with 32-bit longs get a 32-bit hash mix (no 64-bit multiply, which Cortex-M0 lacks). */
#if defined(PATHPROF_SLOT32) || (defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ < 8)
#define SLOT32 1
#endif
/* Targets without a divide instruction reduce the hash with shifts instead of %. */
#if defined(PATHPROF_SOFT_DIV) || (defined(__arm__) && !defined(__ARM_FEATURE_IDIV)) || \
    (defined(__riscv) && !defined(__riscv_div))
#define SOFT_DIV 1
#endif

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

#ifndef SLOT32
/* Mixes (fn, id) into 64 well-spread bits (splitmix64 finaliser) to pick a first probe. */
static unsigned long long mix(unsigned long fn, unsigned long long id)
{
  unsigned long long h = id ^ ((unsigned long long)fn * 0x9e3779b97f4a7c15ULL);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}
#else
/* Mixes (fn, id) into 32 well-spread bits (murmur3 finaliser) with 32-bit multiplies only. */
static unsigned long mix(unsigned long fn, unsigned long long id)
{
  unsigned long h = (unsigned long)(id & SAT32) ^ (((unsigned long)(id >> 32) * 0x85ebca6bUL) & SAT32) ^
                    ((fn * 0x9e3779b9UL) & SAT32);
  h ^= h >> 16;
  h = (h * 0x85ebca6bUL) & SAT32;
  h ^= h >> 13;
  h = (h * 0xc2b2ae35UL) & SAT32;
  h ^= h >> 16;
  return h;
}
#endif

/* h % d (d > 0), with a divide instruction or, where there is none, by shift and subtract. */
static unsigned long reduce(unsigned long h, unsigned long d)
{
#ifdef SOFT_DIV
  unsigned long r = 0, top;
  int i, bits = (int)(8 * sizeof r);

  for (i = bits - 1; i >= 0; i--) {
    top = r >> (bits - 1);
    r = (r << 1) | ((h >> i) & 1UL);
    if (top || r >= d)
      r -= d; /* when top was set the true value exceeds d and the difference fits */
  }
  return r;
#else
  return h % d;
#endif
}

/* First probe slot: on 64-bit longs the mix is folded to a long first. */
static unsigned long first_slot(unsigned long fn, unsigned long long id, unsigned long cap)
{
#ifndef SLOT32
  unsigned long long h = mix(fn, id);
  return reduce((unsigned long)(h ^ (h >> 32)), cap);
#else
  return reduce(mix(fn, id), cap);
#endif
}

/* A residual path of a ppp function (one outside its interesting set): counted like a hash-mode
   path end. A separate, cold entry point, so the rare call does not cost the hot paths. */
void __pathprof_residual(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  __pathprof_hash_add(u, fn, id);
}

/* ---- The tables a unit's hash table grows into (hosted targets) ----
   A unit built to grow (PATHPROF_UNIT_GROWS) whose table has no room for a path end gets an
   extra table from the back end (__pathprof_hash_more), twice the size of all it has, up to
   PATHPROF_HASH_GROW_MAX entries in all; a back end without memory (freestanding) gives none,
   and the end is dropped as before. Entries never move, so inline caches stay right. A key
   lives in the first table, in chain order, that had a free slot among its probes when it came:
   slots are never freed, so a free slot seen there means the key is in no later table. */
struct hash_ext {
  struct hash_ext *next;           /* every unit's extra tables, oldest first */
  struct __pathprof_unit *u;
  unsigned long cap;               /* entries */
  unsigned long long e[1];         /* cap entries of 3 words {fn + 1, id, count} */
};
static struct hash_ext *exts;

/* The first extra table of u at or after x (0 when none). */
static struct hash_ext *ext_of(const struct __pathprof_unit *u, struct hash_ext *x)
{
  for (; x && x->u != u; x = x->next)
    ;
  return x;
}

/* The extra table after x (0: the first one) of u, or 0. */
static struct hash_ext *ext_next(const struct __pathprof_unit *u, struct hash_ext *x)
{
#if defined(__GNUC__) && defined(__GCC_ATOMIC_POINTER_LOCK_FREE) && __GCC_ATOMIC_POINTER_LOCK_FREE == 2
  return ext_of(u, __atomic_load_n(x ? &x->next : &exts, __ATOMIC_ACQUIRE));
#else
  return ext_of(u, x ? x->next : exts);
#endif
}

/* Entries u's extra tables hold. */
static unsigned long ext_entries(const struct __pathprof_unit *u)
{
  struct hash_ext *x;
  unsigned long n = 0;
  for (x = ext_next(u, 0); x; x = ext_next(u, x))
    n += x->cap;
  return n;
}

/* Appends table x at the end of the chain (a thread that lost a race to append appends after
   the winner's table: no memory is wasted). */
static void ext_append(struct hash_ext *x)
{
#if defined(__GNUC__) && defined(__GCC_ATOMIC_POINTER_LOCK_FREE) && __GCC_ATOMIC_POINTER_LOCK_FREE == 2
  struct hash_ext **p = &exts, *none;
  for (;;) {
    while (__atomic_load_n(p, __ATOMIC_ACQUIRE))
      p = &(*p)->next;
    none = 0;
    if (__atomic_compare_exchange_n(p, &none, x, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return;
  }
#else
  struct hash_ext **p = &exts;
  unsigned long s = IRQ_SAVE();
  while (*p)
    p = &(*p)->next;
  *p = x;
  IRQ_RESTORE(s);
#endif
}

/* A new extra table for u (zeroed memory from the back end), or 0 when u may not grow, its
   bound is reached or there is no memory. */
static struct hash_ext *ext_grow(struct __pathprof_unit *u)
{
  unsigned long have, cap;
  struct hash_ext *x;

  if (!(u->version & PATHPROF_UNIT_GROWS) || u->hash_cap == 0)
    return 0;
  have = u->hash_cap + ext_entries(u);
  if (have >= PATHPROF_HASH_GROW_MAX)
    return 0;
  cap = have > (PATHPROF_HASH_GROW_MAX - have) / 2 ? PATHPROF_HASH_GROW_MAX - have : 2 * have;
  x = __pathprof_hash_more(sizeof *x + (3 * cap - 1) * sizeof x->e[0]);
  if (!x)
    return 0;
  x->u = u;
  x->cap = cap;
  ext_append(x);
  return x;
}

/* Counts one path end in table t of cap entries: its entry, or 0 when the probes found neither
   it nor a free slot. */
static unsigned long long *probe_count(unsigned long long *t, unsigned long cap, unsigned long long key,
                                       unsigned long fn, unsigned long long id)
{
  unsigned long i = first_slot(fn, id, cap), n;
  unsigned long long *e;

  for (n = 0; n < MAX_PROBES && n < cap; n++) {
    e = t + 3 * i;
    if (e[0] == key && e[1] == id) {
      e[2]++;
      return e;
    }
    if (e[0] == 0) { /* count and id first, so a reader that sees the key sees them too */
      e[2] = 1;
      e[1] = id;
      e[0] = key;
      return e;
    }
    if (++i == cap)
      i = 0;
  }
  return 0;
}

/* Counts one path end of hash-mode function fn and returns its entry, or 0 when the end was
   dropped; at most 64 probes per table, never outside the tables. */
static unsigned long long *hash_count(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  unsigned long long key = (unsigned long long)fn + 1, *e;
  struct hash_ext *x;

  if (!u)
    return 0;
  if (key == 0 || u->hash_cap == 0 || !u->hash) {
    u->hash_dropped++;
    return 0;
  }
  if ((e = probe_count(u->hash, u->hash_cap, key, fn, id)))
    return e;
  for (x = ext_next(u, 0); x; x = ext_next(u, x))
    if ((e = probe_count(x->e, x->cap, key, fn, id)))
      return e;
  while ((x = ext_grow(u)))
    if ((e = probe_count(x->e, x->cap, key, fn, id)))
      return e;
  u->hash_dropped++;
  return 0;
}

/* Hash slots of u: its table's, then its extra tables' in chain order. */
unsigned long __pathprof_hash_slots(const struct __pathprof_unit *u)
{
  return u && u->hash ? u->hash_cap + ext_entries(u) : 0;
}

/* The entry at hash slot i of u (__pathprof_hash_slots's numbering), or 0 past the end. */
unsigned long long *__pathprof_hash_entry(const struct __pathprof_unit *u, unsigned long i)
{
  struct hash_ext *x;

  if (!u || !u->hash)
    return 0;
  if (i < u->hash_cap)
    return u->hash + 3 * i;
  i -= u->hash_cap;
  for (x = ext_next(u, 0); x && i >= x->cap; x = ext_next(u, x))
    i -= x->cap;
  return x ? x->e + 3 * i : 0;
}

/* Calls fn for each run of entries of u (its table, then each extra table): n entries at e,
   numbered from slot first. */
void __pathprof_hash_runs(const struct __pathprof_unit *u, void (*fn)(void *, unsigned long long *, unsigned long,
                                                                         unsigned long), void *ctx)
{
  struct hash_ext *x;
  unsigned long first;

  if (!u || !u->hash)
    return;
  fn(ctx, u->hash, u->hash_cap, 0);
  first = u->hash_cap;
  for (x = ext_next(u, 0); x; x = ext_next(u, x)) {
    fn(ctx, x->e, x->cap, first);
    first += x->cap;
  }
}

/* Counts one path end of hash-mode function fn. */
void __pathprof_hash_add(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  (void)hash_count(u, fn, id);
}

/* A path end of hash-mode function fn that its inline cache (pathcc's __pathprof_k<fn>) did not
   hold: counted in the table, and the cache slot the rewriter chose for id points at its entry
   from now on, so the next end of that path is a compare and an add. Entries never move and
   keep their key and id for the life of the process (a reset zeroes counts only), so a slot
   stays right; a dropped end leaves the slot as it was. */
void __pathprof_hash_miss(struct __pathprof_unit *u, unsigned long fn, unsigned long long id, unsigned long long **slot)
{
  unsigned long long *e = hash_count(u, fn, id);
  if (e && slot)
    *slot = e;
}

#if defined(__GNUC__) && defined(__GCC_ATOMIC_LLONG_LOCK_FREE) && __GCC_ATOMIC_LLONG_LOCK_FREE == 2
/* The thread-safe hash_count (pathcc --update=atomic, prefer-atomic). A free slot is
   claimed by swapping its key from 0 to PATHPROF_KEY_BUSY; the id and first count follow, then
   the key is published (release). A slot seen busy is passed over, so the same (fn, id) may
   land in two slots: readers add such entries up. Counts use relaxed atomic adds. Returns the
   entry counted in, or 0 when the end was dropped. */
static unsigned long long *probe_count_atomic(unsigned long long *t, unsigned long cap, unsigned long long key,
                                              unsigned long fn, unsigned long long id)
{
  unsigned long i = first_slot(fn, id, cap), n;
  unsigned long long *e, k;

  for (n = 0; n < MAX_PROBES && n < cap; n++) {
    e = t + 3 * i;
    k = __atomic_load_n(&e[0], __ATOMIC_ACQUIRE);
    if (k == 0) {
      if (__atomic_compare_exchange_n(&e[0], &k, PATHPROF_KEY_BUSY, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        e[1] = id;
        __atomic_fetch_add(&e[2], 1, __ATOMIC_RELAXED);
        __atomic_store_n(&e[0], key, __ATOMIC_RELEASE);
        return e;
      }
    }
    if (k == key && e[1] == id) {
      __atomic_fetch_add(&e[2], 1, __ATOMIC_RELAXED);
      return e;
    }
    if (++i == cap)
      i = 0;
  }
  return 0;
}

/* The thread-safe hash_count over the unit's table and its extra tables. */
static unsigned long long *hash_count_atomic(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  unsigned long long key = (unsigned long long)fn + 1, *e;
  struct hash_ext *x;

  if (!u)
    return 0;
  if (key == 0 || key == PATHPROF_KEY_BUSY || u->hash_cap == 0 || !u->hash) {
    __atomic_fetch_add(&u->hash_dropped, 1, __ATOMIC_RELAXED);
    return 0;
  }
  if ((e = probe_count_atomic(u->hash, u->hash_cap, key, fn, id)))
    return e;
  for (x = ext_next(u, 0); x; x = ext_next(u, x))
    if ((e = probe_count_atomic(x->e, x->cap, key, fn, id)))
      return e;
  while ((x = ext_grow(u)))
    if ((e = probe_count_atomic(x->e, x->cap, key, fn, id)))
      return e;
  __atomic_fetch_add(&u->hash_dropped, 1, __ATOMIC_RELAXED);
  return 0;
}

/* The thread-safe __pathprof_hash_add. */
void __pathprof_hash_add_atomic(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  (void)hash_count_atomic(u, fn, id);
}

/* The thread-safe __pathprof_hash_miss: the slot is published after the entry (release), and
   the instrumented code reads it with acquire, so a thread that sees the slot sees the id. */
void __pathprof_hash_miss_atomic(struct __pathprof_unit *u, unsigned long fn, unsigned long long id,
                                 unsigned long long **slot)
{
  unsigned long long *e = hash_count_atomic(u, fn, id);
  if (e && slot)
    __atomic_store_n(slot, e, __ATOMIC_RELEASE);
}

/* The runtime's counter add, for units whose compiler has no atomics of its own (tcc on a
   host): with lock-free 64-bit atomics in the runtime's compiler, a relaxed atomic add. */
void __pathprof_add_masked(unsigned long long *p, unsigned long long v)
{
  __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
#else
/* Without lock-free 64-bit atomics: the plain version inside the critical section (single-core
   targets, where an interrupt handler is the only other counter). */
void __pathprof_hash_add_atomic(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  unsigned long s = IRQ_SAVE();
  __pathprof_hash_add(u, fn, id);
  IRQ_RESTORE(s);
}

/* *p += v inside the critical section: --update=atomic's counter add on targets with no atomic
   add (Cortex-M0, AVR, RV32I), so a main loop and an interrupt handler never lose a count. */
void __pathprof_add_masked(unsigned long long *p, unsigned long long v)
{
  unsigned long s = IRQ_SAVE();
  *p += v;
  IRQ_RESTORE(s);
}

/* The same for a miss of an inline cache (which pathcc gives such targets only under plain
   counting, but the entry point exists wherever the core is built). */
void __pathprof_hash_miss_atomic(struct __pathprof_unit *u, unsigned long fn, unsigned long long id,
                                 unsigned long long **slot)
{
  unsigned long s = IRQ_SAVE();
  __pathprof_hash_miss(u, fn, id, slot);
  IRQ_RESTORE(s);
}
#endif

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
    for (i = 0; i < u->ncounters; i++) /* only counters that count: a zero page stays unwritten */
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
