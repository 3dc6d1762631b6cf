/* core.c: the freestanding runtime core: unit registry, bounded hash counters, profile dump, reset. */
#include "core.h"

#define UNIT_TAG 0x54494E55UL  /* "UNIT" */
#define END_TAG 0x00444E45UL   /* "END\0" */
#define FNV_BASIS 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#define MAX_PROBES 64
#define CHUNK 256

/* The registry ends in this sentinel, so a registered unit's next is never 0. */
static struct __pathprof_unit sentinel;
/* Marks a unit whose registration another thread has claimed (or whose layout we refused). */
static struct __pathprof_unit claimed;
/* Newest registered unit; units are pushed at the front. */
static struct __pathprof_unit *head = &sentinel;
/* Set once the back end has been initialised. */
static int backend_ready;

#if defined(__GNUC__)
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
#else
/* Plain read of a link: without GNU atomics the registry assumes one thread registers at a time. */
static struct __pathprof_unit *load_link(struct __pathprof_unit **p)
{
  return *p;
}

/* Plain store of a link. */
static void store_link(struct __pathprof_unit **p, struct __pathprof_unit *v)
{
  *p = v;
}

/* Non-atomic compare-and-swap with the same contract as the GNU version. */
static int swap_link(struct __pathprof_unit **p, struct __pathprof_unit **expect,
                     struct __pathprof_unit *v)
{
  if (*p != *expect) {
    *expect = *p;
    return 0;
  }
  *p = v;
  return 1;
}

/* Sets the flag and says whether it was clear before. */
static int first_to_set(int *flag)
{
  int was = *flag;
  *flag = 1;
  return was == 0;
}
#endif

/* Links u into the registry once, even when several threads race to register it.
   A unit with an unknown layout version is marked but never linked (its fields can't be read). */
void __pathprof_register(struct __pathprof_unit *u)
{
  struct __pathprof_unit *expect = 0, *h;

  if (!u || u == &sentinel || u == &claimed)
    return;
  if (!swap_link(&u->next, &expect, &claimed))
    return; /* already registered, or another thread is doing it */
  if (u->version != PATHPROF_UNIT_VERSION)
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

/* First probe slot: the mix folded to a long first, so 32-bit targets need no 64-bit division. */
static unsigned long first_slot(unsigned long fn, unsigned long long id, unsigned long cap)
{
  unsigned long long h = mix(fn, id);
  return (unsigned long)(h ^ (h >> 32)) % cap;
}

/* Counts one path end of hash-mode function fn; at most 64 probes, never outside the table. */
void __pathprof_hash_add(struct __pathprof_unit *u, unsigned long fn, unsigned long long id)
{
  unsigned long long key = (unsigned long long)fn + 1, *e;
  unsigned long cap, i, n;

  if (!u)
    return;
  cap = u->hash_cap;
  if (key == 0 || cap == 0 || !u->hash) {
    u->hash_dropped++;
    return;
  }
  i = first_slot(fn, id, cap);
  for (n = 0; n < MAX_PROBES && n < cap; n++) {
    e = u->hash + 3 * i;
    if (e[0] == key && e[1] == id) {
      e[2]++;
      return;
    }
    if (e[0] == 0) { /* count and id first, so a reader that sees the key sees them too */
      e[2] = 1;
      e[1] = id;
      e[0] = key;
      return;
    }
    if (++i == cap)
      i = 0;
  }
  u->hash_dropped++;
}

/* Zeroes every counter, hash entry and dropped count of every registered unit. */
void pathprof_reset(void)
{
  struct __pathprof_unit *u;
  unsigned long i;

  for (u = __pathprof_first(); u; u = __pathprof_next(u)) {
    for (i = 0; u->counters && i < u->ncounters; i++)
      u->counters[i] = 0;
    for (i = 0; u->hash && i < u->hash_cap; i++) {
      u->hash[3 * i] = 0;
      u->hash[3 * i + 1] = 0;
      u->hash[3 * i + 2] = 0;
    }
    u->hash_dropped = 0;
  }
}

/* The dump's state: a small chunk buffer, the running FNV-1a and the sink. */
struct out {
  pathprof_write_fn fn;
  void *ctx;
  unsigned long long fnv;
  unsigned long n;
  int failed;
  unsigned char buf[CHUNK];
};

/* Hands the buffered bytes to the sink; after one failure the sink is not called again. */
static void flush(struct out *o)
{
  if (o->n && !o->failed && o->fn(o->ctx, o->buf, o->n) != 0)
    o->failed = 1;
  o->n = 0;
}

/* Appends one byte to the chunk and to the running checksum. */
static void put_byte(struct out *o, unsigned char b)
{
  o->fnv = (o->fnv ^ b) * FNV_PRIME;
  o->buf[o->n++] = b;
  if (o->n == CHUNK)
    flush(o);
}

/* Appends a little-endian 32-bit integer, whatever the host byte order. */
static void put_u32(struct out *o, unsigned long v)
{
  int i;
  for (i = 0; i < 4; i++)
    put_byte(o, (unsigned char)((v >> (8 * i)) & 0xff));
}

/* Appends a little-endian 64-bit integer. */
static void put_u64(struct out *o, unsigned long long v)
{
  int i;
  for (i = 0; i < 8; i++)
    put_byte(o, (unsigned char)((v >> (8 * i)) & 0xff));
}

/* Length of the unit's name (its tables path), capped to what a u32 can say. */
static unsigned long name_len(const char *s)
{
  unsigned long n = 0;
  while (s && s[n] && n < 0xffffffffUL)
    n++;
  return n;
}

/* Number of used hash entries (key set, count > 0) the record will carry. */
static unsigned long long used_entries(const struct __pathprof_unit *u)
{
  unsigned long long n = 0;
  unsigned long i;
  for (i = 0; u->hash && i < u->hash_cap; i++)
    if (u->hash[3 * i] != 0 && u->hash[3 * i + 2] != 0)
      n++;
  return n;
}

/* Writes the used hash entries, exactly nhash of them: if the table changed since they were
   counted, missing ones are padded with zero-count entries, which readers ignore. */
static void put_hash(struct out *o, const struct __pathprof_unit *u, unsigned long long nhash)
{
  unsigned long i;
  unsigned long long key, count;

  for (i = 0; u->hash && i < u->hash_cap && nhash > 0 && !o->failed; i++) {
    key = u->hash[3 * i];
    count = u->hash[3 * i + 2];
    if (key == 0 || count == 0)
      continue;
    put_u64(o, key - 1);
    put_u64(o, u->hash[3 * i + 1]);
    put_u64(o, count);
    nhash--;
  }
  for (; nhash > 0 && !o->failed; nhash--) {
    put_u64(o, 0);
    put_u64(o, 0);
    put_u64(o, 0);
  }
}

/* Writes one unit record: fixed fields, padded name, array counters, used hash entries. */
static void put_unit(struct out *o, const struct __pathprof_unit *u)
{
  unsigned long len = name_len(u->tables), i;
  unsigned long long nhash = used_entries(u);

  put_u32(o, UNIT_TAG);
  put_u32(o, len);
  put_u64(o, u->checksum);
  put_u64(o, u->ncounters);
  put_u64(o, nhash);
  put_u64(o, u->hash_dropped);
  for (i = 0; i < len; i++)
    put_byte(o, (unsigned char)u->tables[i]);
  for (; i % 8; i++)
    put_byte(o, 0);
  for (i = 0; i < u->ncounters && !o->failed; i++)
    put_u64(o, u->counters ? u->counters[i] : 0);
  put_hash(o, u, nhash);
}

/* Streams the profile of all registered units through fn in chunks of at most 256 bytes. */
int pathprof_dump(pathprof_write_fn fn, void *ctx)
{
  struct out o;
  struct __pathprof_unit *u;
  unsigned long nunits = 0;
  const char *magic = "PATHPROF";
  int i;

  if (!fn)
    return -1;
  o.fn = fn;
  o.ctx = ctx;
  o.fnv = FNV_BASIS;
  o.n = 0;
  o.failed = 0;
  for (i = 0; i < 8; i++)
    put_byte(&o, (unsigned char)magic[i]);
  put_u32(&o, 1);
  put_u32(&o, 0);
  for (u = __pathprof_first(); u && !o.failed; u = __pathprof_next(u)) {
    put_unit(&o, u);
    nunits++;
  }
  put_u32(&o, END_TAG);
  put_u32(&o, nunits);
  put_u64(&o, o.fnv);
  flush(&o);
  return o.failed ? -1 : 0;
}
