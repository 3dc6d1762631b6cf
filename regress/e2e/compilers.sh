#!/bin/sh
# The compiler matrix: clang, clang-19 and tcc (gcc: exact.sh) build and run every sample and regress case through pathcc (same output, status and diagnostics, counts equal the trace oracle's), all four link, count in every update policy, width and continuous mode, arm-none-eabi-gcc and riscv64-unknown-elf-gcc compile them to instrumented objects, and every compiler gives the cases of regress/diag/ the same status and diagnostic lines through pathcc as without.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=compilers
. "$top/regress/private.sh"
. "$top/regress/exactlib.sh"   # check NAME DIR, same_counts NAME DIR
pathcc="$top/bin/pathcc"

# have CC PACKAGE: true when CC is on PATH, installing Debian's PACKAGE first when root; else a skip line
updated=0
have() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "# installing $2: apt-get install -y $2"
    [ "$updated" = 1 ] || { apt-get update >>"$out/apt.log" 2>&1; updated=1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y "$2" >>"$out/apt.log" 2>&1
    command -v "$1" >/dev/null 2>&1 && return 0
  fi
  echo "skip compilers $1: not installed, and it cannot be installed here (Debian package $2)"
  return 1
}

# same NAME RC_PLAIN RC_PATHCC ERR_PLAIN ERR_PATHCC: one line saying whether the two compiles ended
# alike: same exit status, same diagnostic lines (regress/diagkeys.py: columns may differ)
same() {
  python3 "$top/regress/diagkeys.py" "$4" >"$4.keys"
  python3 "$top/regress/diagkeys.py" "$5" >"$5.keys"
  if [ "$2" != "$3" ]; then
    echo "not ok $1: exit status $3 through pathcc, $2 without: $(head -1 "$5.keys")"; return 1
  elif ! cmp -s "$4.keys" "$5.keys"; then
    echo "not ok $1: diagnostics differ ($(diff "$4.keys" "$5.keys" | grep '^[<>]' | head -1))"; return 1
  fi
  echo "ok $1"
}

# program CC FLAGS NAME SRC...: plain and pathcc --trace builds alike, the programs alike and the
# counts exact (exactlib.sh), and the build without --trace counting what the traced one counted
program() {
  cc=$1 flags=$2 id=$1-$3; shift 3
  d="$out/$id"
  mkdir -p "$d/notrace"
  own=$(case_flags "$@")
  # shellcheck disable=SC2086
  (cd "$d" && $cc $flags -o plain "$@" -lm) >"$d/plain.build" 2>&1; prc=$?
  # shellcheck disable=SC2086
  (cd "$d" && "$pathcc" --trace $own $cc $flags -o prog "$@" -lm) >"$d/pathcc.build" 2>&1; rc=$?
  same "build $id" "$prc" "$rc" "$d/plain.build" "$d/pathcc.build" || return
  [ "$prc" = 0 ] || return   # a compiler without an extension the program uses: failing alike is right
  # tcc builds keep no frames (no thread-local storage): the profile holds no partial paths
  if [ "$cc" = tcc ]; then ORACLE_FLAGS=--no-partials check "$id" "$d"; else check "$id" "$d"; fi
  # shellcheck disable=SC2086
  if ! (cd "$d/notrace" && "$pathcc" $own $cc $flags -o prog "$@" -lm) >"$d/notrace/pathcc.log" 2>&1; then
    echo "not ok notrace $id: pathcc $cc $flags failed: $(head -1 "$d/notrace/pathcc.log")"
  elif grep -q 'regress: timing-dependent' "$@"; then
    echo "skip notrace $id: counts depend on timing, two runs cannot be compared"
  elif [ -s "$d/prof.out" ]; then
    same_counts "$id" "$d"
  fi
}

# object CC FLAGS NAME SRC: a cross compiler's object, plainly and through pathcc alike, and
# instrumented (it registers its unit, its tables are written)
object() {
  cc=$1 flags=$2 id=$1-$3 src=$4
  d="$out/$id"
  mkdir -p "$d"
  # shellcheck disable=SC2086
  (cd "$d" && $cc $flags -c "$src" -o plain.o) >"$d/plain.build" 2>&1; prc=$?
  # shellcheck disable=SC2086
  (cd "$d" && "$pathcc" $cc $flags -c "$src" -o prog.o) >"$d/pathcc.build" 2>&1; rc=$?
  same "object $id" "$prc" "$rc" "$d/plain.build" "$d/pathcc.build" || return
  [ "$prc" = 0 ] || return
  if ! "${cc%gcc}nm" --defined-only "$d/plain.o" | grep -q ' [Tt] '; then
    echo "ok instrumented $id (no functions)"
  elif "${cc%gcc}nm" "$d/prog.o" | grep -q ' U __pathprof_register' && [ -s "$d/prog.pp.json" ]; then
    echo "ok instrumented $id"
  else
    echo "not ok instrumented $id: $d/prog.o does not register a unit or has no tables"
  fi
}

# diag CC FLAGS: every regress/diag case, plain and through pathcc in each diagnostics mode, alike
diag() {
  cc=$1 flags=$2 i=$nth
  for src in "$top"/regress/diag/*.c; do
    name=$(basename "$src" .c) i=$((i + 1))
    own=$(sed -n 's|.*/\* diag: \(.*\) \*/.*|\1|p' "$src" | head -1)
    d="$out/diag-$cc-$name" prc=
    for mode in default checked exact; do
      i=$((i + 1)); sampled $i 9 || continue
      mkdir -p "$d"
      # shellcheck disable=SC2086
      [ -n "$prc" ] || { (cd "$d" && $cc $flags $own -c "$src" -o plain.o) >"$d/plain.err" 2>&1; prc=$?; }
      opt=$([ "$mode" = default ] || echo "--diagnostics=$mode")
      # shellcheck disable=SC2086
      (cd "$d" && "$pathcc" $opt $cc $flags $own -c "$src" -o "$mode.o") >"$d/$mode.err" 2>&1; rc=$?
      same "diag $cc-$name-$mode" "$prc" "$rc" "$d/plain.err" "$d/$mode.err"
    done
  done
}

# clean CC STD CASE: the instrumented compile of a case whose annotations all stand is clean by
# itself: pathcc never needed the source's verdict (no -fsyntax-only, no full compile of the source)
clean() {
  cc=$1 std=$2 name=$3
  d="$out/clean-$cc-$name"
  mkdir -p "$d"
  (cd "$d" && "$pathcc" --verbose --diagnostics=checked "$cc" "$std" -Wall -Wextra -Wimplicit-fallthrough \
     -c "$top/regress/diag/$name.c" -o x.o) >"$d/log" 2>&1; rc=$?
  if [ "$rc" != 0 ] || grep -q -- '-fsyntax-only\|orig\.o' "$d/log" || grep -qE 'warning|error' "$d/log"; then
    echo "not ok fallthrough-clean $cc-$name: the instrumented unit warned: $(grep -E 'warning|error|syntax|orig' "$d/log" | head -1)"
  else
    echo "ok fallthrough-clean $cc-$name"
  fi
}

# link CC: the issue's first two failures: pathcc CC -o hello hello.c links our runtime (the target
# is the host's whatever the triple says), says nothing, runs and writes a profile
link() {
  cc=$1 d="$out/link-$1"
  mkdir -p "$d"
  printf '#include <stdio.h>\nint main(int argc, char **argv) { (void)argv; if (argc > 1) puts("args"); else puts("hello"); return 0; }\n' >"$d/hello.c"
  (cd "$d" && "$pathcc" "$cc" -o hello hello.c) >"$d/build.log" 2>&1; rc=$?
  if [ "$rc" != 0 ] || [ -s "$d/build.log" ]; then
    echo "not ok link $cc: pathcc $cc -o hello hello.c: status $rc, $(head -1 "$d/build.log")"
  elif [ "$(cd "$d" && PATHPROF_FILE="$d/prof.out" ./hello)" != hello ] || ! "$top/bin/pathprof" dump "$d/prof.out" >/dev/null 2>&1; then
    echo "not ok link $cc: the program did not print hello or wrote no readable profile"
  else
    echo "ok link $cc"
  fi
}

# modes CC: counter width, update policies, continuous mode and the other modes with this
# compiler: each build is clean (no pathcc warning), runs like the plain one and writes a profile
# pathprof reads; kpath and osp need thread-local storage, and a compiler without it (tcc) gets
# the source compiled as written with one warning saying so
modes() {
  cc=$1 src="$top/samples/sort.c"
  d="$out/modes-$cc"
  mkdir -p "$d"
  (cd "$d" && $cc -O2 -o plain "$src" && ./plain >plain.out) >/dev/null 2>&1
  for m in "--counter-bits=32" "--update=atomic" "--update=prefer-atomic" "--continuous" "--mode=edge" \
           "--mode=kpath" "--mode=osp"; do
    n=$(echo "$m" | tr -d '-' | tr '=' '-')
    file=$([ "$m" = --continuous ] && echo "$d/$n.prof%c" || echo "$d/$n.prof")
    threads=$([ "$m" = --update=prefer-atomic ] && echo -pthread)
    # shellcheck disable=SC2086
    (cd "$d" && "$pathcc" $m "$cc" -O2 $threads -o "$n" "$src") >"$d/$n.log" 2>&1; rc=$?
    if [ "$rc" = 0 ] && grep -q 'needs thread-local storage' "$d/$n.log" && [ "$(wc -l <"$d/$n.log")" = 1 ]; then
      if (cd "$d" && "./$n" >"$n.out") && cmp -s "$d/plain.out" "$d/$n.out"; then
        echo "ok mode $cc $m (no thread-local storage: compiled as written, with one warning)"
      else
        echo "not ok mode $cc $m: the uninstrumented build behaves differently from the plain one"
      fi
      continue
    fi
    if [ "$rc" != 0 ] || [ -s "$d/$n.log" ]; then
      echo "not ok mode $cc $m: status $rc, $(head -1 "$d/$n.log")"
    elif ! (cd "$d" && PATHPROF_FILE="$file" PATHPROF_OSP_FILE="$d/$n.prof" "./$n" >"$n.out") || ! cmp -s "$d/plain.out" "$d/$n.out"; then
      echo "not ok mode $cc $m: the program behaves differently from the plain build"
    elif [ "$m" = --mode=osp ]; then
      if "$top/bin/pathprof" hot-subpaths "$d/$n.prof" >"$d/$n.report" 2>&1; then echo "ok mode $cc $m"
      else echo "not ok mode $cc $m: pathprof hot-subpaths $d/$n.prof: $(head -1 "$d/$n.report")"; fi
    elif ! "$top/bin/pathprof" report "$d/$n.prof" >"$d/$n.report" 2>&1 || ! grep -q 'executions' "$d/$n.report"; then
      echo "not ok mode $cc $m: pathprof report $d/$n.prof: $(head -1 "$d/$n.report")"
    else
      echo "ok mode $cc $m"
    fi
  done
}

# threads CC: with --update=atomic and prefer-atomic (atomics, shards, or tcc's runtime call) 8
# threads count exactly 8 times what one thread counts (regress/e2e/threads_prog.c)
threads() {
  cc=$1 d="$out/threads-$1"
  mkdir -p "$d"
  for u in atomic prefer-atomic; do
    if ! (cd "$d" && "$pathcc" --update=$u "$cc" -O2 -pthread -o "t-$u" "$top/regress/e2e/threads_prog.c") >"$d/$u.log" 2>&1 ||
       [ -s "$d/$u.log" ]; then
      echo "not ok threads $cc --update=$u: the build failed or warned: $(head -1 "$d/$u.log")"; continue
    fi
    (cd "$d" && PATHPROF_FILE=one-$u.out ./t-$u 1 100000 >/dev/null && PATHPROF_FILE=eight-$u.out ./t-$u 8 100000 >/dev/null)
    "$top/bin/pathprof" dump --decode "$d/one-$u.out" >"$d/one-$u.txt" 2>&1
    "$top/bin/pathprof" dump --decode "$d/eight-$u.out" >"$d/eight-$u.txt" 2>&1
    if why=$(python3 "$top/regress/countcmp.py" --fn=0,1 "$d/one-$u.txt" "$d/eight-$u.txt" 8); then
      echo "ok threads $cc --update=$u"
    else
      echo "not ok threads $cc --update=$u: $(echo "$why" | head -1)"
    fi
  done
}

# make check runs a third of the programs, each with one of clang, clang-19 and tcc, each
# diagnostics case in one mode with a third of the compilers, a sixth of the objects with each
# cross compiler (sample.sh);
# check-full runs every combination
nth=0
for cc in gcc clang clang-19 tcc; do
  nth=$((nth + 1))
  case $cc in
    clang-19) pkg=clang-19 ;;
    *) pkg=$cc ;;
  esac
  have "$cc" "$pkg" || continue
  echo "# $cc: $($cc --version 2>/dev/null | head -1 || $cc -v 2>&1 | head -1)"
  if [ "$cc" = gcc ]; then
    echo "# gcc: the samples and cases run in exact.sh (-O0, -O2, GNU mode)"
  else
    i=$nth
    for src in "$top"/samples/*.c "$top"/regress/cases/*.c; do
      sampled $i 9 && program "$cc" "-O2 -Wall -Wextra" "$(basename "$src" .c)" "$src"; i=$((i + 1))
    done
    if sampled $i 9; then program "$cc" "-O2 -Wall -Wextra" demo "$top"/samples/demo/*.c; fi
  fi
  link "$cc"
  modes "$cc"
  threads "$cc"
  diag "$cc" ""
  case $cc in
    gcc) clean "$cc" -std=gnu99 fallthrough_macro; clean "$cc" -std=c2x fallthrough_spellings; clean "$cc" -std=c99 sequence ;;
    clang*) clean "$cc" -std=gnu99 fallthrough_macro; clean "$cc" -std=c99 sequence ;;   # clang reads no fallthrough comments
  esac
done

# Cross compilers: objects only (the runtime for a target is linked by the firmware's own build).
for cc in arm-none-eabi-gcc riscv64-unknown-elf-gcc; do
  nth=$((nth + 1))
  case $cc in
    arm-none-eabi-gcc) pkg=gcc-arm-none-eabi flags="-mcpu=cortex-m3 -mthumb" ;;
    riscv64-unknown-elf-gcc) pkg=gcc-riscv64-unknown-elf flags="-march=rv32imac -mabi=ilp32" ;;
  esac
  have "$cc" "$pkg" || continue
  # the RISC-V cross compiler has no C library of its own: picolibc's headers
  if [ "$cc" = riscv64-unknown-elf-gcc ]; then
    have_pico=0
    echo '#include <stdio.h>' | $cc $flags --specs=picolibc.specs -E -x c - >/dev/null 2>&1 && have_pico=1
    if [ "$have_pico" = 0 ] && [ "$(id -u)" = 0 ]; then
      echo "# installing picolibc-riscv64-unknown-elf"
      DEBIAN_FRONTEND=noninteractive apt-get install -y picolibc-riscv64-unknown-elf >>"$out/apt.log" 2>&1
      echo '#include <stdio.h>' | $cc $flags --specs=picolibc.specs -E -x c - >/dev/null 2>&1 && have_pico=1
    fi
    if [ "$have_pico" = 0 ]; then
      echo "skip compilers $cc: no C library headers (Debian package picolibc-riscv64-unknown-elf)"; continue
    fi
    flags="$flags --specs=picolibc.specs"
  fi
  echo "# $cc: $($cc --version | head -1)"
  i=$nth
  for src in "$top"/samples/*.c "$top"/regress/cases/*.c "$top"/samples/demo/*.c; do
    sampled $i 6 && object "$cc" "-O2 -Wall -Wextra $flags" "$(basename "$src" .c)" "$src"; i=$((i + 1))
  done
  diag "$cc" "$flags"
done
