#!/bin/sh
# csmith random programs, the first 8 usable seeds (500 with REGRESS_FULL=1): plain vs pathcc, same checksum, exact counts.
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${REGRESS_FULL:-0}" = 1 ]; then exec sh "$top/regress/csmith.sh" --full; fi
CSMITH_COUNT=${CSMITH_COUNT:-8} exec sh "$top/regress/csmith.sh"
