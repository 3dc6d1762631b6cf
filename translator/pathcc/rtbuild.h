/* The hosted runtime for a target other than pathcc's own, built on first use and cached. */
#ifndef PP_RTBUILD_H
#define PP_RTBUILD_H
#include "ccprobe.h"
#include <stdbool.h>
#include <stddef.h>

/* The directory of the running pathcc (the caller's to free), or NULL: the runtime and its
   sources are found beside it wherever the build tree or the installation is. */
char *pp_exe_dir(void);

/* The runtime archive (libpathprof.a, the caller's to free) for the compiler command
   words[0..nwords) with the user's target flags[0..nflags) (gcc -m32, a cross compiler for a
   Linux target): built from the runtime's sources next to pathcc with that compiler, once per
   compiler, flags and sources, into pathcc's cache (concurrent builds wait for the first). NULL
   with *why (the caller's to free) when it cannot be built or there is no cache; a failure is
   cached too, so a build's other units do not try again. notls builds the runtime without
   thread-local storage (tcc). Scratch files go to tmp; run runs the compiles. */
char *pp_rt_build(char **words, size_t nwords, char **flags, size_t nflags, bool notls, const char *tmp, PPRunFn run,
                  void *ctx, char **why);
#endif
