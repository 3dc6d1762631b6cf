# exactlib.sh: sourced by e2e scripts (exact.sh, compilers.sh) after private.sh: the semantics and
# exact-count checks of one plain and one instrumented build (needs top, out and run set).

# check NAME DIR: runs plain and instrumented programs in DIR and compares them, then the counts
check() {
  name=$1 d=$2
  (cd "$d" && $run ./plain >plain.out 2>plain.err; echo $? >plain.rc)
  (cd "$d" && PATHPROF_FILE="$d/prof.out" PATHPROF_TRACE="$d/trace.txt" $run ./prog >prog.out 2>prog.err; echo $? >prog.rc)
  if [ -n "$run" ] && [ "$(cat "$d/prog.rc")" = 124 ] && [ "$(cat "$d/plain.rc")" != 124 ]; then
    echo "not ok semantics $name: the instrumented program hung (killed after 20 s)"
  elif ! cmp -s "$d/plain.out" "$d/prog.out"; then
    echo "not ok semantics $name: stdout differs (diff $d/plain.out $d/prog.out)"
  elif ! cmp -s "$d/plain.rc" "$d/prog.rc"; then
    echo "not ok semantics $name: exit status $(cat "$d/plain.rc") plain, $(cat "$d/prog.rc") instrumented"
  elif ! cmp -s "$d/plain.err" "$d/prog.err"; then
    echo "not ok semantics $name: stderr differs: $(diff "$d/plain.err" "$d/prog.err" | sed -n 2p)"
  else
    echo "ok semantics $name"
  fi
  if [ ! -s "$d/prof.out" ]; then
    echo "not ok oracle $name: no profile written to $d/prof.out"
    return
  fi
  if [ ! -f "$d/trace.txt" ]; then
    echo "not ok oracle $name: no trace written to $d/trace.txt"
    return
  fi
  if ! "$top/bin/pathprof" dump --decode "$d/prof.out" >"$d/decoded.txt" 2>"$d/decoded.err"; then
    echo "not ok oracle $name: pathprof dump --decode failed: $(head -1 "$d/decoded.err")"
    return
  fi
  # shellcheck disable=SC2086
  python3 "$top/regress/oracle.py" ${ORACLE_FLAGS:-} --name "$name" --trace "$d/trace.txt" --decoded "$d/decoded.txt" "$d"/*.pp.json
}

# same_counts NAME DIR: the build without --trace (in DIR/notrace) counts exactly what the tracing build counted
same_counts() {
  name=$1 d=$2
  n="$d/notrace"
  (cd "$n" && PATHPROF_FILE="$n/prof.out" $run ./prog >prog.out 2>prog.err; echo $? >prog.rc)
  if ! cmp -s "$n/prog.out" "$d/plain.out" || ! cmp -s "$n/prog.rc" "$d/plain.rc"; then
    echo "not ok notrace $name: output or status of the build without --trace differs from plain"
    return
  fi
  if ! "$top/bin/pathprof" dump --decode "$n/prof.out" >"$n/decoded.txt" 2>"$n/decoded.err"; then
    echo "not ok notrace $name: pathprof dump --decode failed: $(head -1 "$n/decoded.err")"
    return
  fi
  # Checksums differ between the two builds; match units through their source files.
  python3 - "$name" "$d" "$n" <<'PY'
import glob, json, sys
name, a, b = sys.argv[1:4]
def load(d):
    src = {}
    for p in glob.glob(d + "/*.pp.json"):
        t = json.load(open(p))
        src[t["checksum"].lower()] = t["source"]
    counts = {}
    for line in open(d + "/decoded.txt"):
        w = line.split()
        if w and w[0] in ("P", "O"):
            key = (w[0], src.get(w[1].lower(), w[1]), w[2]) + tuple(w[4:])
            counts[key] = counts.get(key, 0) + int(w[3])
    return counts
x, y = load(a), load(b)
diff = [k for k in sorted(set(x) | set(y)) if x.get(k, 0) != y.get(k, 0)]
if diff:
    print("not ok notrace %s: %d path count(s) differ from the tracing build, e.g. %s: traced %d, untraced %d"
          % (name, len(diff), " ".join(diff[0]), x.get(diff[0], 0), y.get(diff[0], 0)))
else:
    print("ok notrace %s" % name)
PY
}

