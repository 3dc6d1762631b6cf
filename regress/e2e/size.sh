#!/bin/sh
# pathprof size in every mode: the counter bytes it gives per function add up to the size of the
# unit's counter array in the object (the symbol, read from the ELF file), and functions that
# count elsewhere say where (hash, forest, none) instead of a path-mode figure.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=size
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"
src="$top/samples/sort.c"

# sums the counters column of the function rows and compares with the unit line's array bytes
check() {  # name, object, expected kind (or -)
  name=$1; obj=$2; kind=$3
  if ! "$pp" size "$obj" >"$name.out" 2>&1; then echo "not ok size $name: $(head -1 "$name.out")"; return; fi
  python3 - "$name" "$name.out" "$kind" <<'EOF'
import re, sys
name, path, kind = sys.argv[1], sys.argv[2], sys.argv[3]
rows, unit = [], None
for line in open(path):
    m = re.match(r'  (\w+)\s+(\d+)\s+(\S+)\s', line)
    if m and m.group(1) not in ('function', 'unit'): rows.append(m.group(3))
    u = re.search(r'counters (\d+) in (\d+)-bit words', line)
    if u: unit = int(u.group(1))
cells = [int(r) for r in rows if r.isdigit()]
others = sorted(set(r for r in rows if not r.isdigit()))
if kind == '-':
    ok = rows and not others and sum(cells) == unit
    why = 'functions sum to %d B, the array is %s B (%s)' % (sum(cells), unit, ' '.join(rows))
else:
    ok = rows and others == [kind]
    why = 'counters column: %s' % ' '.join(rows)
print(('ok size %s' % name) if ok else ('not ok size %s: %s' % (name, why)))
EOF
}

for m in path edge; do
  "$pc" --mode=$m gcc -O1 -c "$src" -o $m.o 2>build-$m.log && check "$m mode: functions add up to the array" $m.o -
done
"$pc" --counter-bits=32 gcc -O1 -c "$src" -o c32.o 2>build-c32.log && check "32-bit counters: functions add up to the array" c32.o -
"$pc" --mode=kpath gcc -O1 -c "$src" -o kpath.o 2>build-kpath.log && check "kpath mode: functions count in the forest" kpath.o forest
"$pc" --mode=osp gcc -O1 -c "$src" -o osp.o 2>build-osp.log && check "osp mode: functions count no paths" osp.o none
"$pc" --array-limit=1 gcc -O1 -c "$src" -o hash.o 2>build-hash.log && check "hash mode: functions count in the hash table" hash.o hash
# ppp: interesting paths from a training run, compact slots (--ppp-keep-array=1: only one-path functions keep path mode's array)
if "$pc" gcc -O1 -o train "$src" 2>build-train.log && PATHPROF_FILE=train.prof ./train >/dev/null &&
   "$pc" --mode=ppp --interesting=train.prof --ppp-keep-array=1 gcc -O1 -c "$src" -o ppp.o 2>build-ppp.log; then
  check "ppp mode: slots add up to the array" ppp.o -
else
  echo "not ok size ppp build: $(cat build-train.log build-ppp.log | head -1)"
fi
