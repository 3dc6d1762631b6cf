#!/bin/sh
# Path explosion: 100 ifs in a row (2^100 paths: cuts + hash table) and a 1000-case switch in a
# loop run, and decode exactly (oracle); a hash table too small for the run says so in the report.
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/explosion"
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
python3 - <<'PY'
with open('ifs.c', 'w') as f:
    f.write('#include <stdio.h>\nstatic unsigned long h(unsigned long x) {\n  unsigned long s = 0;\n')
    for i in range(100):
        f.write(f'  if ((x >> {i % 61}) & 1) s += {i}; else s ^= {i * 7};\n')
    f.write('  return s;\n}\nint main(void) {\n  unsigned long t = 0;\n'
            '  for (unsigned long i = 0; i < 1500; i++) t += h(i * 2654435761u);\n'
            '  printf("%lu\\n", t);\n  return 0;\n}\n')
with open('sw.c', 'w') as f:
    f.write('#include <stdio.h>\nstatic long g(int n) {\n  long s = 0;\n  for (int i = 0; i < n; i++) {\n'
            '    switch ((int)(((unsigned)i * 7919u) % 1000u)) {\n')
    for i in range(1000):
        f.write(f'    case {i}: s += {i * 3 + 1}; ' + ('break;\n' if i % 3 else '\n'))
    f.write('    }\n  }\n  return s;\n}\nint main(void) { printf("%ld\\n", g(20000)); return 0; }\n')
PY
for p in ifs sw; do
  gcc -O2 -o $p.plain $p.c && ./$p.plain >$p.expect
  if ! "$top/bin/pathcc" --trace --hash-cap=8192 gcc -O2 -o $p $p.c >$p.build 2>&1 || [ -s $p.build ]; then
    echo "not ok explosion build $p: $(head -1 $p.build)"; continue
  fi
  PATHPROF_FILE=$out/$p.prof PATHPROF_TRACE=$out/$p.trace ./$p >$p.got
  if cmp -s $p.expect $p.got; then echo "ok explosion semantics $p"; else echo "not ok explosion semantics $p"; fi
  "$top/bin/pathprof" dump --decode $p.prof >$p.dec 2>&1 || echo "not ok explosion decode $p: $(head -1 $p.dec)"
  python3 "$top/regress/oracle.py" --name "explosion $p" --trace $p.trace --decoded $p.dec ./*-$p.pp.json
  rm -f $p.trace
done
python3 - "$out/prog-ifs.pp.json" "$out/ifs-ifs.pp.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[2]))
h = [f for f in t['functions'] if f['name'] == 'h'][0]
cuts = sum(e['kind'] == 'cut' for e in h['edges'])
ok = h['counter'] == 'hash' and cuts > 0 and int(h['paths']) <= 2**62
print(('ok' if ok else 'not ok') + ' explosion: 2^100 paths are cut (%d cuts) to %s paths in a hash table' % (cuts, h['paths']))
PY
"$top/bin/pathcc" --hash-cap=64 gcc -O2 -o small ifs.c && PATHPROF_FILE=$out/small.prof ./small >/dev/null
if "$top/bin/pathprof" report small.prof 2>&1 | grep -q "path ends were not counted: the hash table (64 entries) was full"; then
  echo "ok explosion: a full hash table is reported"
else
  echo "not ok explosion: a full hash table is not reported"
fi
