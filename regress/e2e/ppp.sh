#!/bin/sh
# --mode=ppp on every sample: interesting = all paths of a path-mode run gives path mode's counts; interesting = half lists exactly the other half as residual; trace oracle exact; hot:P%; the residual-paths tutorial of doc/modes.md as written; bad specs.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=ppp
. "$top/regress/private.sh"
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHCC_FLAGS PATHPROF_FILE
CHECK="python3 $top/regress/pppcheck.py"

# build DIR NAME PATHCC-FLAGS SRC...: builds DIR/prog warning-free, runs it (trace too), decodes its profile
build() {
  bd=$1 bn=$2 bf=$3; shift 3
  mkdir -p "$bd"
  if ! (cd "$bd" && "$P" $bf gcc -std=c99 -O2 -Wall -Wextra -o prog "$@" -lm) >"$bd/pathcc.log" 2>&1; then
    echo "not ok ppp-build $bn: pathcc $bf failed: $(head -1 "$bd/pathcc.log")"
    return 1
  fi
  if [ -s "$bd/pathcc.log" ]; then echo "not ok ppp-build $bn: pathcc $bf said: $(head -1 "$bd/pathcc.log")"; fi
  (cd "$bd" && PATHPROF_FILE="$bd/prof.out" PATHPROF_TRACE="$bd/trace.txt" timeout 20 ./prog >prog.out 2>prog.err; echo $? >prog.rc)
  if ! "$R" dump --decode "$bd/prof.out" >"$bd/decoded.txt" 2>"$bd/decoded.err"; then
    echo "not ok ppp-build $bn: pathprof dump --decode failed: $(head -1 "$bd/decoded.err")"
    return 1
  fi
}

# exact NAME DIR (a --trace build): its output is path mode's and the trace oracle agrees with every count
exact() {
  en=$1 ed=$2
  if cmp -s "$ed/prog.out" "$out/$en/path/prog.out" && cmp -s "$ed/prog.rc" "$out/$en/path/prog.rc"; then
    echo "ok ppp-semantics $en-$(basename "$ed")"
  else
    echo "not ok ppp-semantics $en-$(basename "$ed"): output or status differs from the path-mode build"
  fi
  python3 "$top/regress/oracle.py" --name "ppp-$en-$(basename "$ed")" --trace "$ed/trace.txt" --decoded "$ed/decoded.txt" "$ed"/*.pp.json
}

# one NAME SRC...: path mode; ppp with all its paths; ppp with half of them
one() {
  name=$1; shift
  b="$out/$name"  # build and exact use their own variables
  build "$b/path" "$name-path" "" "$@" || return
  [ -s "$b/path/prof.out" ] || { echo "skip ppp $name: the path-mode run wrote no profile"; return; }
  if build "$b/all" "$name-all" "--trace --mode=ppp --interesting=$b/path/prof.out" "$@"; then
    exact "$name" "$b/all"
    $CHECK same "$name" "$b/path" "$b/all"
    # every report reads the ppp profile as the path-mode one (probes aside: this build traces, the
    # path-mode one derives its one-path helpers' counts)
    for cmd in "coverage" "coverage --format gcov" "report --top 5"; do
      (cd "$b/path" && "$R" $cmd prof.out 2>&1 | sed 's/, [0-9]* interesting in [0-9]* ppp slots//; s/[0-9]* probes on [0-9]* edges/probes/; s/counted from its callers. paths/probes/; s/, hash table$//') >"$b/path.rep"
      (cd "$b/all" && "$R" $cmd prof.out 2>&1 | sed 's/, [0-9]* interesting in [0-9]* ppp slots//; s/[0-9]* probes on [0-9]* edges/probes/; s/counted from its callers. paths/probes/; s/, hash table$//') >"$b/all.rep"
      if cmp -s "$b/path.rep" "$b/all.rep"; then echo "ok ppp-reports $name $cmd"
      else echo "not ok ppp-reports $name: pathprof $cmd differs from path mode (diff $b/path.rep $b/all.rep)"; fi
    done
  fi
  $CHECK half "$name" "$b/path" "$b/half.json"
  if build "$b/half" "$name-half" "--trace --mode=ppp --interesting=$b/half.json" "$@"; then
    exact "$name" "$b/half"
    "$R" residual "$b/half/prof.out" >"$b/residual.txt" 2>"$b/residual.err"
    $CHECK residual "$name" "$b/path" "$b/half.json" "$b/residual.txt"
    # against the path-mode run itself nothing is residual
    "$R" residual --baseline "$b/path/prof.out" "$b/half/prof.out" >"$b/vs-path.txt" 2>&1
    if grep -q '^pathprof residual: 0 paths' "$b/vs-path.txt"; then echo "ok ppp-residual-baseline $name"
    else echo "not ok ppp-residual-baseline $name: $(head -1 "$b/vs-path.txt")"; fi
  fi
}

# make check: every other sample, and the three the checks below build on (sample.sh); check-full: all
i=0
for src in "$top"/samples/*.c; do
  n=$(basename "$src" .c) i=$((i + 1))
  case $n in sort|manypaths|switch) ;; *) sampled $i 2 || continue ;; esac
  one "$n" "$src"
done
one demo "$top"/samples/demo/*.c

# --ppp-keep-array=N: small functions keep path mode's array; counts and the residual list are the same
for name in sort manypaths switch; do
  b="$out/$name"
  [ -s "$b/half.json" ] || continue
  if build "$b/keep" "$name-keep" "--trace --mode=ppp --ppp-keep-array=4096 --interesting=$b/half.json" "$top/samples/$name.c"; then
    exact "$name" "$b/keep"
    "$R" residual "$b/keep/prof.out" >"$b/keep-residual.txt" 2>&1
    $CHECK residual "$name-keep" "$b/path" "$b/half.json" "$b/keep-residual.txt"
  fi
done

# 32-bit saturating counters (--counter-bits=32) hold ppp slots too
b="$out/sort"
if [ -s "$b/path/prof.out" ] && build "$b/c32" sort-c32 "--trace --mode=ppp --counter-bits=32 --interesting=$b/half.json" "$top/samples/sort.c"; then
  exact sort "$b/c32"
  "$R" residual "$b/c32/prof.out" >"$b/c32-residual.txt" 2>&1
  $CHECK residual sort-c32 "$b/path" "$b/half.json" "$b/c32-residual.txt"
fi

# hot:P% takes per function the hottest paths (ties: lower id first) until they cover P% of its executions
b="$out/sort"
if [ -s "$b/path/prof.out" ] && build "$b/hot" sort-hot "--mode=ppp --interesting=hot:60%:$b/path/prof.out" "$top/samples/sort.c"; then
  python3 - "$b" "$top/regress/pppcheck.py" <<'PY'
import importlib.util, sys
b = sys.argv[1]
spec = importlib.util.spec_from_file_location("pppcheck", sys.argv[2])
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)
runs = {}
for (src, fn, i), n in pc.paths(b + "/path").items():
    if src != "!":
        runs.setdefault(fn, []).append((-n, i))
want = {}
for fn, l in runs.items():
    l.sort(); total = -sum(n for n, _ in l); s = 0; want[fn] = set()
    for n, i in l:
        if s >= 0.6 * total:
            break
        want[fn].add(i); s -= n
got = {f["name"]: set(int(i) for i in f["interesting"]) for t in pc.tables(b + "/hot").values() for f in t["functions"]}
bad = [fn for fn in set(want) | set(got) if want.get(fn, set()) != got.get(fn, set())]
print("not ok ppp-hot: function %s: expected %s, tables %s" % (bad[0], sorted(want.get(bad[0], [])), sorted(got.get(bad[0], [])))
      if bad else "ok ppp-hot")
PY
fi

# The residual-paths tutorial (doc/modes.md), run as written from a copy of the checkout's layout;
# its shown output must come out.
t="$out/tutorial"
mkdir -p "$t" && ln -s "$top/bin" "$t/bin" && ln -s "$top/samples" "$t/samples"
cat "$top/README.md" "$top"/doc/*.md | sed -n '/<!-- tutorial:residual -->/,/<!-- \/tutorial -->/p' >"$t/section.md"
sed -n '/^```sh$/,/^```$/p' "$t/section.md" | sed '/^```/d' >"$t/tutorial.sh"
sed -n '/^```text$/,/^```$/p' "$t/section.md" | sed '/^```/d' >"$t/expected.txt"
if [ ! -s "$t/tutorial.sh" ] || [ ! -s "$t/expected.txt" ]; then
  echo "not ok ppp-tutorial: README and doc/ have no tutorial:residual section with a sh and a text block"
else
  (cd "$t" && timeout 120 sh tutorial.sh >run.txt 2>&1); rc=$?
  # the program's own lines come first; the residual report is what the README shows
  sed -n '/^pathprof residual:/,$p' "$t/run.txt" >"$t/got.txt"
  if [ "$rc" != 0 ]; then echo "not ok ppp-tutorial: the tutorial stopped with status $rc: $(tail -1 "$t/run.txt")"
  elif diff -b "$t/expected.txt" "$t/got.txt" >"$t/diff.txt"; then echo "ok ppp-tutorial"
  else echo "not ok ppp-tutorial: output differs from the tutorial (diff $t/expected.txt $t/got.txt)"; fi
fi

# Bad specs: one clear error naming the problem, nothing built.
e="$out/errors"
mkdir -p "$e"
printf 'int main(void) { return 0; }\n' >"$e/m.c"
printf '{"format": "pathprof-interesting", "version": 1, "functions": [{"name": "main", "paths": ["x"]}]}\n' >"$e/bad.json"
err() {
  name=$1 want=$2; shift 2
  if (cd "$e" && "$P" "$@" gcc -c m.c -o m.o) >"$e/$name.log" 2>&1; then echo "not ok ppp-error-$name: accepted"
  elif grep -q "$want" "$e/$name.log" && [ "$(wc -l <"$e/$name.log")" = 1 ]; then echo "ok ppp-error-$name"
  else echo "not ok ppp-error-$name: said: $(cat "$e/$name.log")"; fi
}
err no-spec "needs --interesting" --mode=ppp
err no-mode "needs --mode=ppp" --interesting=x.prof
err missing "nothing.prof: cannot read" --mode=ppp --interesting=nothing.prof
err bad-id "paths\[0\] is not a path id" --mode=ppp --interesting=bad.json
err bad-hot "hot wants" --mode=ppp --interesting=hot:200:x.prof

# A function changed since the profile: one warning naming it; all its paths are residual.
cp "$top/samples/temp.c" "$e/temp.c"
(cd "$e" && "$P" gcc -O2 -o old temp.c && PATHPROF_FILE=old.prof ./old >/dev/null) 2>"$e/old.log"
sed 's/if (v < 0)/if (v > 1e6) return -1; if (v < 0)/' "$e/temp.c" >"$e/temp2.c" && mv "$e/temp2.c" "$e/temp.c"
(cd "$e" && "$P" --mode=ppp --interesting=old.prof gcc -O2 -o new temp.c) >"$e/new.log" 2>&1
if grep -q 'warning: .*1 function changed since old.prof.*: convert' "$e/new.log"; then echo "ok ppp-changed-function"
else echo "not ok ppp-changed-function: pathcc said: $(head -1 "$e/new.log")"; fi
