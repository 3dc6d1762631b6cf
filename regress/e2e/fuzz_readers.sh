#!/bin/sh
# libFuzzer on the profile reader, the tables reader and the log importer (regress/fuzz/), each FUZZ_TIME seconds (default 60) from corpora seeded with real files; inputs that once crashed a reader are replayed first. REGRESS_FULL only (make check-full).
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${REGRESS_FULL:-}" ]; then
  echo "skip fuzz-readers: runs with REGRESS_FULL=1 (make check-full)"
  exit 0
fi
if [ ! -x "$top/build/fuzz/fuzz_profile" ]; then
  echo "skip fuzz-readers: harnesses not built (make fuzz-build needs clang with libFuzzer)"
  exit 0
fi
FUZZ_OUT=$top/regress/out/fuzz-runs sh "$top/regress/fuzz/run.sh"
