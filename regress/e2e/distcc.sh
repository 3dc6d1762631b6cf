#!/bin/sh
# pathcc with distcc: a local distccd on 127.0.0.1 (a free port, stopped at the end) compiles the
# instrumented units of a 3-unit project sent by pathcc, three ways: CC=pathcc with
# PATHCC_CC="distcc gcc"; the masquerade before a distcc masquerade in PATH; the masquerade
# before a ccache masquerade with CCACHE_PREFIX=distcc. Each time distccd's log shows one remote
# compile of an instrumented unit (*.pp.i) per unit, the tables are beside the objects, the
# program prints what the plain build prints, its profile is in the build directory and its
# decoded counts equal those of a local pathcc build's same run.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=distcc
. "$top/regress/private.sh"
d=$out
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHCC_CC PATHCC_FLAGS PATHPROF_FILE PATHPROF_DB CCACHE_PREFIX DISTCC_HOSTS
export LC_ALL=C
ok() { echo "ok distcc-$1${2:+: $2}"; }
nok() { echo "not ok distcc-$1: $2"; }
if ! want distcc:distcc distccd:distcc || ! command -v distccd >/dev/null 2>&1; then
  echo "skip distcc: distcc is not installed (apt-get install distcc)"; exit 0
fi
tmo=""; command -v timeout >/dev/null 2>&1 && tmo="timeout 300"
mkdir -p "$d/src" || exit 1
for u in a b c; do
  cat >"$d/src/$u.c" <<EOF
/* $u.c: one unit of three */
int f_$u(int n)
{
  int s = 0;
  while (n-- > 0) s += n % 3 == 0 ? n : (n & 1 ? -1 : 2);
  return s;
}
EOF
done
cat >"$d/src/main.c" <<'EOF'
/* main.c */
#include <stdio.h>
int f_a(int), f_b(int), f_c(int);
int main(void) { printf("%d %d %d\n", f_a(10), f_b(20), f_c(30)); return 0; }
EOF
printf 'OBJS = a.o b.o c.o main.o\nprog: $(OBJS)\n\t$(CC) -o prog $(OBJS)\n.c.o:\n\t$(CC) -O1 -c $< -o $@\n' >"$d/src/Makefile"
# build NAME [VAR=VALUE...]: make in a copy of the project (its log in NAME.log), then a run
build() {
  n=$1; shift
  rm -rf "$d/$n" && cp -r "$d/src" "$d/$n" && (cd "$d/$n" && env "$@" $tmo make -j2 && ./prog >out.txt) >"$d/$n.log" 2>&1
}
build plain CC=gcc || { nok plain "the plain build fails (test error)"; exit 0; }
build local CC="$P" || { nok local "$(tail -1 "$d/local.log")"; exit 0; }
"$R" dump --decode "$d/local/pathprof.out" >"$d/local.txt" 2>&1

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
distccd --daemon --no-detach --log-stderr --log-level info --allow 127.0.0.1 --listen 127.0.0.1 --port "$port" --jobs 2 \
  2>"$d/distccd.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
i=0
while ! grep -q "listening on" "$d/distccd.log" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
export DISTCC_HOSTS="127.0.0.1:$port/2" DISTCC_FALLBACK=0 DISTCC_DIR="$d/distcc-dir" DISTCC_LOG="$d/client.log" DISTCC_VERBOSE=1
mkdir -p "$d/distcc-dir"
"$P" --masquerade="$d/masq" >/dev/null
mkdir -p "$d/dm" "$d/ccm" && ln -sf "$(command -v distcc)" "$d/dm/gcc"
command -v ccache >/dev/null 2>&1 && ln -sf "$(command -v ccache)" "$d/ccm/gcc"

seen=0
# check NAME: remote compiles of the instrumented units, tables, output, profile and counts
check() {
  n=$1; bad=""
  all=$(grep -c 'COMPILE_OK.*\.pp\.i' "$d/distccd.log"); remote=$((all - seen)); seen=$all
  [ "$remote" = 4 ] || bad="$bad $remote remote compiles of instrumented units (want 4);"
  for u in a b c main; do [ -f "$d/$n/$u.pp.json" ] || bad="$bad no $u.pp.json;"; done
  cmp -s "$d/plain/out.txt" "$d/$n/out.txt" || bad="$bad the output differs;"
  "$R" dump --decode "$d/$n/pathprof.out" >"$d/$n.txt" 2>&1 && cmp -s "$d/local.txt" "$d/$n.txt" ||
    bad="$bad counts differ from the local build's: $(head -1 "$d/$n.txt");"
  [ -z "$bad" ] && ok "$n" "4 units compiled by distccd, counts as a local build's" || nok "$n" "$bad $(grep -m1 -iE 'error|warning' "$d/$n.log")"
}
build pathcc-cc CC="$P" PATHCC_CC="distcc gcc"; check pathcc-cc
build masquerade PATH="$d/masq:$d/dm:$PATH" CC=gcc; check masquerade
if command -v ccache >/dev/null 2>&1; then
  build ccache-prefix PATH="$d/masq:$d/ccm:$PATH" CC=gcc CCACHE_DIR="$d/ccache-dir" CCACHE_PREFIX=distcc; check ccache-prefix
else echo "skip distcc-ccache-prefix: ccache is not installed"; fi
exit 0
