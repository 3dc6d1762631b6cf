#!/bin/sh
# Self-tests of regress/oracle.py on tiny hand-made tables, traces and decoded profiles: one must pass, the rest must fail.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=oracle_selftest
. "$top/regress/private.sh"
d=$E2E_DIR
A=00000000000000aa
G=00000000000000bb

# Unit A, function 0 "loop": 0 -> 2 (header) -> 3 (body) -> 2 back; 2 -> 4 -> exit.
cat >"$d/a.pp.json" <<JSON
{ "format": "pathprof-tables", "version": 1, "checksum": "$A", "source": "/x/a.c", "mode": "path",
  "files": ["/x/a.c"], "ncounters": 4,
  "functions": [
    { "name": "loop", "file": 0, "line": 1, "end_line": 9, "paths": "3", "counter": "array", "offset": 0,
      "blocks": [ {"kind": "entry", "lines": []}, {"kind": "exit", "lines": []}, {"lines": [[0, 2, 2]]},
                  {"lines": [[0, 3, 4]]}, {"lines": [[0, 5, 5]]} ],
      "edges": [ {"src": 0, "dst": 2, "kind": "normal"}, {"src": 2, "dst": 3, "kind": "normal"},
                 {"src": 3, "dst": 2, "kind": "back"}, {"src": 0, "dst": 2, "kind": "dummy-entry"},
                 {"src": 3, "dst": 1, "kind": "dummy-exit"}, {"src": 2, "dst": 4, "kind": "normal"},
                 {"src": 4, "dst": 1, "kind": "exit"} ] }
  ], "skipped": [] }
JSON
# Unit G, function 0 "pick": 0 -> 2 -> exit or 0 -> 3 -> exit; 3 may also cut to 2.
cat >"$d/g.pp.json" <<JSON
{ "format": "pathprof-tables", "version": 1, "checksum": "$G", "source": "/x/g.c", "mode": "path",
  "files": ["/x/g.c"], "ncounters": 3,
  "functions": [
    { "name": "pick", "file": 0, "line": 1, "end_line": 5, "paths": "2", "counter": "array", "offset": 0,
      "blocks": [ {"lines": []}, {"lines": []}, {"lines": [[0, 2, 2]]}, {"lines": [[0, 3, 3]]} ],
      "edges": [ {"src": 0, "dst": 2, "kind": "normal"}, {"src": 0, "dst": 3, "kind": "normal"},
                 {"src": 2, "dst": 1, "kind": "exit"}, {"src": 3, "dst": 1, "kind": "exit"},
                 {"src": 3, "dst": 2, "kind": "cut"} ] }
  ], "skipped": [] }
JSON

# The good trace: loop calls pick twice (once recursively nested), goes round twice; one activation left open.
cat >"$d/trace.txt" <<TRACE
B $A 0 0
B $A 0 2
B $A 0 3
B $G 0 0
B $G 0 3
B $G 0 0
B $G 0 2
X $G 0
B $G 0 2
X $G 0
B $A 0 2
B $A 0 3
B $A 0 2
B $A 0 4
X $A 0
B $A 0 0
B $A 0 2
TRACE
cat >"$d/good.txt" <<DEC
P $A 0 1 0,2,3 B
P $A 0 1 2,3 B
P $A 0 1 2,4 E
P $G 0 1 0,2 E
P $G 0 1 0,3 B
P $G 0 1 2 E
Q $A 0 1 0,2 0
O $A 0 0
O $G 0 0
D $A 0
Z anything else is accepted
DEC

# expect NAME ok|fail PATTERN TRACE DECODED: runs the oracle, checks its verdict and that its output matches PATTERN
expect() {
  name=$1 want=$2 pat=$3 trace=$4 dec=$5
  python3 "$top/regress/oracle.py" --name "$name" --trace "$trace" --decoded "$dec" "$d/a.pp.json" "$d/g.pp.json" \
    >"$d/$name.out" 2>&1
  rc=$?
  verdict=$(grep -E '^(ok|not ok) oracle ' "$d/$name.out")
  nv=$(grep -cE '^(ok|not ok) ' "$d/$name.out")
  if [ "$nv" != 1 ]; then
    echo "not ok selftest-$name: $nv verdict lines (want 1): $(head -3 "$d/$name.out" | tr '\n' '|')"
  elif [ "$want" = ok ] && { [ "$rc" != 0 ] || [ "$verdict" != "ok oracle $name" ]; }; then
    echo "not ok selftest-$name: should pass, got status $rc: $verdict"
  elif [ "$want" = fail ] && { [ "$rc" = 0 ] || [ "${verdict#not ok oracle $name: }" = "$verdict" ]; }; then
    echo "not ok selftest-$name: should fail, got status $rc: $verdict"
  elif ! grep -q -e "$pat" "$d/$name.out"; then
    echo "not ok selftest-$name: output lacks '$pat': $(tr '\n' '|' <"$d/$name.out")"
  else
    echo "ok selftest-$name"
  fi
}

# variant NAME SED-SCRIPT FILE: a copy of FILE changed by SED-SCRIPT
variant() { sed "$2" "$3" >"$d/$1"; }

expect good ok "^# 1 activation(s) left open.*loop x1" "$d/trace.txt" "$d/good.txt"
printf '\n' >"$d/empty.txt"
expect empty-both ok "0 path executions" "$d/empty.txt" "$d/empty.txt"

variant count.txt 's/^P \([0-9a-f]*\) 0 1 2,3 B/P \1 0 2 2,3 B/' "$d/good.txt"
expect wrong-count fail "loop (a.c fn 0) path 2,3 B: trace says 1, profile says 2" "$d/trace.txt" "$d/count.txt"
variant missing.txt '/ 0,3 B$/d' "$d/good.txt"
expect missing-path fail "pick (g.c fn 0) path 0,3 B: trace says 1, profile says 0" "$d/trace.txt" "$d/missing.txt"
{ cat "$d/good.txt"; echo "P $A 0 7 0,2,4 E"; } >"$d/extra.txt"
expect extra-path fail "path 0,2,4 E: trace says 0, profile says 7" "$d/trace.txt" "$d/extra.txt"
variant end.txt 's/ 2,4 E$/ 2,4 B/' "$d/good.txt"
expect wrong-end fail "path 2,4 B: trace says 0, profile says 1" "$d/trace.txt" "$d/end.txt"
variant blocks.txt 's/ 0,2,3 B$/ 0,3,2 B/' "$d/good.txt"
expect wrong-blocks fail "path 0,2,3 B: trace says 1, profile says 0" "$d/trace.txt" "$d/blocks.txt"
variant ovf.txt "s/^O $G 0 0/O $G 0 3/" "$d/good.txt"
expect overflow fail "overflow count 3" "$d/trace.txt" "$d/ovf.txt"
variant unit.txt "s/^P $G 0 1 2 E/P 00000000000000cc 0 1 2 E/" "$d/good.txt"
expect unknown-unit fail "fn 0 of unit 00000000000000cc path 2 E: trace says 0, profile says 1" "$d/trace.txt" "$d/unit.txt"
variant bad-line.txt 's/^P \([0-9a-f]*\) 0 1 2,4 E/P \1 0 1 2;4 E/' "$d/good.txt"
expect malformed-decoded fail "malformed path line" "$d/trace.txt" "$d/bad-line.txt"

variant nonedge.tr "12s/.*/B $A 0 4/" "$d/trace.txt"
expect not-an-edge fail "trace transition 4->2 is not a CFG edge" "$d/nonedge.tr" "$d/good.txt"
variant skip.tr "12d" "$d/trace.txt"
expect skipped-block fail "trace transition 2->2 is not a CFG edge" "$d/skip.tr" "$d/good.txt"
variant noexit.tr "13,14d" "$d/trace.txt"
expect no-exit-edge fail "returns from block 3, which has no exit edge" "$d/noexit.tr" "$d/good.txt"
variant nesting.tr "8d" "$d/trace.txt"
# a missing return reads as a longjmp past pick: its path is then a partial one the profile lacks
expect bad-nesting fail "pick (g.c fn 0) path 0,3 B: trace says 0, profile says 1" "$d/nesting.tr" "$d/good.txt"
variant noq.txt '/^Q /d' "$d/good.txt"
expect missing-partial fail "loop (a.c fn 0) partial path 0,2: trace says 1, profile says 0" "$d/trace.txt" "$d/noq.txt"
variant q2.txt 's/^Q \([0-9a-f]*\) 0 1 0,2/Q \1 0 2 0,2/' "$d/good.txt"
expect wrong-partial fail "loop (a.c fn 0) partial path 0,2: trace says 1, profile says 2" "$d/trace.txt" "$d/q2.txt"
variant leave.tr "15a\\
X $A 0" "$d/trace.txt"
expect leave-unbalanced fail "loop (a.c fn 0) returns while nothing is running" "$d/leave.tr" "$d/good.txt"
variant exitblk.tr "s/^B $A 0 4$/B $A 0 1/" "$d/trace.txt"
expect exit-block-traced fail "block 1 is not a real block" "$d/exitblk.tr" "$d/good.txt"
variant unknown.tr "1s/.*/B 00000000000000cc 0 0/" "$d/trace.txt"
expect unknown-checksum fail "no tables for function 0 of unit 00000000000000cc" "$d/unknown.tr" "$d/good.txt"
variant badfn.tr "s/^B $G 0 3$/B $G 5 3/" "$d/trace.txt"
expect unknown-function fail "no tables for function 5 of unit $G" "$d/badfn.tr" "$d/good.txt"
variant garbage.tr "3s/.*/B $A zero 3/" "$d/trace.txt"
expect malformed-trace fail "malformed trace line" "$d/garbage.tr" "$d/good.txt"
expect missing-file fail "cannot read trace" "$d/nonexistent.tr" "$d/good.txt"

# A table where one edge is both normal and back: the trace cannot decide, the oracle must say so.
sed 's/{"src": 2, "dst": 3, "kind": "normal"}/{"src": 2, "dst": 3, "kind": "normal"}, {"src": 2, "dst": 3, "kind": "back"}/' \
  "$d/a.pp.json" >"$d/ambig.pp.json"
python3 "$top/regress/oracle.py" --name ambiguous --trace "$d/trace.txt" --decoded "$d/good.txt" \
  "$d/ambig.pp.json" "$d/g.pp.json" >"$d/ambiguous.out" 2>&1
if [ $? != 0 ] && grep -q "^not ok oracle ambiguous: .*edge 2->3 is both normal and back" "$d/ambiguous.out"; then
  echo "ok selftest-ambiguous-edge"
else
  echo "not ok selftest-ambiguous-edge: $(tr '\n' '|' <"$d/ambiguous.out")"
fi

# Decoded profile on standard input, as in `pathprof dump --decode p | oracle.py --decoded -`.
if python3 "$top/regress/oracle.py" --name stdin --trace "$d/trace.txt" --decoded - "$d/a.pp.json" "$d/g.pp.json" \
     <"$d/good.txt" | grep -q '^ok oracle stdin$'; then
  echo "ok selftest-stdin"
else
  echo "not ok selftest-stdin: decoded profile on stdin not accepted"
fi
