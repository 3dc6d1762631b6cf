/* kpath.c: k-iteration path profiling on the target: Ball-Larus path ids -> k-slab forests, online. */
/* The stream algorithm is the k-SF construction of D'Elia & Demetrescu's multi-iteration path
   profiling (process_bl_path_id): the ids of one activation are cut into chunks of k-1; each id
   updates at most two nodes, one in the upper slab below `top` and one in the lower slab below
   `bottom`, and exactly one counter. The stream state (position in the chunk, top, bottom) lives
   in the activation's own struct __pathprof_ka, so recursion interleaves streams correctly.
   Each thread has its own forests where the compiler offers thread-local storage on a hosted
   target; freestanding builds keep one set, which units compiled with --update=atomic update
   with interrupts masked (__pathprof_kpath_id_atomic), so interrupt handlers may run kpath-mode
   code while the main program does. Memory comes from a static pool
   (-DPATHPROF_KPATH_POOL=bytes, default 16 KiB freestanding, none hosted) and then from the back
   end (__pathprof_kpath_more: malloc'd chunks on POSIX, nothing on bare metal); when none is
   left an id is counted as dropped and its activation starts afresh, so counts stay exact for
   the n-grams kept. Needs no library: no division, no variable 64-bit shift. The host turns the
   dumped forests into k-iteration path forests (translator/kpath.c). */
#include "core.h"
#include <stdint.h> /* uintptr_t: pointers are 16 bits on AVR, 64 on LP64 */

#define KSLB_TAG 0x424C534BUL /* "KSLB" */
#define KMAX 64               /* largest k; the dump's walk keeps 2k-2 levels on the stack */
#define PAD_LABEL 0xffffffffffffffffULL /* padding of a record whose walk came up short */
#define CHUNK_BYTES 65536UL   /* what a hosted thread asks its back end for at a time */
#define FIRST_ROOTS 8         /* root-table entries of a new function forest (a power of 2) */
#define FIRST_FUNS 16         /* function-table entries of a new thread (a power of 2) */

#ifndef PATHPROF_KPATH_POOL
#if __STDC_HOSTED__
#define PATHPROF_KPATH_POOL 0
#else
#define PATHPROF_KPATH_POOL 16384
#endif
#endif

/* One node of a k-SF: a Ball-Larus id, its counter, its first child and next sibling (roots
   of one function are chained through sib as well). */
struct node {
  unsigned long long label, count;
  struct node *child, *sib;
};

/* One function's forest in one thread. */
struct fun {
  struct __pathprof_unit *unit;
  unsigned long fn, km1;
  struct node *roots;            /* every root, newest first */
  struct node **tab;             /* roots by label: open addressing, cap a power of 2 */
  unsigned long cap, used;
  unsigned long long nodes, dropped;
  struct fun *next;              /* the thread's functions, newest first */
  struct ctx *owner;             /* the thread whose forest it is */
};

/* One thread's forests and memory. */
struct ctx {
  struct ctx *next;              /* every thread's context, newest first */
  struct fun *funs;
  struct fun **ftab;             /* functions by (unit, fn): open addressing, cap a power of 2 */
  unsigned long fcap, fused;
  unsigned char *mem;            /* bump allocation in the current chunk */
  unsigned long left;
  unsigned long long lost;       /* ids with no memory even for their function's forest */
};

/* Thread-local where the target has it (hosted GCC/clang, C11); else one context for all. */
#if __STDC_HOSTED__ && defined(__GNUC__) && defined(__GCC_ATOMIC_POINTER_LOCK_FREE) && \
    __GCC_ATOMIC_POINTER_LOCK_FREE == 2 && !defined(PATHPROF_KPATH_SHARED)
#define PER_THREAD 1
static __thread struct ctx *current;
#endif
static struct ctx *contexts;      /* newest first */

/* Publishes a fully initialised node (or table) through *slot: a dump running in another
   thread at the same time then sees it whole or not at all. */
#ifdef PER_THREAD
#define PUBLISH(slot, v) __atomic_store_n(&(slot), (v), __ATOMIC_RELEASE)
#define FETCH(slot) __atomic_load_n(&(slot), __ATOMIC_ACQUIRE)
#else
#define PUBLISH(slot, v) ((slot) = (v))
#define FETCH(slot) (slot)
#endif
static int source_added;

#if PATHPROF_KPATH_POOL > 0
static unsigned long long pool[(PATHPROF_KPATH_POOL + 7) / 8] PATHPROF_BIG;
static int pool_taken;
#endif

static unsigned long write_records(struct __pathprof_out *o, int drain);
static void reset_counts(void);
static struct __pathprof_records source = {0, write_records, reset_counts};

/* Size rounded up to the alignment of long long (8 bytes, 1 on AVR), so every object the arena
   hands out is aligned for it. */
#ifdef __GNUC__
#define ALIGN_LL ((unsigned long)__alignof__(unsigned long long))
#else
#define ALIGN_LL 8UL
#endif
static unsigned long round_up(unsigned long n)
{
  return (n + ALIGN_LL - 1) & ~(ALIGN_LL - 1);
}

/* The static pool, once, to the first context that asks; else 0. */
static void *take_pool(unsigned long *bytes)
{
#if PATHPROF_KPATH_POOL > 0
  if (!pool_taken) {
    pool_taken = 1;
    *bytes = sizeof pool;
    return pool;
  }
#endif
  *bytes = 0;
  return 0;
}

/* n bytes from the context's arena, refilled from the back end; 0 when there is no more. */
static void *alloc(struct ctx *c, unsigned long n)
{
  unsigned char *p;
  unsigned long got;

  n = round_up(n);
  if (c->left < n) {
    got = n > CHUNK_BYTES ? n : CHUNK_BYTES;
    p = __pathprof_kpath_more(got);
    if (!p)
      return 0;
    c->mem = p;
    c->left = got;
  }
  p = c->mem;
  c->mem += n;
  c->left -= n;
  return p;
}

/* Zeroed table of n pointers from the arena (volatile stores: no memset call on bare metal). */
static void **alloc_table(struct ctx *c, unsigned long n)
{
  void **t = alloc(c, n * sizeof *t);
  unsigned long i;

  for (i = 0; t && i < n; i++)
    *(void *volatile *)&t[i] = 0;
  return t;
}

/* Links a new context into the list the dumps walk (atomically where threads exist). */
static void publish(struct ctx *c)
{
#ifdef PER_THREAD
  struct ctx *h = __atomic_load_n(&contexts, __ATOMIC_ACQUIRE);
  do
    c->next = h;
  while (!__atomic_compare_exchange_n(&contexts, &h, c, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  if (!__atomic_exchange_n(&source_added, 1, __ATOMIC_ACQ_REL))
    __pathprof_add_records(&source);
#else
  c->next = contexts;
  contexts = c;
  if (!source_added) {
    source_added = 1;
    __pathprof_add_records(&source);
  }
#endif
}

/* The calling thread's context, or 0 before its first id. */
static struct ctx *these(void)
{
#ifdef PER_THREAD
  return current;
#else
  return contexts;
#endif
}

/* The calling thread's context, made on first use inside its own first memory; 0 if none. */
static struct ctx *context(void)
{
  struct ctx *c, first;
  unsigned long bytes;
  unsigned char *mem;

#ifdef PER_THREAD
  if (current)
    return current;
#else
  if (contexts)
    return contexts;
#endif
  mem = take_pool(&bytes);
  if (!mem) {
    bytes = CHUNK_BYTES;
    mem = __pathprof_kpath_more(bytes);
    if (!mem)
      return 0;
  }
  first.mem = mem;
  first.left = bytes;
  c = alloc(&first, sizeof *c);
  if (!c)
    return 0;
  c->mem = first.mem;
  c->left = first.left;
  c->funs = 0;
  c->lost = 0;
  c->fcap = FIRST_FUNS;
  c->fused = 0;
  c->ftab = (struct fun **)alloc_table(c, c->fcap);
  if (!c->ftab)
    return 0;
  publish(c);
#ifdef PER_THREAD
  current = c;
#endif
  return c;
}

/* Slot mix of a 64-bit key in 32-bit arithmetic (no libgcc call on 32-bit cores). */
static unsigned long mix(unsigned long long key)
{
  unsigned long h = (unsigned long)(key & 0xffffffffUL) ^ ((unsigned long)(key >> 32) * 0x9e3779b1UL);
  h = (h ^ (h >> 15)) * 0x85ebca6bUL;
  return (h ^ (h >> 13)) & 0xffffffffUL;
}

/* Slot of function (u, fn) in a table of cap entries. */
static unsigned long fun_slot(const struct __pathprof_unit *u, unsigned long fn, unsigned long cap)
{
  return mix((unsigned long long)(uintptr_t)u ^ ((unsigned long long)fn << 20)) & (cap - 1);
}

/* Doubles the context's function table; 0, or -1 with the table unchanged. */
static int grow_funs(struct ctx *c)
{
  struct fun **t = (struct fun **)alloc_table(c, 2 * c->fcap);
  struct fun *f;
  unsigned long i;

  if (!t)
    return -1;
  c->fcap *= 2;
  for (f = c->funs; f; f = f->next) {
    for (i = fun_slot(f->unit, f->fn, c->fcap); t[i]; i = (i + 1) & (c->fcap - 1))
      ;
    t[i] = f;
  }
  c->ftab = t;
  return 0;
}

/* The thread's forest of function d, or 0 when it has none yet (*slot: the free entry where
   the search ended, for adding it). */
static struct fun *lookup_fun(const struct ctx *c, const struct __pathprof_kfn *d, unsigned long *slot)
{
  unsigned long i;
  struct fun *f;

  for (i = fun_slot(d->unit, d->fn, c->fcap); (f = c->ftab[i]) != 0; i = (i + 1) & (c->fcap - 1))
    if (f->unit == d->unit && f->fn == d->fn)
      return f;
  *slot = i;
  return 0;
}

/* The thread's forest of the activation's function, made on first use; 0 when out of memory. */
static struct fun *find_fun(struct ctx *c, const struct __pathprof_ka *a)
{
  unsigned long i;
  struct fun *f;

  const struct __pathprof_kfn *d = a->f;

  if ((f = lookup_fun(c, d, &i)) != 0)
    return f;
  if (4 * (c->fused + 1) > 3 * c->fcap) {
    if (grow_funs(c) != 0)
      return 0;
    for (i = fun_slot(d->unit, d->fn, c->fcap); c->ftab[i]; i = (i + 1) & (c->fcap - 1))
      ;
  }
  f = alloc(c, sizeof *f);
  if (!f || !(f->tab = (struct node **)alloc_table(c, FIRST_ROOTS)))
    return 0;
  f->unit = d->unit;
  f->fn = d->fn;
  f->km1 = d->km1 ? d->km1 : 1;
  f->roots = 0;
  f->cap = FIRST_ROOTS;
  f->used = 0;
  f->nodes = 0;
  f->dropped = 0;
  f->next = c->funs;
  f->owner = c;
  c->funs = f;
  c->ftab[i] = f;
  c->fused++;
  return f;
}

/* A new node with count 0, or 0 when out of memory. */
static struct node *new_node(struct ctx *c, struct fun *f, unsigned long long label)
{
  struct node *n = alloc(c, sizeof *n);

  if (!n)
    return 0;
  n->label = label;
  n->count = 0;
  n->child = 0;
  n->sib = 0;
  f->nodes++;
  return n;
}

/* Doubles f's root table; 0, or -1 with the table unchanged. */
static int grow_roots(struct ctx *c, struct fun *f)
{
  struct node **t = (struct node **)alloc_table(c, 2 * f->cap);
  struct node *r;
  unsigned long i;

  if (!t)
    return -1;
  f->cap *= 2;
  for (r = f->roots; r; r = r->sib) {
    for (i = mix(r->label) & (f->cap - 1); t[i]; i = (i + 1) & (f->cap - 1))
      ;
    t[i] = r;
  }
  f->tab = t;
  return 0;
}

/* find(R, r) of the stream algorithm: the root labelled r, added when missing; 0 if no memory. */
static struct node *root(struct ctx *c, struct fun *f, unsigned long long r)
{
  unsigned long i;
  struct node *n;

  for (i = mix(r) & (f->cap - 1); (n = f->tab[i]) != 0; i = (i + 1) & (f->cap - 1))
    if (n->label == r)
      return n;
  if (4 * (f->used + 1) > 3 * f->cap) {
    if (grow_roots(c, f) != 0)
      return 0;
    for (i = mix(r) & (f->cap - 1); f->tab[i]; i = (i + 1) & (f->cap - 1))
      ;
  }
  if (!(n = new_node(c, f, r)))
    return 0;
  n->sib = f->roots;
  PUBLISH(f->roots, n);
  f->tab[i] = n;
  f->used++;
  return n;
}

/* The child of p labelled r, added when missing; 0 if no memory. */
static struct node *child(struct ctx *c, struct fun *f, struct node *p, unsigned long long r)
{
  struct node *n;

  for (n = p->child; n; n = n->sib)
    if (n->label == r)
      return n;
  if (!(n = new_node(c, f, r)))
    return 0;
  n->sib = p->child;
  PUBLISH(p->child, n);
  return n;
}

/* Counts an id that found no memory as dropped; the activation's stream starts afresh, as
   after a marker, so no later n-gram is counted with a gap in it. */
static void drop(struct fun *f, struct __pathprof_ka *a)
{
  f->dropped++;
  a->pos = 0;
  a->top = 0;
  a->bottom = 0;
}

/* The id's one counter, and the stream's next state: the lower slab counts; the upper copy of
   a chunk after the first does not. */
static inline void count(struct __pathprof_ka *a, const struct fun *f, struct node *top, struct node *bottom)
{
  if (bottom)
    bottom->count++;
  else
    top->count++;
  a->top = top;
  a->bottom = bottom;
  a->pos = a->pos + 1 == f->km1 ? 0 : a->pos + 1;
}

/* GNU compilers keep the slow path out of line, so the fast path saves few registers. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((__noinline__))
#else
#define NOINLINE
#endif

/* The whole of process_bl_path_id(r) for activation a, creating what is missing: its forest,
   roots and children. a->pos is n mod (k-1); the marker `*` is a's initialisation (pos 0, top
   and bottom null). */
static NOINLINE void kpath_id_slow(struct __pathprof_ka *a, unsigned long long r)
{
  struct ctx *c = context();
  struct fun *f = a->fun;
  struct node *top = a->top, *bottom = a->bottom;

  if (!c)
    return; /* no memory even for a context: nowhere to count the loss */
  if (!f && !(f = a->fun = find_fun(c, a))) {
    c->lost++;
    return;
  }
  if (a->pos == 0) { /* a chunk starts: bottom <- top, top <- find(R, r) */
    bottom = top;
    top = root(c, f, r);
  } else {
    top = child(c, f, top, r);
  }
  if (!top || (bottom && !(bottom = child(c, f, bottom, r)))) {
    drop(f, a);
    return;
  }
  count(a, f, top, bottom);
}

/* The root of f labelled r, or 0: a lookup that adds nothing. */
static struct node *find_root(const struct fun *f, unsigned long long r)
{
  unsigned long i;
  struct node *n;

  for (i = mix(r) & (f->cap - 1); (n = f->tab[i]) != 0; i = (i + 1) & (f->cap - 1))
    if (n->label == r)
      return n;
  return 0;
}

/* The child of p labelled r, or 0. */
static struct node *find_child(const struct node *p, unsigned long long r)
{
  struct node *n;

  for (n = p->child; n; n = n->sib)
    if (n->label == r)
      return n;
  return 0;
}

/* The calling thread's forest of function d if it has one: the one the function's cache
   names when it is this thread's (activations of a function mostly run in one thread), else
   found in the thread's table and cached (a descriptor may have no cache); 0 before the
   thread's first id or the function's. */
static NOINLINE struct fun *known_fun(const struct __pathprof_kfn *d)
{
  struct fun *f = d->cache ? FETCH(*(struct fun **)d->cache) : 0;
  struct ctx *c = these();
  unsigned long free_slot;

  if (f && f->owner == c)
    return f;
  if (!c || !(f = lookup_fun(c, d, &free_slot)))
    return 0;
  if (d->cache)
    PUBLISH(*(struct fun **)d->cache, f);
  return f;
}

/* Hands one completed Ball-Larus path id of the activation a to its thread's k-SF. Almost
   always the forest already has the nodes the id updates: that case is a pair of lookups and
   a counter here; anything to create (forest, root, child) goes to the slow path, which starts
   again from the same, untouched state. */
void __pathprof_kpath_id(struct __pathprof_ka *a, unsigned long long r)
{
  struct fun *f = a->fun;
  struct node *top, *bottom;

  if (!f)
    f = a->fun = known_fun(a->f);
  if (f) {
    if (a->pos == 0) {
      bottom = a->top;
      top = find_root(f, r);
    } else {
      bottom = a->bottom;
      top = find_child(a->top, r);
    }
    if (top && (!bottom || (bottom = find_child(bottom, r)) != 0)) {
      count(a, f, top, bottom);
      return;
    }
  }
  kpath_id_slow(a, r);
}

/* --update=atomic's form: where one set of forests serves the program and its interrupt handlers
   (bare metal), the id is handed over with interrupts masked (rt/core/core.c's critical
   section), so a handler never meets a forest half updated nor loses a count; with per-thread
   forests nothing is shared. */
void __pathprof_kpath_id_atomic(struct __pathprof_ka *a, unsigned long long r)
{
#ifdef PER_THREAD
  __pathprof_kpath_id(a, r);
#else
  unsigned long s = __pathprof_irq_save();

  __pathprof_kpath_id(a, r);
  __pathprof_irq_restore(s);
#endif
}

/* Preorder walk of one function forest: calls visit on each node with its depth. */
static void walk(struct fun *f, void (*visit)(struct node *, unsigned long, void *), void *arg)
{
  /* as deep as the forest's k needs, no deeper: an AVR has 2 KiB of RAM for everything */
  unsigned long levels = f->km1 < KMAX ? 2 * (f->km1 + 1) : 2 * KMAX;
  struct node *stack[levels], *n;
  unsigned long depth = 0;

  for (n = f->roots; n;) {
    visit(n, depth, arg);
    if (n->child && depth + 1 < levels) {
      stack[depth++] = n;
      n = n->child;
      continue;
    }
    while (!n->sib && depth > 0)
      n = stack[--depth];
    n = n->sib;
  }
}

/* The dump's state for one record: remaining nodes to write, drain flag. */
struct put {
  struct __pathprof_out *o;
  unsigned long long left;
  int drain;
};

/* Writes one node as {label, count, depth} while the record has room for it. */
static void put_node(struct node *n, unsigned long depth, void *arg)
{
  struct put *p = arg;

  if (p->left == 0)
    return;
  p->left--;
  __pathprof_out_u64(p->o, n->label);
  __pathprof_out_u64(p->o, n->count);
  __pathprof_out_u64(p->o, depth);
  if (p->drain)
    n->count = 0;
}

/* One KSLB record (doc/formats.md section 2): header, then exactly `nodes` nodes in preorder
   (nodes added while writing are left for the next dump, never written half). */
static void put_fun(struct __pathprof_out *o, struct fun *f, int drain)
{
  struct put p;
  unsigned long long nodes = f->nodes, i;

  __pathprof_out_u32(o, KSLB_TAG);
  __pathprof_out_u32(o, f->km1 + 1);
  __pathprof_out_u64(o, f->unit->checksum);
  __pathprof_out_u64(o, f->fn);
  __pathprof_out_u64(o, nodes);
  __pathprof_out_u64(o, f->dropped);
  p.o = o;
  p.left = nodes;
  p.drain = drain;
  walk(f, put_node, &p);
  for (i = 0; i < p.left; i++) { /* the walk missed nodes their thread added meanwhile: pad */
    __pathprof_out_u64(o, PAD_LABEL - i); /* with zero counts under a root no path id has */
    __pathprof_out_u64(o, 0);             /* (ids stay below 2^62), siblings all distinct */
    __pathprof_out_u64(o, i ? 1 : 0);
  }
  if (drain)
    f->dropped = 0;
}

/* Writes every thread's forests, and the ids lost for lack of any forest as one record with
   checksum 0; returns the number of records. */
static unsigned long write_records(struct __pathprof_out *o, int drain)
{
  struct ctx *c;
  struct fun *f;
  unsigned long long lost = 0;
  unsigned long n = 0;

  for (c = contexts; c; c = c->next) {
    for (f = c->funs; f; f = f->next, n++)
      put_fun(o, f, drain);
    lost += c->lost;
    if (drain)
      c->lost = 0;
  }
  if (lost) {
    __pathprof_out_u32(o, KSLB_TAG);
    __pathprof_out_u32(o, 0);
    __pathprof_out_u64(o, 0);
    __pathprof_out_u64(o, 0);
    __pathprof_out_u64(o, 0);
    __pathprof_out_u64(o, lost);
    n++;
  }
  return n;
}

/* Zeroes one node's counter. */
static void zero_node(struct node *n, unsigned long depth, void *arg)
{
  (void)depth;
  (void)arg;
  n->count = 0;
}

/* pathprof_reset for the forests: every counter and dropped count back to zero (the nodes
   stay, so activations running now keep valid top and bottom pointers). */
static void reset_counts(void)
{
  struct ctx *c;
  struct fun *f;

  for (c = contexts; c; c = c->next) {
    for (f = c->funs; f; f = f->next) {
      walk(f, zero_node, 0);
      f->dropped = 0;
    }
    c->lost = 0;
  }
}
