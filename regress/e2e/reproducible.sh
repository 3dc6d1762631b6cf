#!/bin/sh
# Reproducible builds: one tree built in two directories with -ffile-prefix-map (and with
# -fdebug-prefix-map plus -fmacro-prefix-map, and -g) gives bit-identical objects and programs;
# the object names its tables through the map, and the reports still find them and show the
# sources. Without a map the objects differ (the tables' absolute path), as the test of the test.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=reproducible
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"

make_tree() {  # dir
  mkdir -p "$1/src" "$1/build"
  cp "$top/samples/sort.c" "$1/src/sort.c"
  cp "$top/samples/switch.c" "$1/src/switch.c"
  sed -i 's/^int main(/int main_switch(/' "$1/src/switch.c"
  printf 'int main_switch(void);\n' >"$1/src/decl.h"
}

build() {  # dir, flags...
  d=$1; shift
  (cd "$d/build" &&
   "$pc" gcc -O1 "$@" -c "$d/src/sort.c" -o sort.o &&
   "$pc" gcc -O1 "$@" -c ../src/switch.c -o switch.o &&
   "$pc" gcc -O1 "$@" -o prog sort.o switch.o) >"$d.log" 2>&1
}

for v in "file:-ffile-prefix-map=@=/src" "debug+macro:-g -fdebug-prefix-map=@=/src -fmacro-prefix-map=@=/src"; do
  name=${v%%:*}; flags=${v#*:}
  rm -rf "$name-a" "$name-b"
  make_tree "$out/$name-a"; make_tree "$out/$name-b"
  fa=$(echo "$flags" | sed "s|@|$out/$name-a|g"); fb=$(echo "$flags" | sed "s|@|$out/$name-b|g")
  if ! build "$out/$name-a" $fa || ! build "$out/$name-b" $fb; then
    echo "not ok reproducible $name build: $(cat "$out/$name-a.log" "$out/$name-b.log" | head -1)"; continue
  fi
  same=yes
  for f in sort.o switch.o prog; do cmp -s "$name-a/build/$f" "$name-b/build/$f" || same="no ($f differs)"; done
  [ "$same" = yes ] && echo "ok reproducible $name: objects and program bit-identical in two directories" ||
    echo "not ok reproducible $name: $same"
  (cd "$name-a/build" && ./prog >/dev/null; "$pp" report pathprof.out >report.txt 2>report.err) 
  if grep -q 'sort.c' "$name-a/build/report.txt" && [ ! -s "$name-a/build/report.err" ]; then
    echo "ok reproducible $name: the report finds the tables and shows the sources"
  else echo "not ok reproducible $name report: $(head -1 "$name-a/build/report.err")"; fi
done

# the test of the test: no map, two directories, two different objects
rm -rf plain-a plain-b; make_tree "$out/plain-a"; make_tree "$out/plain-b"
if build "$out/plain-a" && build "$out/plain-b" && ! cmp -s plain-a/build/sort.o plain-b/build/sort.o; then
  echo "ok reproducible without a prefix map the objects differ (the tables' absolute path)"
else echo "not ok reproducible without a prefix map: the objects are the same, so the test above proves nothing"; fi
