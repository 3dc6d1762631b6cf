/* One translation unit through the pipeline: parse, cfg, dag, number, place, rewrite, tables. */
#ifndef PP_INSTRUMENT_H
#define PP_INSTRUMENT_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "interesting.h"
#include "prefixmap.h"

/* Counter update policies, as gcc's -fprofile-update (doc/runtime.md, "Threads"). */
enum { PP_UPDATE_SINGLE, PP_UPDATE_ATOMIC, PP_UPDATE_PREFER_ATOMIC, PP_UPDATE_AUTO };
/* Which activations keep frames (--frames=, doc/coverage.md "Activations that never finish"): those that may stop in a
   call they make (0, the default), every one, or none. */
enum { PP_FRAMES_CALLS, PP_FRAMES_ALL, PP_FRAMES_NONE };
/* How an atomic add of a 64-bit counter is done on the target (--update=atomic). */
enum { PP_ATOMIC_64, PP_ATOMIC_32_CARRY, PP_ATOMIC_MASKED };
/* What the instrumented code records (--mode=). */
typedef enum { PP_MODE_PATH, PP_MODE_EDGE, PP_MODE_KPATH, PP_MODE_PPP, PP_MODE_OSP } PPMode;
/* Modes other than edge all place path mode's register increments. */
#define PP_MODE_HAS_PATHS(m) ((m) != PP_MODE_EDGE)
/* How edge frequencies are estimated for probe placement (--estimate=). */
typedef enum { PP_EST_WU_LARUS, PP_EST_LOOP } PPEstimator;

typedef struct {
  const char *source;       /* the user's source file, for the tables */
  const char *tables;       /* absolute path of the tables file to write */
  const char *tables_key;   /* the tables' name as the object records it (the user's prefix maps
                               applied), or NULL for tables itself */
  const PPPrefixMaps *maps; /* the user's -f*-prefix-map=OLD=NEW (the checksum hashes paths through them) */
  bool trace;               /* also log block entries (the oracle build) */
  bool osp_tls;             /* osp: the skip counter is per thread (the compiler targets the host) */
  bool host;                /* the compiler targets the host: our POSIX runtime, with threads */
  bool dynamic_tls;         /* code for a shared object (__PIC__ without __PIE__): the runtime's
                               thread-locals are declared without initial-exec, so that any number
                               of such objects loads with dlopen (glibc's static TLS is small) */
  int frames;               /* --frames=: PP_FRAMES_CALLS (the default), _ALL or _NONE */
  uint64_t array_limit;     /* functions with more paths count in the hash table */
  uint64_t array_room;      /* when nonzero, the most array counters a unit may have: a function
                               that would pass it counts in the hash table (hosted targets) */
  unsigned long hash_cap;   /* entries of the unit's hash table */
  bool hash_grows;          /* the runtime may give the hash table more room when it fills
                               (hosted targets, --hash-cap not given): no path end dropped */
  bool system_headers;      /* also instrument functions defined in system headers */
  bool derive;              /* path mode: one-path helpers called only from counted code get no
                               counter; their count follows from their callers' (derive.c) */
  bool conditions;          /* --decisions=conditions: &&, || and ?: are decisions */
  unsigned counter_bits;    /* 64, or 32 (--counter-bits=32: saturating, half the RAM) */
  int update;               /* --update=: PP_UPDATE_SINGLE, _ATOMIC, _PREFER_ATOMIC or _AUTO */
  bool libc_threads;        /* the C library says when a second thread starts (glibc 2.32's
                               __libc_single_threaded): what --update=auto's hash-mode ends,
                               and its counts where there is no per-thread base, switch on */
  bool c11;                 /* the user's -std allows C11 (_Atomic, _Thread_local) */
  bool no_tls;              /* a host compiler without thread-local storage (tcc): no frames */
  int atomic;               /* PP_ATOMIC_*: what the target's atomic adds can do */
  bool progmem;             /* AVR: the tables' name goes to program memory (the runtime reads it so) */
  bool fallthrough_attr;    /* the compiler takes __attribute__((__fallthrough__)); (gcc 7, clang 10) */
  bool continuous;          /* --continuous: counters addressed through the unit descriptor */
  bool ctor;                /* the target runs constructors (a hosted GNU target): the unit registers
                               from one, so functions need no registration check at entry */
  bool keep_calls;          /* the base getter and the frames' growth call the runtime through its
                               register-keeping entry (GCC on x86-64): callers keep their
                               registers across them */
  bool lbss;                /* big arrays go to .lbss, after every .bss (GCC on the x86-64 host) */
  PPMode mode;              /* what is counted: paths, edges, k-iteration paths, ppp slots or osp samples */
  PPEstimator estimator;    /* static edge-frequency estimate for placement */
  const char *placement_profile;  /* an earlier profile whose counts weight placement, or NULL */
  unsigned k;               /* kpath: BL paths per k-iteration path (2..PP_K_MAX); 0: --k=auto, each
                               function the k its prime paths need */
  const PPInteresting *interesting;   /* --mode=ppp: the paths to number compactly (else NULL) */
  uint64_t ppp_keep_array;  /* ppp: functions with at most this many paths keep path mode's array */
  char **fn_include, **fn_exclude;    /* function-name globs: instrument these / not these */
  size_t n_fn_include, n_fn_exclude;
} PPOptions;

/* A hosted unit's array counters by default (path mode): 2^24 counters, 128 MiB of virtual
   memory per unit at most, lazily mapped; the most a sparse profile record holds
   (rt/profile SPRS_MAX_COUNTERS), so a run's appended stream stays sparse. */
#define PP_HOST_ARRAY_ROOM (1ULL << 24)
/* Arrays of at least this many bytes go to .lbss where PPOptions.lbss says. */
#define PP_LBSS_BYTES 65536
#define PP_K_MAX 64       /* the most BL paths per k-iteration path */

typedef struct {
  char *out;        /* instrumented text (NULL if nothing was instrumented) */
  size_t outlen;
  int instrumented; /* functions */
  char *warning;    /* one line for the user about functions left alone, or NULL */
  bool recheck;     /* the instrumented unit may be quiet where the source is not (braces pathcc
                       added around a misleadingly indented body): ask the source when warning */
} PPResult;

/* Instruments the preprocessed file ipath. Returns 0, or -1 with *err set when the unit
   cannot be handled at all (the caller then compiles it unchanged). */
/* The hosted defaults of the counters' options (o->ctor, mode and continuous already set): the
   array limit from memory and a hash table that grows, unless the options were given. */
void pp_hosted_counters(PPOptions *o, bool array_limit_given, bool hash_cap_given);
/* A mode's name (path, edge, kpath, ppp, osp), and the mode a name stands for (-1: none). */
const char *pp_mode_name(PPMode m);
int pp_mode_named(const char *name);

int pp_instrument(const PPOptions *o, const char *ipath, PPResult *res, char **err);
#endif
