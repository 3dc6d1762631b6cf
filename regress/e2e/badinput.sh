#!/bin/sh
# Bad input: a unit libclang rejects still builds (one warning); broken profiles are refused untouched, by pathprof and by a running program.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=badinput
. "$top/regress/private.sh"
d=$E2E_DIR
sum() { cksum <"$1"; }

# (a) A GNU C nested function: gcc compiles it, libclang reports "function definition is not allowed here".
cat >"$d/gnunested.c" <<'C'
/* GNU C only: apply() defines a nested function, which clang rejects. */
#include <stdio.h>
static int twice(int x) { return 2 * x; }
static int apply(int n)
{
  int base = 3;
  int add(int v) { return v + base; }
  int s = 0, i;
  for (i = 0; i < n; i++)
    s += add(i);
  return s;
}
int main(void)
{
  int r = apply(5) + twice(4);
  printf("%d\n", r);
  return r == 33 ? 0 : 1;
}
C
if clang -fsyntax-only "$d/gnunested.c" >/dev/null 2>&1; then
  echo "not ok badinput-clang-rejects: clang accepts the nested function; the test needs another construct"
elif ! gcc -o "$d/gnunested.plain" "$d/gnunested.c" >/dev/null 2>&1; then
  echo "not ok badinput-gcc-accepts: gcc rejects the nested function"
else
  echo "ok badinput-construct"
fi
(cd "$d" && "$top/bin/pathcc" gcc -O2 -o gnunested gnunested.c >a.stdout 2>a.stderr; echo $? >a.rc)
if [ "$(cat "$d/a.rc")" != 0 ]; then
  echo "not ok badinput-a-build: pathcc exited $(cat "$d/a.rc"): $(head -1 "$d/a.stderr")"
else
  echo "ok badinput-a-build"
  lines=$(wc -l <"$d/a.stderr" | tr -d ' ')
  if [ "$lines" = 1 ] && grep -q 'gnunested\.c' "$d/a.stderr" && grep -qi 'warning' "$d/a.stderr"; then
    echo "ok badinput-a-one-warning"
  else
    echo "not ok badinput-a-one-warning: want one warning line naming gnunested.c, got $lines line(s): $(head -3 "$d/a.stderr" | tr '\n' '|')"
  fi
  out=$(cd "$d" && PATHPROF_FILE="$d/a.out" ./gnunested 2>"$d/a.run.stderr"); rc=$?
  if [ "$out" = 33 ] && [ "$rc" = 0 ] && [ ! -s "$d/a.run.stderr" ]; then
    echo "ok badinput-a-runs"
  else
    echo "not ok badinput-a-runs: printed '$out', status $rc, stderr '$(head -1 "$d/a.run.stderr")' (want 33, 0, nothing)"
  fi
  # The other functions of the unit are still instrumented; apply is listed as skipped.
  if "$top/bin/pathprof" dump --decode "$d/a.out" >"$d/a.decoded" 2>&1 &&
     python3 - "$d/gnunested-gnunested.pp.json" "$d/a.decoded" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
names = [f["name"] for f in t["functions"]]
skipped = [s["name"] for s in t.get("skipped", [])]
ran = {int(l.split()[2]) for l in open(sys.argv[2]) if l.startswith("P ")}
ok = "twice" in names and "main" in names and "apply" in skipped and "apply" not in names \
     and names.index("twice") in ran and names.index("main") in ran
if not ok:
    print("functions %s, skipped %s, counted %s" % (names, skipped, sorted(ran)))
sys.exit(0 if ok else 1)
PY
  then
    echo "ok badinput-a-rest-instrumented"
  else
    echo "not ok badinput-a-rest-instrumented: $(tail -1 "$d/a.decoded")"
  fi
fi

# A valid profile to break: one run of an instrumented sample.
(cd "$d" && "$top/bin/pathcc" gcc -O2 -o good "$top/samples/switch.c" >/dev/null 2>&1 &&
  PATHPROF_FILE="$d/good.out" ./good >good.stdout 2>good.stderr; echo $? >good.rc)
if [ ! -s "$d/good.out" ] || ! "$top/bin/pathprof" report "$d/good.out" >/dev/null 2>&1; then
  echo "not ok badinput-b-setup: could not make a valid profile with samples/switch.c"
  exit 0
fi
size=$(wc -c <"$d/good.out" | tr -d ' ')

# corrupt NAME OFFSET: a copy of good.out with the byte at OFFSET changed
corrupt() {
  cp "$d/good.out" "$d/$1"
  v=$(od -An -tu1 -j "$2" -N1 "$d/good.out" | tr -d ' ')
  printf "\\$(printf %o $(( (v + 1) % 256 )))" | dd of="$d/$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# refuse NAME: pathprof report and dump on NAME must fail, name the file, and leave it unchanged
refuse() {
  before=$(sum "$d/$1")
  for cmd in report dump; do
    (cd "$d" && "$top/bin/pathprof" $cmd "$d/$1" >"$1.$cmd.stdout" 2>"$1.$cmd.stderr"); rc=$?
    after=$(sum "$d/$1")
    if [ "$rc" = 0 ]; then
      echo "not ok badinput-b-$cmd-$1: exit status 0 on a broken profile"
    elif ! grep -q "$1" "$d/$1.$cmd.stderr"; then
      echo "not ok badinput-b-$cmd-$1: message does not name the file: $(head -1 "$d/$1.$cmd.stderr")"
    elif [ "$before" != "$after" ]; then
      echo "not ok badinput-b-$cmd-$1: the file changed"
    else
      echo "ok badinput-b-$cmd-$1"
    fi
  done
}

# (b) truncated profiles and byte-corrupted ones
head -c $((size / 2)) "$d/good.out" >"$d/trunc-half.out"; refuse trunc-half.out
head -c $((size - 1)) "$d/good.out" >"$d/trunc-last.out"; refuse trunc-last.out
head -c 12 "$d/good.out" >"$d/trunc-header.out"; refuse trunc-header.out
corrupt flip-magic.out 0; refuse flip-magic.out
corrupt flip-version.out 8; refuse flip-version.out
corrupt flip-middle.out $((size / 2)); refuse flip-middle.out
corrupt flip-sum.out $((size - 1)); refuse flip-sum.out
{ cat "$d/good.out"; printf 'x'; } >"$d/trailing.out"; refuse trailing.out

# (c) a program whose existing profile is corrupt still runs, keeps the file as it is, and says so on stderr
for f in flip-middle.out trunc-half.out; do
  cp "$d/$f" "$d/run-$f"
  before=$(sum "$d/run-$f")
  (cd "$d" && PATHPROF_FILE="$d/run-$f" ./good >"run-$f.stdout" 2>"run-$f.stderr"; echo $? >"run-$f.rc")
  after=$(sum "$d/run-$f")
  bad=$(ls "$d" | grep -F "run-$f." | grep 'bad-merge$' | head -1)
  if ! cmp -s "$d/run-$f.stdout" "$d/good.stdout" || ! cmp -s "$d/run-$f.rc" "$d/good.rc"; then
    echo "not ok badinput-c-runs-$f: output or status differs from a normal run"
  else
    echo "ok badinput-c-runs-$f"
  fi
  if [ "$before" = "$after" ]; then
    echo "ok badinput-c-untouched-$f"
  else
    echo "not ok badinput-c-untouched-$f: the corrupt profile was changed"
  fi
  if grep -q "run-$f" "$d/run-$f.stderr"; then
    echo "ok badinput-c-message-$f"
  else
    echo "not ok badinput-c-message-$f: stderr does not name the file: '$(head -1 "$d/run-$f.stderr")'"
  fi
  # The counts are not lost: they went to <file>.<pid>.bad-merge, a valid profile.
  if [ -n "$bad" ] && "$top/bin/pathprof" dump "$d/$bad" >/dev/null 2>&1; then
    echo "ok badinput-c-saved-$f"
  else
    echo "not ok badinput-c-saved-$f: no readable <file>.<pid>.bad-merge next to it ('$bad')"
  fi
done

# (d) The tables' digest is what doc/formats.md defines (FNV-1a 64 of the compact dump with sorted
# keys, "digest" left out), computed here by Python's json, which shares no code with pathcc's
# (which hashes as it walks, and falls back to jansson's dump): tables of every regress case in
# path mode and of some in the other modes
mkdir -p "$d/digest"
for c in "$top"/regress/cases/*.c; do
  n=$(basename "$c" .c)
  (cd "$d/digest" && "$top/bin/pathcc" gcc -O1 -c -o "$n.o" "$c") >/dev/null 2>&1
done
for m in edge ppp kpath; do
  (cd "$d/digest" && "$top/bin/pathcc" --mode=$m gcc -O1 -c -o "oddflow-$m.o" "$top/regress/cases/oddflow.c") >/dev/null 2>&1
done
python3 - "$d"/digest/*.pp.json <<'PY'
import json, sys
def fnv(b):
    h = 0xcbf29ce484222325
    for x in b: h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
    return '%016x' % h
bad, n = [], 0
for p in sys.argv[1:]:
    t = json.load(open(p))
    want = t.pop('digest', None)
    got = fnv(json.dumps(t, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode())
    n += 1
    if got != want: bad.append('%s: %s, not %s' % (p.rsplit('/', 1)[1], want, got))
if n < 20: print('not ok badinput-digest: only %d tables written' % n)
elif bad: print('not ok badinput-digest: ' + '; '.join(bad[:3]))
else: print('ok badinput-digest: %d tables' % n)
PY
