#!/bin/sh
# GCC C torture tests (every 100th of gcc.c-torture/execute, from gcc-12-source; all with REGRESS_FULL=1): plain vs pathcc, exact counts.
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${REGRESS_FULL:-0}" = 1 ]; then exec sh "$top/regress/torture.sh" --full; fi
TORTURE_EVERY=${TORTURE_EVERY:-100} exec sh "$top/regress/torture.sh"
