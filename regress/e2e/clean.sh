#!/bin/sh
# pathprof clean: removes the tables pathcc wrote under a directory tree (-n lists them), leaves a
# user's own *.pp.json alone, and names a directory it cannot read.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=clean
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"
mkdir -p tree/a/b tree/c
(cd tree/a/b && "$pc" gcc -c "$top/samples/sort.c" -o sort.o) && (cd tree/c && "$pc" gcc -c "$top/samples/goto.c" -o goto.o) ||
  { echo "not ok clean build"; exit 0; }
echo '{"mine": true}' >tree/c/user.pp.json
n=$("$pp" clean -n tree 2>/dev/null | wc -l)
[ "$n" = 2 ] && [ -f tree/a/b/sort.pp.json ] && echo "ok clean -n lists the two tables and removes nothing" ||
  echo "not ok clean -n: listed $n"
"$pp" clean tree 2>err.txt; rc=$?
if [ $rc = 0 ] && [ ! -f tree/a/b/sort.pp.json ] && [ ! -f tree/c/goto.pp.json ] && [ -f tree/c/user.pp.json ] &&
   grep -q '2 tables files removed' err.txt; then echo "ok clean removes pathcc's tables, keeps the user's own .pp.json"
else echo "not ok clean: rc $rc, $(cat err.txt)"; fi
"$pp" clean nosuchdir 2>err.txt; rc=$?
[ $rc = 1 ] && grep -q 'nosuchdir' err.txt && echo "ok clean names a directory it cannot read" ||
  echo "not ok clean nosuchdir: rc $rc, $(cat err.txt)"
