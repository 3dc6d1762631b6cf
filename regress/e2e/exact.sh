#!/bin/sh
# Every sample and regress/cases program, plain and through pathcc (-O0, -O2, GNU mode): same output and status, exact path counts.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=exact
. "$top/regress/private.sh"

. "$top/regress/exactlib.sh"   # check NAME DIR, same_counts NAME DIR

# build NAME FLAVOUR FLAGS SRC...: plain and instrumented builds with FLAGS into $out/NAME-FLAVOUR, then check
build() {
  name=$1-$2 flags=$3; shift 3
  d="$out/$name"
  mkdir -p "$d"
  if ! $CC $flags -o "$d/plain" "$@" -lm >"$d/plain.build" 2>&1; then
    echo "not ok build $name: plain $CC $flags failed: $(head -1 "$d/plain.build")"
    return
  fi
  if [ -s "$d/plain.build" ]; then
    echo "not ok warnings $name: plain $CC $flags warns: $(head -1 "$d/plain.build")"
  fi
  # a case may ask for pathcc options of its own: a line "regress: pathcc-flags OPTIONS */"
  own=$(case_flags "$@")
  if ! (cd "$d" && "$top/bin/pathcc" --trace $own "$CC" $flags -o prog "$@" -lm) >"$d/pathcc.out" 2>"$d/pathcc.err"; then
    echo "not ok build $name: pathcc --trace $CC $flags failed: $(head -1 "$d/pathcc.err")"
    return
  fi
  if [ -s "$d/pathcc.err" ] || [ -s "$d/pathcc.out" ]; then
    echo "not ok build $name: pathcc --trace $CC $flags said: $(cat "$d/pathcc.out" "$d/pathcc.err" | head -1)"
  else
    echo "ok build $name"
  fi
  check "$name" "$d"
  mkdir -p "$d/notrace"
  if ! (cd "$d/notrace" && "$top/bin/pathcc" $own "$CC" $flags -o prog "$@" -lm) >"$d/notrace/pathcc.log" 2>&1; then
    echo "not ok notrace $name: pathcc $CC $flags failed: $(head -1 "$d/notrace/pathcc.log")"
  elif grep -q 'regress: timing-dependent' "$@"; then
    echo "skip notrace $name: counts depend on timing, two runs cannot be compared"
  elif [ -s "$d/prof.out" ]; then
    same_counts "$name" "$d"
  fi
}

# -O0 and -O2 in strict C99 (the instrumented build must stay warning-free too); "gnu": GNU C mode with fortified headers (inline wrappers, statement-expression assert)
# make check builds each program in one flavour (sample.sh); check-full in all three
nth=0
for flavour in O0 O2 gnu; do
  nth=$((nth + 1)) i=$nth
  case $flavour in
    O0) flags="-std=c99 -O0 -Wall -Wextra" ;;
    O2) flags="-std=c99 -O2 -Wall -Wextra" ;;
    gnu) flags="-std=gnu11 -O2 -D_FORTIFY_SOURCE=2 -Wall -Wextra" ;;
  esac
  for src in "$top"/samples/*.c "$top"/regress/cases/*.c; do
    sampled $i 3 && build "$(basename "$src" .c)" "$flavour" "$flags" "$src"; i=$((i + 1))
  done
  if sampled $i 3; then build demo "$flavour" "$flags" "$top"/samples/demo/*.c; fi
done
