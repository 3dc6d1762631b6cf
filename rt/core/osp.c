/* osp.c: online subpath profiling: skip counting, sampled subpaths, the bounded hot list (Gibbons-Matias concise samples, adaptive resampling), snapshots.
   Freestanding like the core: static memory only, 32-bit arithmetic (no 64-bit multiply or
   division, no variable 64-bit shift, no floating point), no library. The instrumented code of an
   osp unit (pathcc --mode=osp) runs `--__pathprof_osp_skip ? (void)0 : __pathprof_osp_block(...)`
   at every block entry; everything else happens here, on the rare calls. doc/formats.md
   section 2 ("OSPH") describes the snapshot and the estimates a reader draws from it. */
#include "core.h"

/* Static bytes of the hot list (entries, index, block pool); the start-time bound may be lower. */
#ifndef PATHPROF_OSP_MEMORY
#define PATHPROF_OSP_MEMORY 32768
#endif
/* Longest subpath 2^PATHPROF_OSP_MAXLOG blocks (per-thread buffers hold that many per sample). */
#ifndef PATHPROF_OSP_MAXLOG
#define PATHPROF_OSP_MAXLOG 5
#endif
/* Units a hot list can name. */
#ifndef PATHPROF_OSP_UNITS
#define PATHPROF_OSP_UNITS 256
#endif
/* Overlapping samples per thread (a start while all are busy is dropped and counted). */
#ifndef PATHPROF_OSP_ACTIVE
#define PATHPROF_OSP_ACTIVE 4
#endif
/* Default mean gap (blocks) between sample starts. */
#ifndef PATHPROF_OSP_RATE
#define PATHPROF_OSP_RATE 128
#endif
#if PATHPROF_OSP_MAXLOG < 1 || PATHPROF_OSP_MAXLOG > 10
#error "PATHPROF_OSP_MAXLOG must be between 1 and 10"
#endif
#if PATHPROF_OSP_MEMORY < 1024
#error "PATHPROF_OSP_MEMORY must be at least 1024 bytes"
#endif

#define MAXLEN (1u << PATHPROF_OSP_MAXLOG)
#define OSPH_TAG 0x4850534FUL   /* "OSPH" */
#define MAX_RATE (1UL << 24)    /* the gap arithmetic below stays within 32 bits up to here */
#ifndef PATHPROF_OSP_ENTRY_BYTES
#define PATHPROF_OSP_ENTRY_BYTES 48 /* budget an entry: itself, its index slots, pooled blocks */
#endif
#define BYTES_PER_ENTRY ((unsigned long)PATHPROF_OSP_ENTRY_BYTES)
#define NO_SEQ 0xffffffffu      /* entry.first of an entry whose blocks are not kept (yet) */
#define LN2_Q16 45426UL         /* ln 2 in 16.16 fixed point */
#define DEFAULT_SEED 0x9e3779b97f4a7c15ULL

/* Thread-local state where threads exist (hosted Unix builds), plain statics elsewhere. The
   instrumented code declares __pathprof_osp_skip the same way (pathcc picks __thread for host
   builds); -DPATHPROF_OSP_TLS=0|1 overrides. Not initial-exec: see partial.c's TLS. */
#ifndef PATHPROF_OSP_TLS
#if defined(__GNUC__) && (defined(__unix__) || defined(__APPLE__)) && __STDC_HOSTED__
#define PATHPROF_OSP_TLS 1
#else
#define PATHPROF_OSP_TLS 0
#endif
#endif
#if PATHPROF_OSP_TLS
#define TLS __thread
#else
#define TLS
#endif

#if defined(__SIZEOF_INT__) && __SIZEOF_INT__ < 4
typedef unsigned long u32;
#else
typedef unsigned int u32;
#endif
typedef unsigned long long u64;

/* The hook's counter: the block entry that brings it to 0 calls __pathprof_osp_block. */
TLS unsigned long __pathprof_osp_skip = 1;

/* One block of a subpath: unit slot and function (12 + 20 bits), block number. */
struct pblock {
  u32 uf;
  u32 block;
};
#define UF(slot, fn) ((u32)(((u32)(slot) << 20) | (u32)(fn)))
#define UF_SLOT(uf) ((uf) >> 20)
#define UF_FN(uf) ((uf) & 0xfffffu)

/* A hot-list entry: the subpath's id (a 64-bit hash of its blocks), its count in the sample,
   and where its blocks sit in the pool. */
struct entry {
  u64 id;
  u64 count;
  u32 first;
  u32 len;
};

/* Sizes from the build-time bound: entries, index slots (a power of two, at most 3/4 used),
   and the pool of kept blocks in the rest. */
#define ENT_MAX (PATHPROF_OSP_MEMORY / BYTES_PER_ENTRY)
#define IDX_MIN_RAW (ENT_MAX * 4 / 3 + 1)
#define IDX_MAX (IDX_MIN_RAW <= 32 ? 32 : IDX_MIN_RAW <= 64 ? 64 : IDX_MIN_RAW <= 128 ? 128 : IDX_MIN_RAW <= 256 ? 256 \
  : IDX_MIN_RAW <= 512 ? 512 : IDX_MIN_RAW <= 1024 ? 1024 : IDX_MIN_RAW <= 2048 ? 2048 : IDX_MIN_RAW <= 4096 ? 4096 \
  : IDX_MIN_RAW <= 8192 ? 8192 : IDX_MIN_RAW <= 16384 ? 16384 : IDX_MIN_RAW <= 32768 ? 32768 : 65536)
#define POOL_MAX ((PATHPROF_OSP_MEMORY - ENT_MAX * sizeof(struct entry) - IDX_MAX * sizeof(u32)) / sizeof(struct pblock))
#if PATHPROF_OSP_MEMORY / PATHPROF_OSP_ENTRY_BYTES > 49152
#error "PATHPROF_OSP_MEMORY / PATHPROF_OSP_ENTRY_BYTES must stay within 49152 entries"
#endif
#if PATHPROF_OSP_ENTRY_BYTES < 40
#error "PATHPROF_OSP_ENTRY_BYTES must be at least 40"
#endif

static struct entry entries[ENT_MAX] PATHPROF_BIG;
static u32 index_[IDX_MAX] PATHPROF_BIG; /* 0 empty, else entry number + 1 */
static struct pblock pool[POOL_MAX] PATHPROF_BIG;

/* Copies n blocks, forward (so dst may overlap src from below). A plain loop: GCC would turn it
   into a memcpy call, which a freestanding link has no library for. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void copy_blocks(struct pblock *dst, const struct pblock *src, u32 n)
{
  u32 i;
  for (i = 0; i < n; i++) {
    dst[i].uf = src[i].uf;
    dst[i].block = src[i].block;
  }
}

/* The hot list and its sampling state; guarded by the lock. */
static struct {
  int configured;
  u32 epoch;                    /* bumped by every configure: older samples are discarded */
  unsigned long memory;         /* the bound M in bytes */
  u32 ent_cap, idx_cap, pool_cap;
  u32 nent, pool_used;
  unsigned long peak;           /* most bytes ever in use */
  unsigned long rate0;          /* configured mean gap */
  unsigned shift;               /* resamplings: the rate is rate0 << shift */
  unsigned long k_q8;           /* gap scale for the current rate (see gap_scale) */
  u64 seed;
  unsigned maxlog, lengths;
  u32 weight[PATHPROF_OSP_MAXLOG + 1]; /* weight[n]: P(length 2^n) * 65536 */
  u32 rng[4];                   /* the list's own generator (resampling) */
  u64 started, dropped, resamples, samples;
  u32 threads;
  struct __pathprof_unit *units[PATHPROF_OSP_UNITS];
  u32 nunits;
} L;

/* An in-flight sample. */
struct sample {
  u32 len, n, epoch;
  unsigned shift;               /* L.shift when it started: it is thinned if the rate rose since */
  struct pblock b[MAXLEN];
};

/* Per-thread state. */
struct thread {
  int ready, busy;
  u32 epoch;
  u32 rng[4];
  unsigned long gap;            /* block entries until the next start (this one included) */
  u32 nactive;
  struct __pathprof_unit *last_u;
  u32 last_slot;
  struct sample act[PATHPROF_OSP_ACTIVE];
};
static TLS struct thread th;

/* A snapshot was asked for (pathprof_osp_request, e.g. from a signal handler). */
static volatile int requested;

/* ---- lock: a spin lock where threads exist; nothing to guard elsewhere ---- */
#if PATHPROF_OSP_TLS
static volatile int lock_word;
/* Takes the hot-list lock. */
static void lock(void)
{
  while (__atomic_test_and_set(&lock_word, __ATOMIC_ACQUIRE)) {
  }
}
/* Releases the hot-list lock. */
static void unlock(void)
{
  __atomic_clear(&lock_word, __ATOMIC_RELEASE);
}
/* A number unique to the calling thread's first call. */
static u32 next_thread(void)
{
  return __atomic_fetch_add(&L.threads, 1u, __ATOMIC_RELAXED);
}
#else
/* Single-threaded build: no lock. */
static void lock(void)
{
}
/* See lock(). */
static void unlock(void)
{
}
/* See the threaded version. */
static u32 next_thread(void)
{
  return L.threads++;
}
#endif

/* ---- the generator: xoshiro128** (32-bit operations only), seeded through a murmur3 mix ---- */

/* murmur3's 32-bit finaliser: a bijective mix. */
static u32 mix32(u32 h)
{
  h ^= h >> 16;
  h = (h * 0x85ebca6bu) & 0xffffffffu;
  h ^= h >> 13;
  h = (h * 0xc2b2ae35u) & 0xffffffffu;
  h ^= h >> 16;
  return h;
}

/* Rotates a 32-bit value left by k (0 < k < 32). */
static u32 rotl(u32 x, unsigned k)
{
  return ((x << k) | (x >> (32 - k))) & 0xffffffffu;
}

/* The next 32 random bits of state s. */
static u32 rnd(u32 *s)
{
  u32 r = (rotl((s[1] * 5u) & 0xffffffffu, 7) * 9u) & 0xffffffffu, t = (s[1] << 9) & 0xffffffffu;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return r;
}

/* Seeds s from the seed and a stream number (never all zero). */
static void seed_rng(u32 *s, u64 seed, u32 stream)
{
  u32 lo = (u32)(seed & 0xffffffffu), hi = (u32)(seed >> 32);
  s[0] = mix32(lo ^ 0x243f6a88u) ^ mix32(stream);
  s[1] = mix32(hi ^ 0x85a308d3u) ^ mix32(stream + 0x9e3779b9u);
  s[2] = mix32(lo + hi + 0x13198a2eu) ^ mix32(~stream);
  s[3] = mix32(s[0] ^ s[1] ^ s[2] ^ 0x03707344u) | 1u;
}

/* ---- skip lengths: geometric with mean rate, by inversion, in fixed point ---- */

/* -log2(x / 2^32) in 16.16 fixed point for 0 < x < 2^32 (mantissa squaring, 16 bits). */
static u32 neg_log2_q16(u32 x)
{
  unsigned msb = 31, i;
  u32 m, frac = 0;
  while (!(x >> msb))
    msb--;
  m = msb >= 15 ? x >> (msb - 15) : x << (15 - msb); /* [2^15, 2^16): 1.15 mantissa */
  for (i = 0; i < 16; i++) {
    u32 sq = m * m;                                  /* < 2^32 */
    frac <<= 1;
    if (sq >= 0x80000000u) {
      frac |= 1;
      m = sq >> 16;
    } else
      m = sq >> 15;
  }
  return ((u32)(32 - msb) << 16) - frac;
}

/* c = -1/ln(1 - 1/f) in 24.8 fixed point for f < 32 (the mean of floor(c * Exp(1)) + 1 is f). */
static const unsigned short small_c_q8[32] = {
  0, 0, 369, 631, 890, 1147, 1404, 1661, 1917, 2173, 2430, 2686, 2942, 3198, 3454, 3711,
  3967, 4223, 4479, 4735, 4991, 5247, 5503, 5759, 6015, 6271, 6527, 6783, 7039, 7295, 7551, 7807
};

/* The gap scale for mean rate f: c * ln 2 in 24.8 fixed point (for f >= 32, c = f - 1/2 to
   within 1/(12 f)). */
static unsigned long gap_scale(unsigned long f)
{
  unsigned long c = f < 32 ? small_c_q8[f] : (f << 8) - 128;
  unsigned long hi = c >> 16, lo = c & 0xffffUL;
  return hi * LN2_Q16 + ((lo * LN2_Q16) >> 16);
}

/* A geometric gap (>= 1) with mean f: floor(-log2(u) * k) + 1, the product taken exactly in
   32-bit pieces (k < 2^32 for f <= MAX_RATE, -log2(u) <= 32). */
static unsigned long draw_gap(u32 *s, unsigned long k_q8)
{
  u32 x = rnd(s), lq, lh, ll, kh, kl, b1, b2, a, carry;
  if (!x)
    x = 1;
  lq = neg_log2_q16(x);                 /* 16.16 */
  lh = lq >> 16;
  ll = lq & 0xffffu;
  kh = (u32)(k_q8 >> 16);
  kl = (u32)(k_q8 & 0xffffu);
  /* lq * k / 2^24 = lh*kh*2^8 + (ll*kh + lh*kl) / 2^8 + ll*kl / 2^24 */
  b1 = ll * kh;
  b2 = lh * kl;
  a = ll * kl;
  carry = (((b1 & 255u) + (b2 & 255u)) * 256u + (a >> 8)) >> 16;
  return (unsigned long)(lh * kh * 256u + (b1 >> 8) + (b2 >> 8) + carry) + 1;
}

/* The current mean gap. */
static unsigned long current_rate(void)
{
  return L.rate0 << L.shift;
}

/* ---- lengths ---- */

/* Fills L.weight for the distribution: geometric P(2^n) = 2^-n (the longest takes the rest),
   uniform, or long (geometric mirrored: the longest most likely). */
static void set_weights(unsigned dist, unsigned maxlog)
{
  unsigned n;
  u32 left = 65536u;
  for (n = 1; n <= maxlog; n++) {
    unsigned g = dist == PATHPROF_OSP_LONG ? maxlog + 1 - n : n;
    u32 w;
    if (dist == PATHPROF_OSP_UNIFORM) {
      w = 0;
      while ((w + 1) * maxlog <= 65536u)      /* 65536 / maxlog without a division */
        w++;
      if (n <= 65536u - w * maxlog)
        w++;
    } else
      w = g < maxlog ? 65536u >> g : 65536u >> (maxlog - 1);
    if (maxlog == 1)
      w = 65536u;
    L.weight[n] = w;
    left -= w;
  }
  L.weight[maxlog] += left; /* 0 by construction; keeps the sum exact */
}

/* Draws a subpath length (a power of two) from the configured distribution. */
static u32 draw_length(u32 *s)
{
  u32 r = rnd(s) >> 16, acc = 0;
  unsigned n;
  for (n = 1; n < L.maxlog; n++) {
    acc += L.weight[n];
    if (r < acc)
      break;
  }
  return 1u << n;
}

/* ---- the hot list ---- */

/* Bytes the list uses now: entries, the index and the pooled blocks. */
static unsigned long used_bytes(void)
{
  return (unsigned long)(L.nent * sizeof(struct entry) + L.idx_cap * sizeof(u32) +
                         L.pool_used * sizeof(struct pblock));
}

/* The 64-bit id of a subpath: two 32-bit hash lanes over each block's unit checksum, function
   and block, so equal subpaths get equal ids in every run of the same build. */
static u64 subpath_id(const struct pblock *b, u32 n)
{
  u32 h1 = 0x811c9dc5u ^ n, h2 = 0x6a09e667u ^ mix32(n), i;
  for (i = 0; i < n; i++) {
    const struct __pathprof_unit *u = L.units[UF_SLOT(b[i].uf)];
    u32 w[4];
    unsigned k;
    w[0] = (u32)(u->checksum & 0xffffffffu);
    w[1] = (u32)(u->checksum >> 32);
    w[2] = UF_FN(b[i].uf);
    w[3] = b[i].block;
    for (k = 0; k < 4; k++) {
      h1 = mix32(h1 ^ w[k]) + 0x9e3779b9u;
      h2 = mix32((h2 + w[k]) ^ 0x7f4a7c15u);
    }
  }
  return ((u64)h1 << 32) | h2;
}

/* Index slot to start probing at for id. */
static u32 home(u64 id)
{
  return (u32)(id ^ (id >> 32)) & (L.idx_cap - 1);
}

/* True if entry e holds exactly the blocks b[0..n). */
static int same_blocks(const struct entry *e, const struct pblock *b, u32 n)
{
  u32 i;
  if (e->len != n)
    return 0;
  for (i = 0; i < n; i++)
    if (pool[e->first + i].uf != b[i].uf || pool[e->first + i].block != b[i].block)
      return 0;
  return 1;
}

/* Rebuilds the index from the entries. */
static void reindex(void)
{
  u32 i;
  for (i = 0; i < L.idx_cap; i++)
    index_[i] = 0;
  for (i = 0; i < L.nent; i++) {
    u32 p = home(entries[i].id);
    while (index_[p])
      p = (p + 1) & (L.idx_cap - 1);
    index_[p] = i + 1;
  }
}

/* Binomial(c, 1/2): how many of c sampled occurrences survive halving the sampling rate. */
static u64 halve(u64 c)
{
  u64 kept = 0;
  while (c > 0) {
    u32 bits = rnd(L.rng), take = c >= 32 ? 32u : (u32)c;
    if (take < 32)
      bits &= (1u << take) - 1;
    bits = bits - ((bits >> 1) & 0x55555555u);
    bits = (bits & 0x33333333u) + ((bits >> 2) & 0x33333333u);
    kept += (((bits + (bits >> 4)) & 0x0f0f0f0fu) * 0x01010101u & 0xffffffffu) >> 24;
    c -= take;
  }
  return kept;
}

/* Moves the kept sequences to the front of the pool. Sequences were stored in time order, not
   entry order, so the entries holding one are sorted by their place in the pool first (a shell
   sort in the index array, which is rebuilt afterwards anyway); then blocks only move down. */
static void compact_pool(void)
{
  u32 i, j, k = 0, gap, used = 0;
  for (i = 0; i < L.nent; i++)
    if (entries[i].first != NO_SEQ)
      index_[k++] = i;
  for (gap = k / 2; gap > 0; gap /= 2)
    for (i = gap; i < k; i++) {
      u32 v = index_[i];
      for (j = i; j >= gap && entries[index_[j - gap]].first > entries[v].first; j -= gap)
        index_[j] = index_[j - gap];
      index_[j] = v;
    }
  for (i = 0; i < k; i++) {
    struct entry *e = &entries[index_[i]];
    copy_blocks(pool + used, pool + e->first, e->len);
    e->first = used;
    used += e->len;
  }
  L.pool_used = used;
}

/* Gibbons-Matias resampling: doubles the rate (halves the sampling probability), keeps each
   sampled occurrence with probability 1/2, drops entries left at 0, compacts entries and pool.
   Returns 0, or -1 when the rate cannot rise further. */
static int resample(void)
{
  u32 i, n = 0;
  if (current_rate() >= MAX_RATE / 2)
    return -1;
  L.shift++;
  L.k_q8 = gap_scale(current_rate());
  L.resamples++;
  for (i = 0; i < L.nent; i++) {
    u64 c = halve(entries[i].count);
    if (!c)
      continue;
    entries[n].id = entries[i].id;
    entries[n].count = c;
    entries[n].len = entries[i].len;
    entries[n].first = entries[i].first;
    n++;
  }
  L.nent = n;
  compact_pool();
  reindex();
  return 0;
}

/* The entry with this id, or 0. */
static struct entry *lookup(u64 id)
{
  u32 p = home(id);
  for (; index_[p]; p = (p + 1) & (L.idx_cap - 1))
    if (entries[index_[p] - 1].id == id)
      return &entries[index_[p] - 1];
  return 0;
}

/* Keeps e's blocks (a subpath sampled a second time): resampling first if the pool is full,
   as when the list is. Returns e (0 if resampling dropped it). */
static struct entry *keep_blocks(struct entry *e, const struct pblock *b, u32 n)
{
  u64 id = e->id;
  while (L.pool_used + n > L.pool_cap) {
    if (resample() != 0 || !(e = lookup(id)))
      return 0;
  }
  e->first = L.pool_used;
  copy_blocks(pool + L.pool_used, b, n);
  L.pool_used += n;
  return e;
}

/* Counts one finished sample of n blocks (lock held). An entry keeps its blocks from its second
   sample on: most subpaths are sampled once, and for them the id and count are enough. */
static void insert(const struct pblock *b, u32 n)
{
  u64 id = subpath_id(b, n);
  struct entry *e = lookup(id);
  u32 p;
  if (e && (e->len != n || (e->first != NO_SEQ && !same_blocks(e, b, n)))) {
    L.dropped++; /* two subpaths with one 64-bit id: counted as neither */
    return;
  }
  if (e) {
    e->count++;
    L.samples++;
    if (e->first == NO_SEQ)
      keep_blocks(e, b, n);
  } else {
    while (L.nent == L.ent_cap) {
      if (resample() != 0) {
        L.dropped++;
        return;
      }
      if (rnd(L.rng) & 1u) /* the new sample is held to the new rate too */
        return;
    }
    p = home(id);
    while (index_[p])
      p = (p + 1) & (L.idx_cap - 1);
    entries[L.nent].id = id;
    entries[L.nent].count = 1;
    entries[L.nent].first = NO_SEQ;
    entries[L.nent].len = n;
    index_[p] = ++L.nent;
    L.samples++;
  }
  if (used_bytes() > L.peak)
    L.peak = used_bytes();
}

/* a / b by shift and subtract: cores without a divide instruction would call libgcc for `/`. */
static unsigned long quotient(unsigned long a, unsigned long b)
{
  unsigned long q = 0, bit = 1;
  while (!(b >> (8 * sizeof b - 1)) && (b << 1) <= a) {
    b <<= 1;
    bit <<= 1;
  }
  for (; bit; b >>= 1, bit >>= 1)
    if (a >= b) {
      a -= b;
      q |= bit;
    }
  return q;
}

/* Sets the list's bound and sampling parameters and empties it (lock held). */
static int configure(const struct pathprof_osp_config *c)
{
  unsigned long m = c && c->memory ? c->memory : (unsigned long)PATHPROF_OSP_MEMORY;
  unsigned long rate = c && c->rate ? c->rate : PATHPROF_OSP_RATE;
  unsigned maxlog = c && c->max_log ? c->max_log : PATHPROF_OSP_MAXLOG;
  unsigned dist = c ? c->lengths : PATHPROF_OSP_GEOMETRIC;
  u32 idx = 32, ent;
  if (m > PATHPROF_OSP_MEMORY || m < 1024 || rate >= MAX_RATE || maxlog > PATHPROF_OSP_MAXLOG ||
      dist > PATHPROF_OSP_LONG)
    return -1;
  ent = (u32)quotient(m, BYTES_PER_ENTRY);
  while (idx < IDX_MAX && idx < ent + quotient(ent, 3) + 1)
    idx *= 2;
  L.memory = m;
  L.idx_cap = idx;
  L.ent_cap = ent < ENT_MAX ? ent : (u32)ENT_MAX;
  L.pool_cap = (u32)((m - L.ent_cap * sizeof(struct entry) - idx * sizeof(u32)) / sizeof(struct pblock));
  if (L.pool_cap > POOL_MAX)
    L.pool_cap = (u32)POOL_MAX;
  L.nent = L.pool_used = 0;
  L.rate0 = rate;
  L.shift = 0;
  L.k_q8 = gap_scale(rate);
  L.seed = c && c->seed ? c->seed : DEFAULT_SEED;
  L.maxlog = maxlog;
  L.lengths = dist;
  set_weights(dist, maxlog);
  seed_rng(L.rng, L.seed, 0xffffffffu);
  L.started = L.dropped = L.resamples = L.samples = 0;
  L.peak = used_bytes();
  L.epoch++;
  L.configured = 1;
  __pathprof_osp_dump = pathprof_osp_snapshot; /* the text dump carries the snapshot from now on */
  reindex();
  return 0;
}

/* ---- sampling ---- */

/* The unit's slot in the list's unit table (adding it), or PATHPROF_OSP_UNITS when full. */
static u32 unit_slot(struct thread *t, struct __pathprof_unit *u)
{
  u32 i;
  if (t->last_u == u)
    return t->last_slot;
  lock();
  for (i = 0; i < L.nunits && L.units[i] != u; i++) {
  }
  if (i == L.nunits && i < PATHPROF_OSP_UNITS)
    L.units[L.nunits++] = u;
  unlock();
  if (i < PATHPROF_OSP_UNITS) {
    t->last_u = u;
    t->last_slot = i;
  }
  return i;
}

/* A finished sample goes to the list, thinned if the rate rose since it started. */
static void finish(struct thread *t, const struct sample *s)
{
  lock();
  if (s->epoch == L.epoch && s->len == s->n) {
    unsigned behind = L.shift - s->shift;
    u32 r = rnd(t->rng);
    if (behind == 0 || (behind < 32 && !(r & ((1u << behind) - 1))))
      insert(s->b, s->n);
  }
  unlock();
}

/* Sets up the calling thread: the list (first thread), its generator and its first gap. */
static void thread_start(struct thread *t)
{
  if (!L.configured) {
    __pathprof_osp_backend_init();
    lock();
    if (!L.configured)
      configure(0);
    unlock();
  }
  lock();
  seed_rng(t->rng, L.seed, next_thread());
  t->epoch = L.epoch;
  t->gap = draw_gap(t->rng, L.k_q8);
  unlock();
  t->nactive = 0;
  t->last_u = 0;
  t->ready = 1;
}

/* Moves the last active sample into slot i (field by field: no memcpy in a freestanding build). */
static void remove_sample(struct thread *t, u32 i)
{
  struct sample *d = &t->act[i];
  const struct sample *s = &t->act[--t->nactive];
  if (d == s)
    return;
  d->len = s->len;
  d->n = s->n;
  d->epoch = s->epoch;
  d->shift = s->shift;
  copy_blocks(d->b, s->b, s->n);
}

/* Records one block entry while samples are running or one starts here. */
static void step(struct thread *t, struct __pathprof_unit *u, unsigned long fn, unsigned long block, int start)
{
  u32 i = 0, slot = unit_slot(t, u);
  int ok = slot < PATHPROF_OSP_UNITS && fn < 0x100000UL && block <= 0xffffffffUL;
  while (i < t->nactive) {
    struct sample *s = &t->act[i];
    if (ok) {
      s->b[s->n].uf = UF(slot, fn);
      s->b[s->n].block = (u32)block;
    }
    s->n += ok ? 1 : 0;
    if (!ok || s->n == s->len) {
      if (ok)
        finish(t, s);
      else {
        lock();
        L.dropped++;
        unlock();
      }
      remove_sample(t, i);
      continue;
    }
    i++;
  }
  if (!start)
    return;
  lock();
  L.started++;
  if (t->nactive == PATHPROF_OSP_ACTIVE || !ok)
    L.dropped++;
  else {
    struct sample *s = &t->act[t->nactive++];
    s->len = draw_length(t->rng);
    s->n = 1;
    s->epoch = L.epoch;
    s->shift = L.shift;
    s->b[0].uf = UF(slot, fn);
    s->b[0].block = (u32)block;
  }
  t->gap = draw_gap(t->rng, L.k_q8);
  unlock();
}

/* The instrumented code's slow path: the skip counter ran out at a block entry. */
void __pathprof_osp_block(struct __pathprof_unit *u, unsigned long fn, unsigned long block)
{
  struct thread *t = &th;
  int start;
  if (t->busy) { /* a signal handler's blocks while this thread is in here: not observed */
    __pathprof_osp_skip = 1;
    return;
  }
  t->busy = 1;
  if (!t->ready)
    thread_start(t);
  if (requested) {
    requested = 0;
    __pathprof_osp_backend_request();
  }
  if (t->epoch != L.epoch) { /* reconfigured: start afresh */
    t->nactive = 0;
    t->epoch = L.epoch;
    t->gap = draw_gap(t->rng, L.k_q8);
  }
  if (t->nactive)
    start = --t->gap == 0;
  else
    start = 1; /* the skip counter was the gap */
  step(t, u, fn, block, start);
  __pathprof_osp_skip = t->nactive ? 1 : t->gap;
  t->busy = 0;
}

/* ---- the public API ---- */

/* Sets the bound, rate, seed and length distribution, and empties the list. */
int pathprof_osp_configure(const struct pathprof_osp_config *c)
{
  int rc;
  lock();
  rc = configure(c);
  unlock();
  return rc;
}

/* Asks for a snapshot at the next block entry of this thread; async-signal-safe. */
void pathprof_osp_request(void)
{
  requested = 1;
  __pathprof_osp_skip = 1;
}

/* Copies the list's figures into s. */
void pathprof_osp_stats(struct pathprof_osp_stats *s)
{
  lock();
  s->rate = current_rate();
  s->samples = L.samples;
  s->started = L.started;
  s->dropped = L.dropped;
  s->resamples = L.resamples;
  s->memory = L.memory;
  s->used = used_bytes();
  s->peak = L.peak;
  s->capacity = (unsigned long)(L.ent_cap * sizeof(struct entry) + L.idx_cap * sizeof(u32) +
                                L.pool_cap * sizeof(struct pblock));
  s->entries = L.nent;
  unlock();
}

/* The OSPH record (doc/formats.md section 2). */
static void put_osph(struct __pathprof_out *o)
{
  u32 i, j, nblocks = 0;
  __pathprof_out_u32(o, OSPH_TAG);
  __pathprof_out_u32(o, 1);
  __pathprof_out_u64(o, current_rate());
  __pathprof_out_u64(o, L.seed);
  __pathprof_out_u64(o, L.memory);
  __pathprof_out_u64(o, used_bytes());
  __pathprof_out_u64(o, L.peak);
  __pathprof_out_u64(o, L.started);
  __pathprof_out_u64(o, L.dropped);
  __pathprof_out_u64(o, L.resamples);
  __pathprof_out_u32(o, L.maxlog);
  __pathprof_out_u32(o, L.lengths);
  for (i = 1; i <= L.maxlog; i++)
    __pathprof_out_u32(o, L.weight[i]);
  if (L.maxlog % 2)
    __pathprof_out_u32(o, 0);
  for (i = 0; i < L.nent; i++)
    nblocks += entries[i].first != NO_SEQ ? entries[i].len : 0;
  __pathprof_out_u64(o, L.nent);
  __pathprof_out_u64(o, nblocks);
  for (i = 0; i < L.nent; i++) {
    __pathprof_out_u64(o, entries[i].id);
    __pathprof_out_u64(o, entries[i].count);
    __pathprof_out_u32(o, entries[i].len);
    __pathprof_out_u32(o, entries[i].first != NO_SEQ); /* flags: 1 = its blocks follow */
  }
  for (i = 0; i < L.nent; i++)
    for (j = 0; entries[i].first != NO_SEQ && j < entries[i].len; j++) {
      const struct pblock *b = &pool[entries[i].first + j];
      __pathprof_out_u32(o, UF_SLOT(b->uf));
      __pathprof_out_u32(o, UF_FN(b->uf));
      __pathprof_out_u32(o, b->block);
    }
  if (nblocks % 2)
    __pathprof_out_u32(o, 0);
}

/* Streams a snapshot: a profile (doc/formats.md section 2) with a unit record for each unit the
   list can name, then the OSPH record. Holds the list's lock while fn runs. */
int pathprof_osp_snapshot(pathprof_write_fn fn, void *ctx)
{
  struct __pathprof_out o;
  u32 i;
  int rc;
  if (!fn)
    return -1;
  lock();
  if (!L.configured)
    configure(0);
  __pathprof_out_begin(&o, fn, ctx);
  for (i = 0; i < L.nunits; i++)
    __pathprof_out_unit(&o, L.units[i]);
  put_osph(&o);
  rc = __pathprof_out_end(&o, L.nunits);
  unlock();
  return rc;
}
