#!/bin/sh
# Shared objects: 100 modules built through pathcc -shared -fPIC, each with its own copy of the runtime, carry no static TLS (no initial-exec access, TLS descriptors under GCC on x86) and all load by dlopen into a plain host and into an instrumented one; every third is dlclosed right after its calls; the one profile holds every module's counts, exactly what the calls imply (module i's work(x) for x = 0..4i: its four paths i+1, i, i, i times). An executable's unit keeps its initial-exec access.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=dlopen
. "$top/regress/private.sh"
d=$E2E_DIR
P=$top/bin/pathcc
N=100
mkdir -p "$d/mods"
i=1
while [ $i -le $N ]; do
  printf '/* module %d */\nint work(int x);\nint work(int x)\n{\n  int r = %d;\n  if (x & 1)\n    r += 3;\n  if (x & 2)\n    r -= 5;\n  return r;\n}\n' $i $i >"$d/mods/mod$i.c"
  i=$((i + 1))
done
# one pathcc compile for all the objects, then one pathcc link per module (two at a time)
if ! (cd "$d/mods" && "$P" $CC -O2 -fPIC -c mod*.c && seq 1 $N | xargs -P2 -I{} "$P" $CC -shared -fPIC -o mod{}.so mod{}.o) >"$d/build.log" 2>&1 ||
   [ -s "$d/build.log" ]; then
  echo "not ok dlopen-build: $(head -1 "$d/build.log")"; exit 0
fi
echo "ok dlopen-build"
if command -v readelf >/dev/null 2>&1; then
  if readelf -d "$d/mods/mod1.so" | grep -q STATIC_TLS; then echo "not ok dlopen-no-static-tls: mod1.so has FLAGS STATIC_TLS"
  else echo "ok dlopen-no-static-tls"; fi
else echo "skip dlopen-no-static-tls: no readelf"; fi

# counts PROFILE NAME: every module's four path counts in PROFILE are i+1, i, i, i
counts() {
  if ! "$top/bin/pathprof" dump --decode "$1" >"$1.txt" 2>"$1.err"; then
    echo "not ok dlopen-counts-$2: pathprof dump --decode failed: $(head -1 "$1.err")"; return
  fi
  python3 - "$1.txt" "$d/mods" "$N" "$2" <<'PY'
import collections, glob, json, os, re, sys
decoded, mods, n, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
module = {}
for p in glob.glob(mods + "/*.pp.json"):
    t = json.load(open(p))
    m = re.match(r"mod(\d+)\.c$", os.path.basename(t["source"]))
    if m:
        module[t["checksum"].lower()] = int(m.group(1))
got = collections.defaultdict(list)
for line in open(decoded):
    w = line.split()
    if w and w[0] in ("P", "O") and w[1].lower() in module:
        got[module[w[1].lower()]].append(int(w[3]))
bad = [i for i in range(1, n + 1) if sorted(c for c in got.get(i, []) if c) != sorted([i + 1, i, i, i])]
if len(module) != n:
    print("not ok dlopen-counts-%s: %d tables for %d modules" % (name, len(module), n))
elif bad:
    print("not ok dlopen-counts-%s: %d module(s) with wrong counts, e.g. mod%d: %s, expected %s"
          % (name, len(bad), bad[0], sorted(got.get(bad[0], [])), sorted([bad[0] + 1] + [bad[0]] * 3)))
else:
    print("ok dlopen-counts-%s" % name)
PY
}

# host FLAVOUR BUILD...: the host built by BUILD loads every module; the profile has their counts
host() {
  fl=$1; shift
  mkdir -p "$d/$fl"
  if ! (cd "$d/$fl" && "$@" -O2 -o host "$top/regress/e2e/dlopen_host.c" -ldl) >"$d/$fl/build.log" 2>&1 || [ -s "$d/$fl/build.log" ]; then
    echo "not ok dlopen-host-$fl: build: $(head -1 "$d/$fl/build.log")"; return
  fi
  (cd "$d/$fl" && PATHPROF_FILE="$d/$fl/prof.out" $run ./host "$d/mods" $N >out.txt 2>err.txt); rc=$?
  if [ $rc != 0 ] || ! grep -q "^loaded $N " "$d/$fl/out.txt"; then
    echo "not ok dlopen-load-$fl: status $rc: $(head -1 "$d/$fl/out.txt") $(head -1 "$d/$fl/err.txt")"; return
  fi
  echo "ok dlopen-load-$fl"
  counts "$d/$fl/prof.out" "$fl"
}
host plain $CC
host instrumented "$P" $CC

# an executable's unit keeps the initial-exec access; a shared object's has none
mkdir -p "$d/model"
(cd "$d/model" && "$P" --frames=all $CC -O2 -save-temps -c -o exe.o "$d/mods/mod1.c" && "$P" --frames=all $CC -O2 -fPIC -save-temps -c -o pic.o "$d/mods/mod1.c") >"$d/model/build.log" 2>&1
if ! grep -q 'tls_model("initial-exec"))) struct __pathprof_frame \*__pathprof_sp' "$d/model/exe.i" 2>/dev/null; then
  echo "not ok dlopen-exe-initial-exec: the executable's unit lost its initial-exec access ($(head -1 "$d/model/build.log"))"
elif grep -q 'initial-exec' "$d/model/pic.i"; then
  echo "not ok dlopen-pic-no-initial-exec: a -fPIC unit declares initial-exec"
else
  echo "ok dlopen-tls-models"
fi
