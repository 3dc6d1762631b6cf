/* hash.c: the freestanding core's hash table, for functions with too many paths for an array:
   counting a path end (plain, atomic, through an inline cache), the extra tables a hosted unit's
   table grows into, and the slots dumps and resets walk. The same rules as core.c: no library,
   no 64-bit division or variable shifts, no 64-bit multiply where longs are 32 bits. */
#include "core.h"

/* Probes per table: a table that cannot grow (bare metal, or a cap the user set) takes up to 64
   before an end is dropped, so it fills; one that grows takes 16, so that a key absent from a
   full table (every new path's, once the first tables fill) costs 16 probes there, not 64: a
   function with tens of thousands of paths in use spent 1,800 instructions a path end probing
   full tables. Either bound is fixed for the life of the unit, so every lookup sees what its
   inserts placed. */
#define MAX_PROBES 64
#define GROW_PROBES 16
#define SAT32 0xffffffffUL
/* Targets with 32-bit longs get a 32-bit hash mix (no 64-bit multiply, which Cortex-M0 lacks). */
#if defined(PATHPROF_SLOT32) || (defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ < 8)
#define SLOT32 1
#endif
/* Targets without a divide instruction reduce the hash with shifts instead of %. */
#if defined(PATHPROF_SOFT_DIV) || (defined(__arm__) && !defined(__ARM_FEATURE_IDIV)) || \
    (defined(__riscv) && !defined(__riscv_div))
#define SOFT_DIV 1
#endif

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
  unsigned long s = __pathprof_irq_save();
  while (*p)
    p = &(*p)->next;
  *p = x;
  __pathprof_irq_restore(s);
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

/* The entry of (key, id) in table t of cap entries, or 0; when the probes meet a free slot
   (where the key would go, were it new: it is in no later table either) it goes to *free. */
static unsigned long long *probe_find(unsigned long long *t, unsigned long cap, unsigned long long key,
                                      unsigned long fn, unsigned long long id, unsigned long probes,
                                      unsigned long long **free)
{
  unsigned long i = first_slot(fn, id, cap), n;
  unsigned long long *e;

  for (n = 0; n < probes && n < cap; n++) {
    e = t + 3 * i;
    if (e[0] == key && e[1] == id)
      return e;
    if (e[0] == 0) {
      *free = e;
      return 0;
    }
    if (++i == cap)
      i = 0;
  }
  return 0;
}

/* How many probes a table of u takes (MAX_PROBES, GROW_PROBES). */
static unsigned long probes_of(const struct __pathprof_unit *u)
{
  return u->version & PATHPROF_UNIT_GROWS ? GROW_PROBES : MAX_PROBES;
}

/* Counts one path end of hash-mode function fn and returns its entry, or 0 when the end was
   dropped; at most probes_of(u) probes per table, never outside the tables. The tables are
   searched newest first: most keys live in the big late tables, and a search passes through the
   small early ones, full once they are, only for keys they hold. A new key goes where the chain's
   rule puts it (the oldest table with a free slot among its probes: the last one seen). */
static unsigned long long *hash_count(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  unsigned long long key = (unsigned long long)fn + 1, *e, *free = 0, *t[PATHPROF_HASH_TABLES];
  unsigned long cap[PATHPROF_HASH_TABLES], probes;
  struct hash_ext *x;
  int n = 0;

  if (!u)
    return 0;
  if (key == 0 || u->hash_cap == 0 || !u->hash) {
    u->hash_dropped++;
    return 0;
  }
  probes = probes_of(u);
  t[n] = u->hash, cap[n++] = u->hash_cap;
  for (x = ext_next(u, 0); x && n < PATHPROF_HASH_TABLES; x = ext_next(u, x))
    t[n] = x->e, cap[n++] = x->cap;
  while (n-- > 0)
    if ((e = probe_find(t[n], cap[n], key, fn, id, probes, &free))) {
      e[2]++;
      return e;
    }
  while (!free && (x = ext_grow(u)))
    (void)probe_find(x->e, x->cap, key, fn, id, probes, &free);
  if (!free) {
    u->hash_dropped++;
    return 0;
  }
  free[2] = 1; /* count and id first, so a reader that sees the key sees them too */
  free[1] = id;
  free[0] = key;
  return free;
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
                                              unsigned long fn, unsigned long long id, unsigned long probes)
{
  unsigned long i = first_slot(fn, id, cap), n;
  unsigned long long *e, k;

  for (n = 0; n < probes && n < cap; n++) {
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
  unsigned long probes;

  if (!u)
    return 0;
  if (key == 0 || key == PATHPROF_KEY_BUSY || u->hash_cap == 0 || !u->hash) {
    __atomic_fetch_add(&u->hash_dropped, 1, __ATOMIC_RELAXED);
    return 0;
  }
  probes = probes_of(u);
  if ((e = probe_count_atomic(u->hash, u->hash_cap, key, fn, id, probes)))
    return e;
  for (x = ext_next(u, 0); x; x = ext_next(u, x))
    if ((e = probe_count_atomic(x->e, x->cap, key, fn, id, probes)))
      return e;
  while ((x = ext_grow(u)))
    if ((e = probe_count_atomic(x->e, x->cap, key, fn, id, probes)))
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
  unsigned long s = __pathprof_irq_save();
  __pathprof_hash_add(u, fn, id);
  __pathprof_irq_restore(s);
}

/* *p += v inside the critical section: --update=atomic's counter add on targets with no atomic
   add (Cortex-M0, AVR, RV32I), so a main loop and an interrupt handler never lose a count. */
void __pathprof_add_masked(unsigned long long *p, unsigned long long v)
{
  unsigned long s = __pathprof_irq_save();
  *p += v;
  __pathprof_irq_restore(s);
}

/* The same for a miss of an inline cache (which pathcc gives such targets only under plain
   counting, but the entry point exists wherever the core is built). */
void __pathprof_hash_miss_atomic(struct __pathprof_unit *u, unsigned long fn, unsigned long long id,
                                 unsigned long long **slot)
{
  unsigned long s = __pathprof_irq_save();
  __pathprof_hash_miss(u, fn, id, slot);
  __pathprof_irq_restore(s);
}
#endif
