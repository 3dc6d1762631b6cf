#!/bin/sh
# Build time through pathcc against plain gcc (REGRESS_FULL only: make check-full), for GCC's
# libiberty and libbacktrace: three rounds, each a fresh build directory per compiler (plain and
# pathcc interleaved), timing configure and `make -j2` separately; prints the medians and their
# ratios as "# buildtime ..." lines (wall clock; CPU = user + sys of all processes, when
# /usr/bin/time is there). ROUNDS=n changes the number of rounds.
NAME=buildtime
. "$(dirname "$0")/../dropin-lib.sh"
if ! full; then skip buildtime "runs with REGRESS_FULL=1 (make check-full)"; finish; fi
src=$(sh "$top/regress/gccsrc.sh" libiberty libbacktrace include)
if [ -z "$src" ] || [ ! -d "$src/libbacktrace" ]; then skip buildtime "gcc-12-source is not available"; finish; fi
rounds=${ROUNDS:-3}
timer=""; [ -x /usr/bin/time ] && timer=/usr/bin/time
# timed OUT-FILE COMMAND...: appends "wall cpu" to OUT-FILE
timed() {
  out=$1; shift
  if [ -n "$timer" ]; then
    $timer -f '%e %U %S' -o "$out.t" "$@" || return 1
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$out.t" >>"$out"
  else
    s=$(date +%s.%N); "$@" || return 1; e=$(date +%s.%N)
    echo "$s $e" | awk '{ printf "%.2f 0\n", $2 - $1 }' >>"$out"
  fi
}
# The pathcc builds' steps run with pathcc's compile server started inside the timed command (in
# the foreground, in a private directory, stopped and waited for at the end), so its CPU is
# counted; a server the compiles started by themselves would be no child of the timed command.
served='d=$(mktemp -d) && mkfifo "$d/ready" || exit 1
XDG_RUNTIME_DIR=$d "$P" --server >"$d/ready" 2>/dev/null & s=$!
read line <"$d/ready"
XDG_RUNTIME_DIR=$d "$@"; rc=$?
kill -TERM $s; wait $s; rm -rf "$d"
exit $rc'
export P
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for lib in libiberty libbacktrace; do
  r=1
  while [ $r -le "$rounds" ]; do
    for k in plain pathcc; do
      cc=gcc; [ $k = pathcc ] && cc="$P"
      set --; [ $k = pathcc ] && set -- sh -c "$served" sh
      b="$d/$lib-$k-$r"
      mkdir -p "$b" && cd "$b" || exit 1
      timed "$d/$lib-$k.configure" "$@" "$src/$lib/configure" CC="$cc" >configure.log 2>&1 &&
        timed "$d/$lib-$k.make" "$@" make -j2 >make.log 2>&1 || { nok "$lib" "the $k build failed in round $r (see $b)"; break 2; }
      cd "$d" && rm -rf "$b"
    done
    r=$((r + 1))
  done
  [ $r -le "$rounds" ] && continue   # a build failed
  for step in configure make; do
    pw=$(cut -d' ' -f1 "$d/$lib-plain.$step" | median); qw=$(cut -d' ' -f1 "$d/$lib-pathcc.$step" | median)
    pc=$(cut -d' ' -f2 "$d/$lib-plain.$step" | median); qc=$(cut -d' ' -f2 "$d/$lib-pathcc.$step" | median)
    line=$(echo "$pw $qw $pc $qc" | awk '{ printf "wall plain %.1f s, pathcc %.1f s, ratio %.2f", $1, $2, $2 / $1;
                                           if ($3 > 0) printf "; CPU plain %.1f s, pathcc %.1f s, ratio %.2f", $3, $4, $4 / $3 }')
    label=$step; [ $step = make ] && label="make -j2"
    echo "# buildtime $lib $label (median of $rounds): $line"
    eval "${step}_line=\"\$line\""
  done
  ok "$lib" "make -j2 $(echo "$make_line" | sed 's/.*wall[^,]*, [^,]*, ratio \([0-9.]*\).*/\1/')x, configure $(echo "$configure_line" | sed 's/.*wall[^,]*, [^,]*, ratio \([0-9.]*\).*/\1/')x (wall, median of $rounds)"
done
finish
