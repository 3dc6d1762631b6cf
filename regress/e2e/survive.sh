#!/bin/sh
# What survives each way a program ends (README "Threads, fork, exec and crashes"): _exit; PATHPROF_SYNC and a torn last stream; every terminating signal with no handler (counts dumped, exit status kept), with the program's own handler and ignored; PATHPROF_SIGNALS=none; a setuid binary ignoring PATHPROF_*; symlinks planted at every name the runtime writes, never followed; appended streams rewritten as one when they outgrow the file; two programs sharing a profile append after one rewrite; continuous and normal runs on one file in every order; 64 writers under random SIGKILL (exact total, nothing left behind); tables changed after pathcc wrote them refused; a file named like the writers' temporary left alone.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=survive
. "$top/regress/private.sh"
d=$E2E_DIR
pp() { "$top/bin/pathprof" "$@"; }
src=$top/regress/e2e/survive_prog.c
if ! (cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O1 -o prog "$src" && "$top/bin/pathcc" --continuous --update=atomic gcc -std=c99 -O1 -o cprog "$src") >"$d/build.log" 2>&1 || [ -s "$d/build.log" ]; then
  echo "not ok survive-build: $(head -1 "$d/build.log")"; exit 0
fi
(cd "$d" && PATHPROF_FILE=$d/one.out ./prog && pp dump --decode one.out >one.txt) || { echo "not ok survive-reference: no profile"; exit 0; }
# same NAME FILE FACTOR: work()'s counts in FILE (with the dumps beside it) are FACTOR times one run's
same() {
  if ! pp dump --decode "$2" >"$d/$1.txt" 2>"$d/$1.err"; then echo "not ok survive-$1: unreadable: $(head -1 "$d/$1.err")"
  elif why=$(python3 "$top/regress/countcmp.py" --fn=0 "$d/one.txt" "$d/$1.txt" "$3"); then echo "ok survive-$1"
  else echo "not ok survive-$1: $(echo "$why" | head -1)"; fi
}

# signals: no handler (dumped silently, then the default action's status), own handler, ignored
for sig in 15 2 1 3 14 24 25 26 27 12; do
  for how in none own ignore; do
    f=$d/sig$sig$how.out
    (cd "$d" && PATHPROF_FILE=$f $run ./prog sig $sig $how >/dev/null 2>"$f.err"); rc=$?
    want=0; [ $how = none ] && want=$((128 + sig))
    if [ $rc != $want ]; then echo "not ok survive-signal-$sig-$how: exit status $rc, expected $want"; continue; fi
    [ $how = none ] && ! ls "$f".crash.* >/dev/null 2>&1 && { echo "not ok survive-signal-$sig-$how: no dump"; continue; }
    # the program's stderr is its own: a test killing a child by SIGTERM may want it empty
    [ -s "$f.err" ] && { echo "not ok survive-signal-$sig-$how: the runtime wrote on stderr: $(head -1 "$f.err")"; continue; }
    same signal-$sig-$how "$f" 1
  done
done
(cd "$d" && PATHPROF_SIGNALS=none PATHPROF_FILE=$d/nosig.out $run ./prog sig 15 none >/dev/null 2>&1); rc=$?
[ $rc = 143 ] && ! ls "$d"/nosig.out* >/dev/null 2>&1 && echo "ok survive-signals-none" || echo "not ok survive-signals-none: status $rc, files: $(ls "$d"/nosig.out* 2>/dev/null)"

# no /proc (a mount namespace without it): the anonymous dump could not be named through
# /proc/self/fd and was dropped; it goes to the named temporary instead, counts intact
if [ "$(id -u)" = 0 ] && unshare -m sh -c 'umount -l /proc' 2>/dev/null; then
  f=$d/noproc.out
  (cd "$d" && PATHPROF_FILE=$f $run unshare -m sh -c 'umount -l /proc && exec ./prog sig 15 none' >/dev/null 2>"$f.err"); rc=$?
  if [ $rc != 143 ]; then echo "not ok survive-noproc: exit status $rc, expected 143"
  elif ! ls "$f".crash.* >/dev/null 2>&1; then echo "not ok survive-noproc: no dump ($(head -1 "$f.err"))"
  else same noproc "$f" 1; fi
else echo "skip survive-noproc: needs root and unshare -m to hide /proc"; fi

# a write that fails with crash dumps beside the profile leaves the mark (it was taken away
# before the write was known good, so the next writer did not look for the dumps)
f=$d/mark.out
(cd "$d" && PATHPROF_FILE=$f ./prog >/dev/null && PATHPROF_FILE=$f ./prog sig 15 none >/dev/null 2>&1)
(cd "$d" && trap '' XFSZ && ulimit -f 0 && PATHPROF_FILE=$f ./prog >/dev/null 2>"$f.err")
if ! ls "$f".crash.* >/dev/null 2>&1; then echo "not ok survive-mark-kept: no dump to begin with"
elif [ ! -e "$d/.mark.out.crashed" ]; then echo "not ok survive-mark-kept: the mark is gone after a failed write ($(head -1 "$f.err"))"
else
  (cd "$d" && PATHPROF_FILE=$f ./prog >/dev/null)
  if ls "$f".crash.* >/dev/null 2>&1 || [ -e "$d/.mark.out.crashed" ]; then echo "not ok survive-mark-kept: the next write left the dump or the mark"
  else same mark-kept "$f" 3; fi
fi

# a setuid binary (owned by nobody) ignores PATHPROF_FILE: pathprof.out in the working directory
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  mkdir -p "$d/suid" && cp "$d/prog" "$d/suid/prog" && chown nobody "$d/suid/prog" && chmod 4755 "$d/suid/prog" && chmod 1777 "$d/suid"
  (cd "$d/suid" && PATHPROF_FILE=$d/suid/chosen.out PATHPROF_SIGNALS=none ./prog >/dev/null 2>"$d/suid.err")
  if [ -e "$d/suid/chosen.out" ]; then echo "not ok survive-setuid: PATHPROF_FILE was obeyed"
  elif [ ! -s "$d/suid/pathprof.out" ]; then echo "not ok survive-setuid: no pathprof.out in the working directory ($(head -1 "$d/suid.err"))"
  elif [ "$(wc -l <"$d/suid.err")" != 1 ] || ! grep -q 'PATHPROF_.* ignored' "$d/suid.err"; then echo "not ok survive-setuid: stderr: $(head -2 "$d/suid.err" | tr '\n' '|')"
  else same setuid "$d/suid/pathprof.out" 1; fi
else
  echo "skip survive-setuid: needs root and a user nobody"
fi

# symlinks planted at every name the runtime writes point at a victim it must never touch
echo victim >"$d/victim"
plant() { ln -sf "$d/victim" "$1"; }
sl=$d/sl.out
plant "$sl.tmp"                                  # the locked writers' temporary
(cd "$d" && PATHPROF_FILE=$sl ./prog) 2>"$d/sl1.err"
plant "$d/.sl.out.crashed"                       # the mark that dumps lie beside it
(cd "$d" && PATHPROF_FILE=$sl sh -c 'ln -s "$1/victim" "$2.crash.$$"; ln -s "$1/victim" "$2.crash.$$.tmp"; exec ./prog sig 15 none' x "$d" "$sl") 2>"$d/sl2.err"
printf 'garbage, not a profile' >"$d/bad.out"    # a merge that fails saves aside
(cd "$d" && PATHPROF_FILE=$d/bad.out sh -c 'ln -s "$1/victim" "$2.$$.bad-merge"; ln -s "$1/victim" "$2.$$.bad-merge.tmp.$$"; exec ./prog' x "$d" "$d/bad.out") 2>"$d/sl3.err"
plant "$d/link.out"                              # the profile itself
(cd "$d" && PATHPROF_FILE=$d/link.out ./prog) 2>"$d/sl4.err"
plant "$d/trace.log"
(cd "$d" && "$top/bin/pathcc" --trace gcc -std=c99 -O1 -o tprog "$src" && PATHPROF_TRACE=$d/trace.log PATHPROF_FILE=$d/t.out ./tprog) >/dev/null 2>"$d/sl5.err"
find "$d" -maxdepth 1 -type l -delete  # pathprof reads the dumps beside a profile, links too
if [ "$(cat "$d/victim")" != victim ]; then echo "not ok survive-symlinks: the victim was written through a link"
elif ! grep -q 'symbolic link' "$d/sl4.err"; then echo "not ok survive-symlinks: a linked profile was not refused: $(head -1 "$d/sl4.err")"
else echo "ok survive-symlinks"; same symlinks-counts "$sl" 2; fi

# "<profile>.tmp" is the locked rewriters' temporary, but a write that makes none (the first
# write, an append) leaves a file of that name alone: here it is another profile (each exit
# removed it before)
(cd "$d" && PATHPROF_FILE=$d/two.out.tmp ./prog && PATHPROF_FILE=$d/two.out ./prog && PATHPROF_FILE=$d/two.out ./prog)
if [ -s "$d/two.out.tmp" ]; then same tmp-name-kept "$d/two.out.tmp" 1; same tmp-name-kept-other "$d/two.out" 2
else echo "not ok survive-tmp-name-kept: the profile two.out.tmp was removed by the writes of two.out"; fi

# continuous and normal runs on one file, in every order: normal first (the file becomes a
# continuous one), continuous processes running while normal runs merge in place, killed after
c=$d/c.out
(cd "$d" && PATHPROF_FILE=$c ./prog && PATHPROF_FILE="$c%c" ./cprog && PATHPROF_FILE=$c ./prog)
same cont-order "$c" 3
c=$d/c2.out
(cd "$d" || exit; PATHPROF_FILE="$c%c" ./cprog wait "$d/go" & PATHPROF_FILE="$c%c" ./cprog wait "$d/go" & sleep 0.3
 PATHPROF_FILE=$c ./prog; PATHPROF_FILE=$c ./prog; : >"$d/go"; wait; PATHPROF_FILE=$c ./prog)
same cont-running "$c" 7
c=$d/c3.out; rm -f "$d/go"
(cd "$d" || exit; PATHPROF_FILE="$c%c" ./cprog wait "$d/go" & p=$!; sleep 0.3; PATHPROF_FILE=$c ./prog; : >"$d/go"; sleep 0.3; kill -9 $p 2>/dev/null; wait)
same cont-killed "$c" 3

# 64 writers, some SIGKILLed at random moments: every finished one's counts, nothing left behind
rounds=$(sized 2 20)
(cd "$d" && PATHPROF_FILE=$d/stress1.out ./prog stress && pp dump --decode stress1.out >stress1.txt)
s=$d/stress.out; kills=0; r=0
while [ $r -lt $rounds ]; do
  i=0; pids=""
  while [ $i -lt 64 ]; do (cd "$d" && PATHPROF_FILE=$s exec ./prog stress) & pids="$pids $!"; i=$((i + 1)); done
  for p in $(echo $pids | tr ' ' '\n' | shuf -n 24); do sleep 0.00$(shuf -i 0-9 -n 1); kill -9 $p 2>/dev/null && kills=$((kills + 1)); done
  wait; r=$((r + 1))
done
(cd "$d" && PATHPROF_FILE=$s ./prog stress)   # the next writer
left=$(ls "$d" | grep -e '^stress.out\.' | tr '\n' ' ')
pp dump --decode "$s" >"$d/stress.txt" 2>"$d/stress.err"
k=$(python3 - "$d/stress1.txt" "$d/stress.txt" <<'PY'
import sys
def load(p):
    return {" ".join(w[:3] + w[4:]): int(w[3]) for w in (l.split() for l in open(p)) if w and w[0] == "P" and w[2] == "0"}
one, many = load(sys.argv[1]), load(sys.argv[2])
ks = {many.get(key, 0) / v for key, v in one.items() if v}
k = ks.pop() if len(ks) == 1 and set(many) == set(one) else -1
print(int(k) if k == int(k) else -1)
PY
)
runs=$((rounds * 64 + 1))
if [ -n "$left" ]; then echo "not ok survive-sigkill-stress: left behind: $left"
elif [ "$k" -lt $((runs - kills)) ] || [ "$k" -gt "$runs" ]; then echo "not ok survive-sigkill-stress: total is $k runs' counts (not an exact multiple, or outside $((runs - kills))..$runs)"
else echo "ok survive-sigkill-stress: $runs runs, $kills killed, $k runs' counts, nothing left behind"; fi

# _exit from instrumented code: the exit handler does not run, but pathcc renamed the call to the
# runtime's wrapper, which writes first (issue 17), so both runs' counts are there
f=$d/uexit.out
(cd "$d" && PATHPROF_FILE=$f ./prog && PATHPROF_FILE=$f ./prog _exit); rc=$?
if [ $rc != 0 ]; then echo "not ok survive-_exit: status $rc"; else same _exit "$f" 2; fi

# power loss: PATHPROF_SYNC=1 syncs the file (and its directory when the file is new); without
# it nothing is synced; a torn last stream (a write the kernel had not finished) is skipped by
# readers and cut off by the next writer
if command -v strace >/dev/null 2>&1; then
  (cd "$d" && PATHPROF_FILE=$d/sync.out PATHPROF_SYNC=1 strace -f -e trace=fsync,fdatasync -o sync1.tr ./prog &&
   PATHPROF_FILE=$d/sync.out PATHPROF_SYNC=1 strace -f -e trace=fsync,fdatasync -o sync2.tr ./prog &&
   PATHPROF_FILE=$d/nosync.out strace -f -e trace=fsync,fdatasync -o sync3.tr ./prog) >/dev/null 2>&1
  n1=$(grep -c 'sync(' "$d/sync1.tr"); n2=$(grep -c 'sync(' "$d/sync2.tr"); n3=$(grep -c 'sync(' "$d/sync3.tr")
  if [ "$n1" -ge 2 ] && [ "$n2" -ge 1 ] && [ "$n3" = 0 ]; then echo "ok survive-sync: $n1, $n2 and $n3 syncs"
  else echo "not ok survive-sync: $n1 syncs creating, $n2 appending with PATHPROF_SYNC=1, $n3 without"; fi
else
  echo "skip survive-sync: no strace"
fi
f=$d/torn.out
(cd "$d" && PATHPROF_FILE=$f ./prog && PATHPROF_FILE=$f ./prog)
n=$(wc -c <"$f"); head -c $((n - 20)) "$f" >"$f.cut" && mv "$f.cut" "$f"
same torn-read "$f" 1
(cd "$d" && PATHPROF_FILE=$f ./prog)
same torn-next "$f" 2

# appended streams that outgrow the file: rewritten as one stream at the run that finds them too
# long, every run's counts there (each run's stream is dense: 8192 counters, 64 KB)
python3 - "$d/big.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for j in range(8):
        f.write("int f%d(unsigned x)\n{\n  int s = 0;\n" % j)
        for b in range(10):
            f.write("  if (x & %uu)\n    s += %d;\n  else\n    s ^= %d;\n" % (1 << b, b + 1, b + 3))
        f.write("  return s;\n}\n")
    f.write("int main(void)\n{\n  unsigned x;\n  int s = 0;\n  for (x = 0; x < 1024; x++)\n    s += %s;\n  return s == 1;\n}\n"
            % " + ".join("f%d(x)" % j for j in range(8)))
PY
sizes=; k=0
if (cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O1 -o big big.c && PATHPROF_FILE=$d/big1.out ./big) >"$d/big.log" 2>&1; then
  while [ $k -lt 8 ]; do (cd "$d" && PATHPROF_FILE=$d/big.out ./big); k=$((k + 1)); sizes="$sizes $(wc -c <"$d/big.out")"; done
  total() { pp dump "$1" | awk '$1 ~ /^\[/ { s += $2 } END { print s + 0 }'; }
  one=$(total "$d/big1.out"); all=$(total "$d/big.out"); sizes=${sizes# }; first=${sizes%% *}
  if [ "$all" != $((8 * one)) ] || [ "$one" = 0 ]; then echo "not ok survive-rewrite: $all counts after 8 runs, one run has $one"
  elif ! echo "$sizes" | awk -v f="$first" '{ for (i = 2; i <= NF; i++) if ($i < $(i - 1) && $i == f) r = 1 } END { exit !r }'
  then echo "not ok survive-rewrite: never rewritten as one stream (sizes:$sizes)"
  else echo "ok survive-rewrite: sizes $sizes"; fi
else
  echo "not ok survive-rewrite: $(head -1 "$d/big.log")"
fi

# two programs sharing a profile: the first run of the second rewrites the file as one stream
# (its units are new to the first stream), the later runs of both append (no rename)
f=$d/shared.out
if command -v strace >/dev/null 2>&1 && [ -x "$d/big" ]; then
  r=
  for p in prog big prog big; do
    (cd "$d" && PATHPROF_FILE=$f strace -e trace=rename,renameat,renameat2 -o shared.tr ./$p)
    r="$r$(grep -c '^rename' "$d/shared.tr")"
  done
  want=$((2 * $(total "$d/one.out") + 2 * $(total "$d/big1.out"))); got=$(total "$f")
  if [ "$r" != 0100 ]; then echo "not ok survive-shared: renames per run $r (want 0100)"
  elif [ "$got" != "$want" ]; then echo "not ok survive-shared: $got counts, want $want"
  else echo "ok survive-shared"; fi
else
  echo "skip survive-shared: no strace"
fi

# tables changed after pathcc wrote them are refused, naming the file
n=$(sized 300 1500)
python3 - "$d/prog-survive_prog.pp.json" "$top/bin/pathprof" "$n" "$d" <<'PY'
import json, random, subprocess, sys, shutil
src, pathprof, n, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
orig = json.load(open(src))
def leaves(o, path=()):
    if isinstance(o, dict):
        for k, v in o.items():
            if k != "digest": yield from leaves(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o): yield from leaves(v, path + (i,))
    else:
        yield path
paths = list(leaves(orig))
random.seed(23)
accepted = 0
for i in range(n):
    t = json.loads(json.dumps(orig))
    p = random.choice(paths)
    o = t
    for k in p[:-1]: o = o[k]
    v = o[p[-1]]
    if isinstance(v, bool): o[p[-1]] = not v
    elif isinstance(v, int): o[p[-1]] = v + random.choice([-2, -1, 1, 7])
    elif isinstance(v, float): o[p[-1]] = v * 2 + 1
    elif isinstance(v, str): o[p[-1]] = (str(int(v) + 1) if v.isdigit() else v + "x")
    else: o[p[-1]] = 0
    f = "%s/m.pp.json" % d
    json.dump(t, open(f, "w"))
    r = subprocess.run([pathprof, "dump", f], capture_output=True, text=True)
    if r.returncode == 0 or f not in r.stderr:
        accepted += 1
        shutil.copy(f, "%s/accepted-%d.pp.json" % (d, i))
print("ok survive-tables-changed: %d changed tables refused" % n if not accepted else
      "not ok survive-tables-changed: %d of %d changed tables accepted" % (accepted, n))
PY
