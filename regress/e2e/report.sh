#!/bin/sh
# pathprof report: --top and --function select what they say, lost counts are shown, bad flags and tables get clear errors.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=report
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE
(cd "$d" && "$P" gcc -O2 -o sw "$top/samples/switch.c" && PATHPROF_FILE="$d/sw.out" ./sw) >"$d/setup.log" 2>&1
if [ ! -s "$d/sw.out" ]; then
  echo "not ok report-setup: no profile from samples/switch.c: $(head -1 "$d/setup.log")"
  exit 0
fi

# --top N lists at most N hottest paths.
(cd "$d" && "$R" report --top 3 sw.out >top.txt 2>&1)
n=$(sed -n '/^Hottest paths/,/^$/p' "$d/top.txt" | grep -c '#[0-9]')
if [ "$n" -ge 1 ] && [ "$n" -le 3 ]; then echo "ok report-top"; else echo "not ok report-top: --top 3 listed $n hottest paths"; fi

# --function NAME restricts the hottest paths to that function.
(cd "$d" && "$R" report --function nodefault sw.out >fn.txt 2>&1)
other=$(sed -n '/^Hottest paths/,/^$/p' "$d/fn.txt" | grep '#[0-9]' | grep -vc 'nodefault')
if grep -q 'nodefault' "$d/fn.txt" && [ "$other" = 0 ]; then echo "ok report-function"; else echo "not ok report-function: --function nodefault shows $other other function(s)"; fi

# Bad flags: a non-number for --top, a function that does not exist.
for args in "--top abc" "--top -3"; do
  if (cd "$d" && "$R" report $args sw.out >bad.txt 2>&1); then
    echo "not ok report-flag '$args': accepted (exit 0)"
  else
    echo "ok report-flag '$args'"
  fi
done
(cd "$d" && "$R" report --function no_such_function sw.out >nofn.out 2>nofn.err); rc=$?
if [ "$rc" != 0 ] || grep -q 'no_such_function' "$d/nofn.err"; then
  echo "ok report-unknown-function"
else
  echo "not ok report-unknown-function: --function no_such_function: exit 0, nothing on stderr"
fi

# Path ends the hash table had no room for are shown, not silently left out.
(cd "$d" && "$P" --array-limit=4096 --hash-cap=8 gcc -O2 -o mp "$top/samples/manypaths.c" && PATHPROF_FILE="$d/mp.out" ./mp) >"$d/mp.log" 2>&1
dropped=$("$R" dump --decode "$d/mp.out" 2>/dev/null | awk '$1 == "D" { s += $3 } END { print s + 0 }')
(cd "$d" && "$R" report mp.out >mp.txt 2>&1)
if [ "$dropped" = 0 ]; then
  echo "not ok report-dropped: --hash-cap=8 dropped nothing, the test needs another program"
elif grep -q "$dropped" "$d/mp.txt"; then
  echo "ok report-dropped"
else
  echo "not ok report-dropped: the profile has $dropped dropped path ends (dump shows D lines) but pathprof report does not mention them"
fi

# Damaged tables: an error naming the tables file, the file left alone; a non-zero status with
# --strict, a warning (status 0) without.
cp "$d/sw-switch.pp.json" "$d/good.json"
head -c 200 "$d/good.json" >"$d/sw-switch.pp.json"
before=$(cksum <"$d/sw-switch.pp.json")
(cd "$d" && "$R" report sw.out >/dev/null 2>warn.err); wrc=$?
(cd "$d" && "$R" report --strict sw.out >tab.out 2>tab.err); rc=$?
if [ "$rc" != 0 ] && [ "$wrc" = 0 ] && grep -q 'sw-switch.pp.json' "$d/tab.err" && grep -q 'sw-switch.pp.json' "$d/warn.err" &&
   [ "$(cksum <"$d/sw-switch.pp.json")" = "$before" ]; then
  echo "ok report-damaged-tables"
else
  echo "not ok report-damaged-tables: status $rc (--strict), $wrc (without), stderr '$(head -1 "$d/tab.err")'"
fi
cp "$d/good.json" "$d/sw-switch.pp.json"
