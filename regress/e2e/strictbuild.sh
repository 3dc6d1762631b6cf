#!/bin/sh
# The rewrite keeps every expression's type and constant-ness: each sample and regress case that compiles clean plainly under -Werror=int-conversion -Werror=vla -pedantic-errors (strict C99 or C11, else GNU C) compiles as clean through pathcc in every mode (and edge mode with --decisions=conditions), with no compile of the source for diagnostics.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=strictbuild
. "$top/regress/private.sh"
P="$top/bin/pathcc"
unset PATHPROF_DB PATHCC_FLAGS
strict="-Wall -Werror=int-conversion -Werror=vla -pedantic-errors -I$top/include"

# ppp mode needs a profile to choose its interesting paths: a tiny program's will do (every path
# of the units built here is then residual, which changes nothing of their code's types)
mkdir -p "$out/ppp" || exit 1
printf 'int main(void) { return 0; }\n' >"$out/ppp/tiny.c"
(cd "$out/ppp" && "$P" "$CC" -o tiny tiny.c && PATHPROF_FILE="$out/ppp/tiny.prof" ./tiny) >"$out/ppp/build.log" 2>&1
[ -s "$out/ppp/tiny.prof" ] || { echo "not ok strictbuild-ppp-profile: $(head -1 "$out/ppp/build.log")"; exit 0; }

# std SRC: the first of -std=c99, -std=c11 and GNU C (no -std) under which SRC compiles with no
# diagnostic at all plainly; "none" when none does (GNU extensions -pedantic-errors refuses)
std() {
  for s in -std=c99 -std=c11 ""; do
    if $CC $s $strict -c "$1" -o "$out/plain.o" >"$out/plain.err" 2>&1 && [ ! -s "$out/plain.err" ]; then
      echo "${s:-gnu}"; return
    fi
  done
  echo none
}

# one NAME SRC STD OPTIONS...: SRC through pathcc with OPTIONS; ok when it compiles, instrumented,
# with nothing said and no compile of the source itself (--diagnostics=checked runs one only
# when the instrumented compile said something or failed)
one() {
  n=$1 src=$2 s=$3; shift 3
  [ "$s" = gnu ] && s=
  d="$out/$n"
  mkdir -p "$d"
  (cd "$d" && "$P" --verbose --diagnostics=checked "$@" "$CC" $s $strict -c "$src" -o unit.o) >"$d/log" 2>&1
  rc=$?
  said=$(grep -v '^pathcc: \(via compile server\|compiled in-process\)' "$d/log" | grep -v "^pathcc: $CC .* -E \| -c [^ ]*\.pp\.i -o unit\.o\$")
  why=$(sed -n "s/^$n: //p" "$top/regress/e2e/strictbuild_known.txt")
  if [ -n "$why" ]; then  # known: it must still say so, else the list is out of date
    if [ -n "$said" ]; then echo "ok strictbuild $n (known: $why)"
    else echo "not ok strictbuild $n: builds clean now: remove it from strictbuild_known.txt"; fi
  elif [ $rc != 0 ]; then echo "not ok strictbuild $n: status $rc: $(grep -v '^pathcc: ' "$d/log" | head -1)"
  elif [ -n "$said" ]; then echo "not ok strictbuild $n: $(echo "$said" | grep -v "^pathcc: $CC" | head -1 | cut -c1-400) (see $d/log)"
  elif ! nm "$d/unit.o" | grep -q __pathprof_u; then echo "not ok strictbuild $n: not instrumented"
  else echo "ok strictbuild $n"; fi
}

# make check builds each unit in two of the six settings, in turn (sample.sh); check-full in all
i=0
for src in "$top"/samples/*.c "$top"/samples/demo/*.c "$top"/regress/cases/*.c "$top"/regress/abnormal/*.c; do
  i=$((i + 1))
  base=$(basename "$src" .c)
  case $src in */abnormal/*) base=abnormal-$base ;; */demo/*) base=demo-$base ;; esac
  # a unit that defines no function (data only) has nothing to instrument
  if ! $CC -I"$top/include" -c "$src" -o "$out/any.o" 2>/dev/null || ! nm "$out/any.o" | grep -q ' T '; then continue; fi
  s=$(std "$src")
  if [ "$s" = none ]; then echo "# $base: not clean plainly under $strict: $(head -1 "$out/plain.err")"; continue; fi
  own=$(case_flags "$src")
  for mode in path edge kpath osp ppp; do
    i=$((i + 1)); sampled $i 3 || continue
    extra=
    [ $mode = ppp ] && extra="--interesting=$out/ppp/tiny.prof"
    one "$base-$mode" "$src" "$s" $own --mode=$mode $extra
  done
  i=$((i + 1)); sampled $i 3 || continue; one "$base-edge-conditions" "$src" "$s" $own --mode=edge --decisions=conditions
done
exit 0
