/* Probe plan -> text edits on the preprocessed unit, and applying them. */
#ifndef PP_REWRITE_H
#define PP_REWRITE_H
#include "cfg.h"
#include "model/tables.h"

/* How an array counter is bumped: plain `c[i]++`; a relaxed GNU atomic add; a C11 atomic
   compound assignment; plainly through the thread's counter base, read once per activation
   (the unit's array for the first thread, a shard for each other: rt/posix/shards.c); on
   targets without 64-bit atomic adds, two 32-bit ones with a carry (__pathprof_aadd, in the
   prelude) or, without any, the runtime's interrupt-masked add; or plain while glibc's
   __libc_single_threaded says the process has one thread and the GNU atomic add from the first
   pthread_create on (thread mode). The hash table is atomic in all but the plain form (and plain
   while one thread runs in thread mode and in base mode's tested form, PP_COUNT_BASE_TESTED). */
enum { PP_COUNT_PLAIN, PP_COUNT_GNU_ATOMIC, PP_COUNT_C11_ATOMIC, PP_COUNT_BASE, PP_COUNT_ATOMIC_CARRY,
       PP_COUNT_ATOMIC_MASKED, PP_COUNT_THREAD, PP_COUNT_BASE_TESTED };
/* Whether a counting form asks for atomic updates (kpath mode: its ids then go to
   __pathprof_kpath_id_atomic). */
#define pp_kpath_atomic(counting) ((counting) != PP_COUNT_PLAIN && (counting) != PP_COUNT_THREAD)
/* Whether array counts go through the thread's counter base. */
#define pp_count_base(counting) ((counting) == PP_COUNT_BASE || (counting) == PP_COUNT_BASE_TESTED)

/* The test thread mode makes before each count: glibc clears it before the first thread starts
   (and never sets it again while threads run), so one predictable branch keeps one-thread
   programs at plain counting. */
#define PP_ONE_THREAD "__libc_single_threaded"

/* How a function keeps its counts. */
typedef struct {
  int fn;            /* index of the function in the unit's tables */
  bool hash;         /* counts go to the runtime hash table, not an array */
  uint64_t offset;   /* array mode: first counter; paths + 1 slots, the last for overflow */
  bool wide;         /* the register needs unsigned long long */
  bool trace;        /* also log block entries and returns (the oracle build) */
  unsigned counter_bits;  /* 64, or 32: saturating counters in a layout-2 unit (formats.md §1) */
  bool osp;          /* online subpath profiling: block-entry hooks only, no path counting */
  const char *ext;   /* "__extension__ " for GNU compilers, else "" */
  int counting;      /* how an array counter is bumped: PP_COUNT_* */
  bool relocatable;  /* counters through __pathprof_u.counters (continuous mode may map them) */
  bool edge;         /* edge mode: chords count into their slots (offset + slot), no register */
  int entry_slot;    /* edge mode: the slot counting entries (the virtual exit->entry chord), or -1 */
  bool *probe;       /* out, one per edge: code runs when the edge is taken (NULL: not wanted) */
  unsigned kpath;    /* kpath mode: k (ids go to __pathprof_kpath_id), else 0 */
  bool ppp;          /* ppp slots: the register holds PPP id << bits | Ball-Larus id */
  uint64_t slots;    /* ppp: counters from offset, one per PPP id */
  int bits;          /* ppp: width of the Ball-Larus field */
  uint64_t table;    /* ppp: entries of the expect table, a power of two >= slots */
  const uint64_t *expect;  /* ppp: per entry the register value that counts in that slot */
  bool *uses_expect; /* ppp: set when the code reads the table __pathprof_e<fn> */
  bool promote;      /* count the rounds of tight loops in locals (translator/pathcc/promote.c) */
  const char *fall_mark;  /* the annotation after code that falls into a case label from a block
                             without statements: GCC's comment, or the attribute clang needs too */
  bool ctor;         /* the unit registers from a constructor: no check at function entry */
  bool cache;        /* hash mode: path ends look in the function's inline cache __pathprof_k<fn>
                        first (PP_CACHE_SLOTS entries pointing into the hash table) */
  bool frames;       /* link a frame into the thread's chain and mark it before every call */
  bool lazy_frame;   /* frames: linked at the first marked call the activation makes, not at entry */
  const PPSplit *splits;  /* edge mode: the function's splits (tables.h), whose returns count at
                             the split site of their first call */
  size_t nsplits;
} PPLayout;

/* The inline cache of a hash-mode function: 2^PP_CACHE_BITS pointers to hash entries, one
   chosen per path id by pp_cache_slot; they start at two dummy entries in __pathprof_z, the
   one whose id no path id choosing that slot can have (pp_cache_dummy). */
#define PP_CACHE_BITS 8
#define PP_CACHE_SLOTS (1u << PP_CACHE_BITS)
unsigned pp_cache_slot(uint64_t id, bool wide);
unsigned pp_cache_dummy(unsigned slot, bool wide);

typedef struct { unsigned off; int side, rank, seq; char *text; } PPEdit;
typedef VEC(PPEdit) PPEdits;

/* Decides whether the path register fits unsigned long (values and increments below 2^31). */
bool pp_rewrite_needs_wide(const PPGraph *g);
/* Adds the edits that instrument f. Returns the number of sites that execute probe code. */
int pp_rewrite_function(PPEdits *ed, const PPFunc *f, const PPLayout *lay, const bool *zero);
/* Applies edits (sorted here) to text, inserting prelude after the first line. */
char *pp_rewrite_apply(const char *text, size_t len, PPEdits *ed, const char *prelude, size_t *outlen);
void pp_edits_free(PPEdits *ed);
#endif
