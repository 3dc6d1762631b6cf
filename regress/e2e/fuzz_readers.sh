#!/bin/sh
# The libFuzzer harnesses of regress/fuzz/ (the profile reader, the tables reader, the log importer).
# make check builds them (clang, ASan and UBSan) and runs each once over its seed corpus (real files
# of every mode) and the inputs that once crashed it, so a harness that stops building or a reader
# that crashes on a real file fails here; REGRESS_FULL (make check-full) fuzzes each for FUZZ_TIME
# seconds (default 60).
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/regress/out/fuzz-runs
mkdir -p "$out"
cc=${FUZZ_CC:-clang}
# libFuzzer itself: without it the harnesses cannot be built, which is not our failure
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return d && n; }\n' >"$out/probe.c"
if ! command -v "$cc" >/dev/null 2>&1 || ! "$cc" -fsanitize=fuzzer,address,undefined -o "$out/probe" "$out/probe.c" >"$out/probe.log" 2>&1; then
  echo "skip fuzz-readers: $cc with libFuzzer is not available (see $out/probe.log)"
  exit 0
fi
if make -C "$top" --no-print-directory fuzz-build >"$out/build.log" 2>&1; then echo "ok fuzz-build"
else echo "not ok fuzz-build: make fuzz-build failed: $(grep -m1 -E 'error|undefined reference' "$out/build.log")"; exit 0; fi
if [ -z "${REGRESS_FULL:-}" ]; then
  rm -rf "$top/build/fuzz/corpus"  # seeds from this build of pathcc, every mode it has now
  FUZZ_RUNS=0 FUZZ_OUT=$out sh "$top/regress/fuzz/run.sh"
else
  FUZZ_OUT=$out sh "$top/regress/fuzz/run.sh"
fi
