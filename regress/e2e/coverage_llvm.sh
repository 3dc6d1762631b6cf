#!/bin/sh
# pathprof coverage against clang's source-based coverage (clang-19 -fprofile-instr-generate
# -fcoverage-mapping, llvm-cov export), the second outside oracle: every sample and regress/cases
# program built both ways at -O0 (pathcc in both --decisions modes); each line's count must equal
# llvm-cov's region count there (regress/linecmp.py), except the differences listed with their
# reasons in regress/e2e/coverage_llvm_known.txt. A line where pathprof differs from both gcov
# (coverage_gcov.sh) and llvm-cov is a bug.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=coverage_llvm
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
if [ "$(id -u)" = 0 ]; then sh "$top/scripts/deps.sh" clang-19 llvm-19 >/dev/null 2>&1; fi
for t in clang-19 llvm-profdata-19 llvm-cov-19; do
  command -v $t >/dev/null 2>&1 || { echo "skip coverage-llvm: $t is missing (apt-get install clang-19 llvm-19)"; exit 0; }
done
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS LLVM_PROFILE_FILE
n=0
# make check: each program in one of the two decision modes, in turn (sample.sh); check-full: both
i=0
for src in "$top"/samples/*.c "$top"/regress/cases/*.c; do
  name=$(basename "$src" .c)
  i=$((i + 1))
  if grep -q 'regress: timing-dependent' "$src"; then echo "skip coverage-llvm $name: its counts depend on timing"; continue; fi
  w="$d/$name"; mkdir -p "$w/clang"
  cp "$src" "$w/"
  if ! (cd "$w" && clang-19 -O0 -w -fprofile-instr-generate -fcoverage-mapping -o clang/prog "$name.c" -lm &&
        { LLVM_PROFILE_FILE=clang/p.profraw $run ./clang/prog >/dev/null 2>&1; true; } &&
        llvm-profdata-19 merge -o clang/p.profdata clang/p.profraw &&
        llvm-cov-19 export -skip-expansions -skip-functions clang/prog -instr-profile=clang/p.profdata >clang/llvm.json) >"$w/clang.log" 2>&1; then
    echo "not ok coverage-llvm $name: the clang-19 coverage build or llvm-cov failed: $(head -1 "$w/clang.log")"
    continue
  fi
  for mode in statements conditions; do
    i=$((i + 1)); sampled $i 2 || continue
    mkdir -p "$w/$mode"
    if ! (cd "$w" && "$P" --decisions=$mode gcc -O0 -o $mode/prog "$name.c" -lm &&
          { PATHPROF_FILE=$mode/pathprof.out $run ./$mode/prog >/dev/null 2>&1; true; } &&
          "$R" coverage --format json -o $mode/cov.json $mode/pathprof.out) >"$w/$mode.log" 2>&1; then
      echo "not ok coverage-llvm $name ($mode): pathcc build or pathprof coverage failed: $(head -1 "$w/$mode.log")"
      continue
    fi
    n=$((n + 1))
    python3 "$top/regress/linecmp.py" --against-llvm "coverage-llvm $name ($mode)" --file "$name.c" \
      --llvm "$w/clang/llvm.json" --pathprof "$w/$mode/cov.json" --known "$top/regress/e2e/coverage_llvm_known.txt"
  done
done
if [ "$n" -lt 10 ]; then echo "not ok coverage-llvm-count: only $n program builds were compared (want at least 10)"; fi
