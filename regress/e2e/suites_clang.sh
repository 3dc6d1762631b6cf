#!/bin/sh
# The outside suites with clang as the compiler: a subset of GCC's torture tests (every 120th, about 13) and 3 csmith seeds, statement decisions (make check-torture / check-csmith SUITE_CC=clang run all).
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v clang >/dev/null 2>&1; then
  echo "skip suites-clang: clang is not installed (Debian package clang)"
  exit 0
fi
SUITE_CC=clang TORTURE_EVERY=${TORTURE_EVERY:-120} TORTURE_DECISIONS=${TORTURE_DECISIONS:-statements} sh "$top/regress/torture.sh"
SUITE_CC=clang CSMITH_COUNT=${CSMITH_COUNT:-3} CSMITH_DECISIONS=${CSMITH_DECISIONS:-statements} sh "$top/regress/csmith.sh"
