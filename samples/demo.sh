#!/bin/sh
# Builds the demo word counter with bin/pathcc in a temporary directory, runs it, and shows its 10 hottest paths.
# Usage: sh samples/demo.sh   (after make; set KEEP=1 to keep the build directory)
top=$(cd "$(dirname "$0")/.." && pwd)
for t in bin/pathcc bin/pathprof; do
  if [ ! -x "$top/$t" ]; then
    echo "demo: $top/$t is missing; run make first" >&2
    exit 1
  fi
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/pathprof-demo.XXXXXX") || exit 1
if [ "${KEEP:-0}" = 1 ]; then
  echo "demo: building in $dir (kept)"
else
  trap 'rm -rf "$dir"' EXIT
  trap 'exit 1' HUP INT TERM
fi
set -e
echo "== building samples/demo with $top/bin/pathcc"
make -s -C "$dir" -f "$top/samples/demo/Makefile" CC="$top/bin/pathcc"
echo "== running wordfreq"
PATHPROF_FILE="$dir/pathprof.out" "$dir/wordfreq"
echo "== pathprof report --top 10"
"$top/bin/pathprof" report --top 10 "$dir/pathprof.out"
