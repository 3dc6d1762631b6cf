/* What a C compiler is and builds for, asked once per compiler and target flags and cached. */
#ifndef PP_CCPROBE_H
#define PP_CCPROBE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { PP_CC_OTHER, PP_CC_GCC, PP_CC_CLANG, PP_CC_TCC } PPCCFamily;

typedef struct {
  bool known;              /* the compiler listed its predefined macros (-dM -E) */
  PPCCFamily family;
  int major;               /* the first number of its version (0: unknown) */
  char target[256];        /* what it builds for: arch, sizes, byte order, float ABI, OS, object format, libc */
  bool host;               /* the same target as the runtime next to pathcc (true when unknown) */
  int int_bits;            /* 0: unknown */
  long stdc;               /* __STDC_VERSION__, 0: none */
  bool gnu;                /* GNU C: __extension__, __attribute__, __atomic builtins, __thread */
  bool c11_atomics;        /* _Atomic and _Thread_local (C11 without __STDC_NO_ATOMICS__) */
  int exclude_libs;        /* a link accepts -Wl,--exclude-libs: 1, 0, -1 not asked yet */
  char *macros;            /* its -dM -E text (with <limits.h>), NULL when it cannot say */
} PPCompiler;

/* Runs argv (NULL-terminated) with stdout to out and stderr to err (NULL: /dev/null);
   returns the exit status. The driver's runner, so --verbose shows the probes too. */
typedef int (*PPRunFn)(char **argv, const char *out, const char *err, void *ctx);

/* Fills c (overwritten; its macros are the caller's to free) for the compiler command
   words[0..nwords) with the user's target-choosing flags (pp_cc_target_flag picks them); with
   link, also whether links take -Wl,--exclude-libs. Scratch files go to dir. Never fails: what
   the compiler cannot tell stays unknown. */
void pp_cc_probe(PPCompiler *c, char **words, size_t nwords, char **flags, size_t nflags, const char *dir,
                 bool link, PPRunFn run, void *ctx);
/* Does the option (with its separate value, when takes a value) change what the compiler
   targets or how it links, so that probes must see it? */
bool pp_cc_target_flag(const char *opt);
/* The target the runtime next to pathcc was built for, in pp_cc_probe's spelling. */
const char *pp_cc_host_target(void);
/* The value of the target's predefined macro name as a number, or dflt when it is not defined
   (or the compiler could not say). */
long pp_cc_macro(const PPCompiler *c, const char *name, long dflt);
/* How --update=atomic adds on the target (PP_ATOMIC_* of instrument.h): 64-bit lock-free adds
   where they exist (hosts, AArch64, RV64A), else 32-bit ones with a carry on little-endian
   targets with a 32-bit int (Cortex-M3/M4/M7, RV32A), else the runtime's interrupt-masked add
   (Cortex-M0, AVR, RV32I: no atomic add at all). */
int pp_cc_atomic_kind(const PPCompiler *c);
/* Whether the compiler is known to have neither __thread nor _Thread_local (tcc): no frames, no
   kpath or osp on the host, and the runtime without thread-local storage. */
bool pp_cc_no_tls(const PPCompiler *c);
/* Whether the target's C library says when a program starts its second thread (GNU C with
   glibc 2.32 or later, which clears __libc_single_threaded before the first pthread_create
   returns): what --update=auto needs. */
bool pp_cc_libc_threads(const PPCompiler *c);
/* Whether the target is AVR (const data is copied to RAM unless placed in program memory). */
bool pp_cc_avr(const PPCompiler *c);
/* Whether units call the runtime through its register-keeping entry (rt/core/partial.c): GCC
   (-fipa-ra uses what the getter and frame link really clobber) for the runtime's x86-64 host,
   in a code model where the asm's direct call and RIP-relative operands hold. */
bool pp_cc_keep_calls(const PPCompiler *c);
/* Whether the compile with the user's flags args[0..n) may read comments, so that preprocessing
   must keep them: GCC's -Wimplicit-fallthrough (-Wextra) takes a comment for the attribute,
   clang's -Wdocumentation parses them; any other compiler may. */
bool pp_cc_reads_comments(const PPCompiler *c, char **args, size_t n);
/* Whether the preprocessed file ipath has a diagnostic pragma that may turn such a warning on. */
bool pp_pragma_reads_comments(const char *ipath);
/* Whether the compile makes code for a shared object (the compiler says __PIC__, not __PIE__):
   units linked with a hosted runtime then reach its thread-locals through the compiler's dynamic
   TLS model, which any number of dlopen'ed objects can have, never initial-exec. */
bool pp_cc_shared_code(const PPCompiler *c);
/* The flag that makes such a compile use TLS descriptors (GCC for x86, when the user's flags
   args[0..n) choose no dialect), or NULL. */
const char *pp_cc_tls_dialect(const PPCompiler *c, char **args, size_t n);
/* A program as a file (the caller's to free): a word with a slash as it is, else the first
   executable of that name on PATH; NULL when there is none. */
char *pp_cc_which(const char *w);
/* A file of pathcc's cache ($PATHCC_CACHE_DIR, else $XDG_CACHE_HOME/pathcc or ~/.cache/pathcc,
   made when missing) named kind-HASH, the hash of salt, the compiler's words, the files they name
   (path, size, time: an upgrade is a new compiler) and the flags; NULL without a cache. */
char *pp_cc_cache_path(const char *kind, uint64_t salt, char **words, size_t nwords, char **flags, size_t nflags);
/* The family's name: gcc, clang, tcc or cc. */
const char *pp_cc_family_name(PPCCFamily f);
#endif
