#!/bin/sh
# samples/demo.sh works: builds the demo with pathcc through its Makefile, runs it, reports 10 hot paths, cleans up.
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/regress/out" && tmp=$(mktemp -d "$top/regress/out/demo.XXXXXX") || exit 1
if [ ! -x "$top/bin/pathcc" ] || [ ! -x "$top/bin/pathprof" ]; then
  echo "not ok demo: bin/pathcc or bin/pathprof missing (run make)"
  rm -rf "$tmp"
  exit 0
fi
TMPDIR="$tmp" sh "$top/samples/demo.sh" >"$tmp/demo.log" 2>&1
rc=$?
hot=$(sed -n '/^Hottest paths/,/^$/p' "$tmp/demo.log" | grep -c '#[0-9]')
if [ "$rc" != 0 ]; then
  echo "not ok demo-runs: samples/demo.sh exited $rc: $(grep -v '^==' "$tmp/demo.log" | tail -1)"
elif ! grep -q '^rank  count  word' "$tmp/demo.log"; then
  echo "not ok demo-runs: the word counter printed no table"
else
  echo "ok demo-runs"
fi
if [ "$hot" -ge 1 ] && [ "$hot" -le 10 ] && grep -q 'tokenize' "$tmp/demo.log"; then
  echo "ok demo-report"
else
  echo "not ok demo-report: $hot hottest paths listed (want 1..10, tokenize among the functions)"
fi
left=$(ls "$tmp" | grep -v '^demo\.log$' | tr '\n' ' ')
if [ -z "$left" ]; then echo "ok demo-cleanup"; else echo "not ok demo-cleanup: left behind: $left"; fi
rm -rf "$tmp"
