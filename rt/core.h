/* core.h: what the freestanding runtime core offers its I/O back ends (not for user programs). */
#ifndef PATHPROF_CORE_H
#define PATHPROF_CORE_H
#include "unit.h"
#include "pathprof.h"

/* Defined by every back end; the core calls it once, at the first registration of any unit. */
void __pathprof_backend_init(void);

/* The first registered unit, or 0 if none. Units registered later come first. */
struct __pathprof_unit *__pathprof_first(void);

/* The unit registered before u, or 0 at the end of the registry. */
struct __pathprof_unit *__pathprof_next(struct __pathprof_unit *u);

#endif
