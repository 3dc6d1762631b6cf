/* derive.h: counts that follow from others (derive.c). */
#ifndef PP_DERIVE_H
#define PP_DERIVE_H
#include <clang-c/Index.h>
#include "cfg.h"
#include "model/tables.h"

/* Path mode: marks the functions of the unit whose one path's count is the number of times
   their callers' paths ran their calls (static, one path, no calls of their own, every
   reference a call from an instrumented function of the unit), so they get no counter, and
   lays out the other functions' arrays without them. Returns how many it marked. */
size_t pp_derive(CXTranslationUnit tu, const PPFunc *funcs, PPTabFunc *tabs, size_t n, uint64_t *ncounters);
#endif
