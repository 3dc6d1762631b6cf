#!/bin/sh
# make bench's "many short runs" row: what one process exit costs when a test suite starts a
# program thousands of times. Two programs, each started RUNS times (default 500) with its profile
# already there, as plain gcc -O2, gcc --coverage, pathcc path and pathcc edge:
# - synthetic: 8 units, 64 functions of 1024 paths each (a 525 KB path profile once every path
#   has run); a run takes one path in each function, so path mode's counters are 64 fresh pages
#   per run, the worst case for per-path arrays;
# - readelf: GNU readelf from Debian's binutils-source (bench/binutils.sh makes it ready; skipped
#   with a note where it is not installed), `readelf -h -S` of an object, after one `readelf -a -W`
#   run made the profile: a real program's short run.
# Per-exit cost is the time per run minus plain's (CPU time of a shell loop starting it, children
# included, from `perf stat`, median of 10 interleaved rounds; wall time when perf is missing);
# the syscalls of one run and how many more than plain's are counted with strace -c, and its
# user-space instructions with callgrind (stable where times are not).
# Results: bench/results/shortruns.md. Usage: sh bench/shortruns.sh [RUNS]
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-500}
rounds=10   # the runs of each build go in this many rounds, the builds interleaved
res="$top/bench/results"
mkdir -p "$res" || exit 1
w=$(mktemp -d "${TMPDIR:-/tmp}/shortruns.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1

# The workload: f<u>_<j>(x) takes one of 1024 paths by the low 10 bits of x. With an argument
# the program runs every path of every function once (the run that fills the profile).
python3 - <<'EOF'
units, fns, ifs = 8, 8, 10
for u in range(units):
    with open("u%d.c" % u, "w") as f:
        for j in range(fns):
            f.write("int f%d_%d(unsigned x)\n{\n  int s = 0;\n" % (u, j))
            for b in range(ifs):
                f.write("  if (x & %uu)\n    s += %d;\n  else\n    s ^= %d;\n" % (1 << b, b + 1, b + 3))
            f.write("  return s;\n}\n")
with open("main.c", "w") as f:
    for u in range(units):
        for j in range(fns):
            f.write("int f%d_%d(unsigned x);\n" % (u, j))
    f.write("int main(int argc, char **argv)\n{\n  unsigned x, n = argc > 1 ? 1024 : 1;\n  int s = 0;\n  (void)argv;\n")
    f.write("  for (x = 0; x < n; x++) {\n")
    for u in range(units):
        for j in range(fns):
            f.write("    s += f%d_%d(x * 2654435761u + %du);\n" % (u, j, u * fns + j))
    f.write("  }\n  return s == 12345;\n}\n")
EOF
# builds SOURCES...: plain, gcov, path and edge in the current directory (flags in $CFLAGS_W)
builds() {
  gcc -O2 $CFLAGS_W -o plain "$@" && gcc -O2 --coverage $CFLAGS_W -o gcov "$@" &&
    "$top/bin/pathcc" gcc -O2 $CFLAGS_W -o path "$@" && "$top/bin/pathcc" --mode=edge gcc -O2 $CFLAGS_W -o edge "$@"
}

# round BUILD N: milliseconds per run over N runs (each with the arguments in $ARGS), CPU time of a shell loop that starts them
# (perf stat counts the children; the shell's own share is the same for every build and goes
# when plain's is subtracted), or wall time without perf
round() {
  if command -v perf >/dev/null 2>&1 &&
     PATHPROF_FILE=$1.out perf stat -x, -e task-clock -o "$1.perf" \
       sh -c 'i=0; while [ $i -lt "$1" ]; do "./$0" $ARGS; i=$((i + 1)); done' "$1" "$2" >/dev/null 2>&1; then
    awk -F, -v n="$2" '$3 == "task-clock" { printf "%.4f\n", $1 / n }' "$1.perf"
  else
    s=$(date +%s%N); i=0
    while [ $i -lt "$2" ]; do PATHPROF_FILE=$1.out "./$1" $ARGS >/dev/null; i=$((i + 1)); done
    e=$(date +%s%N); echo "$e $s $2" | awk '{ printf "%.4f\n", ($1 - $2) / 1e6 / $3 }'
  fi
}
# syscalls BUILD: the system calls of one run (strace -c), or "-"
syscalls() {
  if command -v strace >/dev/null 2>&1 && PATHPROF_FILE=$1.out strace -c -o "$1.strace" "./$1" $ARGS >/dev/null 2>&1; then
    awk '$NF == "total" { print $(NF - 2) == "" ? "-" : ($4 ~ /^[0-9]+$/ ? $4 : $3) }' "$1.strace"
  else
    echo -
  fi
}
# instrs BUILD: the instructions of one run (callgrind, user space), or "-"
instrs() {
  if command -v valgrind >/dev/null 2>&1 &&
     PATHPROF_FILE=$1.out valgrind --tool=callgrind --callgrind-out-file="$1.cg" "./$1" $ARGS >/dev/null 2>"$1.vg"; then
    awk '/Collected :/ { print $NF }' "$1.vg"
  else
    echo -
  fi
}
how="CPU time (perf stat -e task-clock)"; command -v perf >/dev/null 2>&1 || how="wall time"
# table TITLE: the builds in the current directory measured with $ARGS, as a markdown table.
# rounds of runs/rounds, the builds interleaved (load that drifts hits them alike); the median.
table() {
  per=$((runs / rounds))
  for r in $(seq $rounds); do
    for b in plain gcov path edge; do round $b $per >>"$b.rounds"; done
  done
  for b in plain gcov path edge; do
    eval "t_$b=\$(sort -n $b.rounds | awk '{ v[NR] = \$1 } END { print v[int((NR + 1) / 2)] }')"
    eval "s_$b=\$(syscalls $b)"; eval "i_$b=\$(instrs $b)"
  done
  echo "## $1"
  echo
  echo "| build | ms per run | per-exit cost (ms) | / gcov's | syscalls | more than plain | instructions | more than plain | / gcov's |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for b in plain gcov path edge; do
    eval "t=\$t_$b; s=\$s_$b; i=\$i_$b"
    echo "$t $t_plain $t_gcov $s $s_plain $i $i_plain $i_gcov" | awk -v b="$b" '{
      c = $1 - $2; g = $3 - $2; ic = $6 - $7; ig = $8 - $7
      printf "| %s | %.3f | %s | %s | %s | %s | %s | %s | %s |\n", b, $1, b == "plain" ? "-" : sprintf("%.3f", c),
        (b == "plain" || b == "gcov" || g <= 0) ? "-" : sprintf("%.2f", c / g), $4,
        (b == "plain" || $4 == "-") ? "-" : sprintf("%+d", $4 - $5), $6,
        (b == "plain" || $6 == "-") ? "-" : sprintf("%+d", ic),
        (b == "plain" || b == "gcov" || $6 == "-" || ig <= 0) ? "-" : sprintf("%.2f", ic / ig) }'
  done
  echo
}

out="$res/shortruns.md"
# The synthetic program, its profile already there: one run of every path.
mkdir -p synthetic && cd synthetic && mv ../*.c . || exit 1
builds main.c u0.c u1.c u2.c u3.c u4.c u5.c u6.c u7.c || { echo "shortruns: cannot build the workload" >&2; exit 1; }
./gcov fill; PATHPROF_FILE=path.out ./path fill; PATHPROF_FILE=edge.out ./edge fill
size=$(wc -c <path.out)
ARGS=
synthetic=$(table "synthetic: 8 units, 64 functions of 1024 paths, one path of each per run (path profile $size bytes)")
cd "$w" || exit 1

# GNU readelf, where binutils-source is installed: one `readelf -a -W` of an object made the
# profile, then each run is `readelf -h -S` of it; else why not.
readelf=
if why=$(sh "$top/bench/binutils.sh" "$res/cache"); then
  B="$res/cache/binutils"; S="$B/src/binutils"; O="$B/obj"
  mkdir -p readelf && cd readelf || exit 1
  CFLAGS_W="-DHAVE_CONFIG_H -I$O/binutils -I$S -I$O/bfd -I$B/src/bfd -I$B/src/include -I$B/src/zlib"
  if builds "$S/readelf.c" "$S/version.c" "$S/unwind-ia64.c" "$S/dwarf.c" "$S/demanguse.c" "$S/elfcomm.c" \
       "$O/libiberty/libiberty.a" "$O/libsframe/.libs/libsframe.a" "$O/zlib/libz.a" >build.log 2>&1; then
    cp "$O/zlib/libz_a-inflate.o" input.o 2>/dev/null || cp plain input.o
    ./gcov -a -W input.o >/dev/null; PATHPROF_FILE=path.out ./path -a -W input.o >/dev/null
    PATHPROF_FILE=edge.out ./edge -a -W input.o >/dev/null
    ARGS="-h -S input.o"
    readelf=$(table "readelf: \`readelf -h -S\` of an object, the profile made by \`readelf -a -W\` of it (path profile $(wc -c <path.out) bytes)")
  else
    why="the builds failed ($(tail -1 build.log))."
  fi
  cd "$w" || exit 1
fi
[ -n "$readelf" ] || readelf="## readelf

Skipped: $why
"
{
  echo "# Many short runs ($(date +%Y-%m-%d), $runs runs each)"
  echo
  echo "Per-exit cost = time per run minus plain's, $how, median of $rounds interleaved rounds of"
  echo "$((runs / rounds)) runs; syscalls of one run counted with strace -c, its user-space instructions with callgrind."
  echo
  echo "$synthetic"
  echo
  echo "$readelf"
} >"$out"
cat "$out"
