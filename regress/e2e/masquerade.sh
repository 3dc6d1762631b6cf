#!/bin/sh
# The masquerade directory: `pathcc --masquerade=DIR` makes links gcc, cc, clang, c99 and the
# target-prefixed names of the installed compilers to pathcc; each runs the real compiler of its
# name (checked with --verbose), a cross one too (arm-none-eabi-gcc when it can be installed);
# nothing recurses with the directory twice in PATH, a second pathcc's masquerade behind it, or
# ccache's masquerade before or after it (ccache hits on the rebuild); a configure script that
# runs "$CC" -v --help (as CPython's does for -fwrapv) keeps its flag with CC=gcc or CC=DIR/gcc,
# where two-word CC="pathcc gcc" loses it; an autotools project builds through it; make install
# installs one whose links reach the installed pathcc.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=masquerade
. "$top/regress/private.sh"
d=$out
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHCC_CC PATHCC_FLAGS PATHPROF_FILE PATHPROF_DB CCACHE_PREFIX
export LC_ALL=C
m="$d/masq"
ok() { echo "ok masquerade-$1${2:+: $2}"; }
nok() { echo "not ok masquerade-$1: $2"; }
tmo=""; command -v timeout >/dev/null 2>&1 && tmo="timeout ${MASQ_TIMEOUT:-300}"  # a recursion never ends
real_gcc=$(command -v gcc)
host=$(gcc -dumpmachine)
printf '/* t.c */\n#include <stdio.h>\nint main(int c, char **v) { (void)v; if (c > 1) puts("args"); else puts("none"); return 0; }\n' >"$d/t.c"

# ---- making one ----
if "$P" --masquerade="$m" >"$d/names.txt" 2>"$d/masq.err"; then
  bad=""
  for n in gcc cc clang c99 "$host-gcc"; do
    [ -L "$m/$n" ] && [ "$(readlink -f "$m/$n")" = "$(readlink -f "$P")" ] && grep -qx "$n" "$d/names.txt" || bad="$bad $n"
  done
  [ -z "$bad" ] && ok create "$(wc -l <"$d/names.txt") links" || nok create "missing or wrong:$bad"
else nok create "status $?: $(head -1 "$d/masq.err")"; fi
# a second run refreshes the links; a file that is no link is left alone, with a warning
rm -f "$m/c89" && echo keep >"$m/c89"
if "$P" --masquerade="$m" >/dev/null 2>"$d/masq2.err" && [ "$(cat "$m/c89")" = keep ] && grep -q "c89" "$d/masq2.err" &&
   [ "$(readlink -f "$m/gcc")" = "$(readlink -f "$P")" ]; then ok refresh
else nok refresh "$(head -1 "$d/masq2.err")"; fi
rm -f "$m/c89"

# ---- each name runs the real compiler of that name ----
# ran LOG: the programs pathcc ran (--verbose), one per line
ran() { sed -n 's|^pathcc: \(/[^ ]*\) .*|\1|p' "$1" | sort -u; }
for server in 0 1; do
  (cd "$d" && PATHCC_SERVER=$server PATH="$m:$PATH" $tmo gcc --verbose -c t.c -o t.o) >"$d/v$server.log" 2>&1
  if [ -f "$d/t.o" ] && [ -f "$d/t.pp.json" ] && [ "$(ran "$d/v$server.log")" = "$real_gcc" ]; then ok "gcc-is-gcc server=$server"
  else nok "gcc-is-gcc server=$server" "ran $(ran "$d/v$server.log" | tr '\n' ' ') (want $real_gcc): $(grep -m1 -i error "$d/v$server.log")"; fi
  rm -f "$d/t.o" "$d/t.pp.json"
done
pfx=$(command -v "$host-gcc")
(cd "$d" && PATH="$m:$PATH" $tmo "$host-gcc" --verbose -c t.c -o t.o) >"$d/vh.log" 2>&1
if [ -f "$d/t.pp.json" ] && [ "$(ran "$d/vh.log")" = "$pfx" ]; then ok target-prefixed "$host-gcc"
else nok target-prefixed "$host-gcc ran $(ran "$d/vh.log" | tr '\n' ' ') (want $pfx)"; fi
if want arm-none-eabi-gcc:gcc-arm-none-eabi && command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  "$P" --masquerade="$m" >"$d/names2.txt" 2>&1
  arm=$(command -v arm-none-eabi-gcc)
  (cd "$d" && PATH="$m:$PATH" $tmo arm-none-eabi-gcc --verbose -mcpu=cortex-m3 -mthumb -O1 -c t.c -o arm.o) >"$d/va.log" 2>&1
  if grep -qx arm-none-eabi-gcc "$d/names2.txt" && [ "$(ran "$d/va.log")" = "$arm" ] && [ -f "$d/arm.pp.json" ] &&
     readelf -h "$d/arm.o" 2>/dev/null | grep -q 'Machine: *ARM'; then ok cross "arm-none-eabi-gcc: an ARM object and its tables"
  else nok cross "ran $(ran "$d/va.log" | tr '\n' ' ') (want $arm): $(grep -m1 -i error "$d/va.log")"; fi
else echo "skip masquerade-cross: arm-none-eabi-gcc is not installed (apt-get install gcc-arm-none-eabi)"; fi

# ---- nothing recurses ----
# build NAME PATH CC: t.c compiled and linked in $d/NAME, within the time limit; the program runs
# and its profile lands there
build() {
  mkdir -p "$d/$1" && cp "$d/t.c" "$d/$1/" &&
    (cd "$d/$1" && PATH="$2" $tmo "$3" -O1 -c t.c -o t.o && PATH="$2" $tmo "$3" -o prog t.o && ./prog x >/dev/null) >"$d/$1.log" 2>&1 &&
    [ -f "$d/$1/t.pp.json" ] && "$R" report "$d/$1/pathprof.out" >"$d/$1.report" 2>&1 && grep -q '^main (t.c' "$d/$1.report"
}
why() { echo "$(tail -1 "$d/$1.log") $(head -1 "$d/$1.report" 2>/dev/null)"; }
build twice "$m:$m:$PATH" gcc && ok twice-in-path || nok twice-in-path "$(why twice)"
build fullpath "$PATH" "$m/gcc" && ok cc-is-dir-gcc "CC=$m/gcc, the directory not in PATH" || nok cc-is-dir-gcc "$(why fullpath)"
# another pathcc (a copy, as a second install) with its own masquerade behind this one
mkdir -p "$d/other/bin" && cp "$P" "$d/other/bin/pathcc" && mkdir -p "$d/other/lib" && cp "$top/lib/"*.a "$d/other/lib/" &&
  "$d/other/bin/pathcc" --masquerade="$d/other/masq" >/dev/null 2>&1
build other "$m:$d/other/masq:$PATH" gcc && ok other-pathcc "a second pathcc's masquerade behind this one" || nok other-pathcc "$(why other)"
build other2 "$d/other/masq:$m:$PATH" gcc && ok other-pathcc-first || nok other-pathcc-first "$(why other2)"
if want ccache:ccache && command -v ccache >/dev/null 2>&1; then
  mkdir -p "$d/ccm" && ln -sf "$(command -v ccache)" "$d/ccm/gcc"
  export CCACHE_DIR="$d/ccache-dir"
  stat() {  # hits or misses since the last ccache -z
    ccache --print-stats 2>/dev/null | awk -v k="$1" '
      k == "hits" && ($1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit") { n += $2 }
      k == "misses" && $1 == "cache_miss" { n += $2 } END { print n + 0 }'
  }
  for order in pathcc-first ccache-first; do
    case $order in pathcc-first) p="$m:$d/ccm:$PATH";; *) p="$d/ccm:$m:$PATH";; esac
    ccache -z >/dev/null
    build "$order" "$p" gcc; a=$?; mi=$(stat misses)
    rm -f "$d/$order/t.o" "$d/$order/prog"
    build "$order" "$p" gcc; b=$?; hi=$(stat hits)
    if [ $a = 0 ] && [ $b = 0 ] && [ "$mi" -ge 1 ] && [ "$hi" -ge 1 ]; then ok "ccache $order" "$mi misses, then $hi hits"
    else nok "ccache $order" "builds $a/$b, $mi misses then $hi hits: $(why "$order")"; fi
  done
  unset CCACHE_DIR
else echo "skip masquerade-ccache: ccache is not installed (apt-get install ccache)"; fi

# ---- a configure that runs "$CC" -v --help, as CPython's does to find -fwrapv ----
mkdir -p "$d/conf"
cat >"$d/conf/configure" <<'EOF'
#!/bin/sh
# configure: -fwrapv when "$CC" -v --help names it
CC=${CC:-cc}
flags=-O1
if "$CC" -v --help 2>/dev/null | grep -q -- -fwrapv; then flags="$flags -fwrapv"; fi
printf 'CC = %s\nCFLAGS = %s\nprog: t.o\n\t$(CC) $(CFLAGS) -o prog t.o\nt.o: t.c\n\t$(CC) $(CFLAGS) -c t.c\n' "$CC" "$flags" >Makefile
EOF
cp "$d/t.c" "$d/conf/"
# conf NAME PATH CC: configure and make in a copy; 0 when -fwrapv was kept and the build instrumented
conf() {
  rm -rf "$d/conf-$1" && cp -r "$d/conf" "$d/conf-$1" &&
    (cd "$d/conf-$1" && PATH="$2" CC="$3" $tmo sh ./configure && PATH="$2" $tmo make && ./prog) >"$d/conf-$1.log" 2>&1 &&
    grep -q -- -fwrapv "$d/conf-$1/Makefile" && [ -f "$d/conf-$1/t.pp.json" ] && [ -s "$d/conf-$1/pathprof.out" ]
}
conf inpath "$m:$PATH" gcc && ok configure-cc-gcc "-fwrapv kept, instrumented" || nok configure-cc-gcc "$(tail -1 "$d/conf-inpath.log")"
conf dirgcc "$PATH" "$m/gcc" && ok configure-cc-dir-gcc || nok configure-cc-dir-gcc "$(tail -1 "$d/conf-dirgcc.log")"
# the reason for all this: two words in CC lose the flag (the shell cannot run "pathcc gcc")
conf twoword "$PATH" "$P gcc"; grep -q -- -fwrapv "$d/conf-twoword/Makefile" 2>/dev/null &&
  nok configure-two-words "CC=\"pathcc gcc\" kept -fwrapv: the test no longer shows why the masquerade is needed" ||
  ok configure-two-words "CC=\"pathcc gcc\" loses -fwrapv, as expected"

# ---- an autotools project through the masquerade ----
if command -v autoreconf >/dev/null 2>&1 && command -v automake >/dev/null 2>&1; then
  mkdir -p "$d/am" && cp "$d/t.c" "$d/am/" &&
  printf 'AC_INIT([t], [1])\nAM_INIT_AUTOMAKE([foreign])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n' >"$d/am/configure.ac" &&
  printf 'bin_PROGRAMS = t\nt_SOURCES = t.c\n' >"$d/am/Makefile.am"
  if (cd "$d/am" && autoreconf -i && PATH="$m:$PATH" $tmo ./configure CC=gcc && PATH="$m:$PATH" $tmo make && ./t x) >"$d/am.log" 2>&1 &&
     { [ -f "$d/am/t-t.pp.json" ] || [ -f "$d/am/t.pp.json" ]; }; then
    if "$R" report "$d/am/pathprof.out" 2>&1 | grep -q '^main (t.c'; then ok autotools "configure, make, run, report"
    else nok autotools "no report of main: $(ls "$d/am")"; fi
  else nok autotools "$(grep -m1 -iE 'error' "$d/am.log")"; fi
else echo "skip masquerade-autotools: autoconf and automake are not installed"; fi

# ---- make install: a masquerade beside the installed pathcc ----
if make -s -C "$top" install DESTDIR="$d/inst" PREFIX=/usr >"$d/install.log" 2>&1 &&
   [ -L "$d/inst/usr/lib/pathprof/bin/gcc" ] && [ "$(readlink -f "$d/inst/usr/lib/pathprof/bin/gcc")" = "$(readlink -f "$d/inst/usr/bin/pathcc")" ] &&
   [ "$(readlink "$d/inst/usr/lib/pathprof/bin/gcc")" = ../../../bin/pathcc ]; then ok install "\$PREFIX/lib/pathprof/bin/gcc -> ../../../bin/pathcc"
else nok install "$(tail -1 "$d/install.log") $(ls -l "$d/inst/usr/lib/pathprof/bin/gcc" 2>&1)"; fi
# ---- C++ drivers: C objects linked by g++ (a Python extension's link) get the runtime; a .c
# file g++ compiles is C++, passed through without a word ----
mkdir -p "$d/cxx"
printf 'int f(int x) { return x > 1 ? x : 0; }\n' >"$d/cxx/a.c"
printf 'extern "C" int f(int);\nint main() { return f(0); }\n' >"$d/cxx/m.cc"
if ! command -v g++ >/dev/null 2>&1; then echo "skip masquerade-cxx: g++ is not installed"
elif [ -L "$m/g++" ] && [ -L "$m/c++" ] &&
     (cd "$d/cxx" && PATH="$m:$PATH" && gcc -c a.c -o a.o && g++ -o prog m.cc a.o && ./prog && PATH="$m:$PATH" g++ -c a.c -o cxx.o) \
       >"$d/cxx/log" 2>&1 && [ ! -s "$d/cxx/log" ] && [ -s "$d/cxx/pathprof.out" ] && ! nm "$d/cxx/cxx.o" | grep -q __pathprof; then
  ok cxx "gcc's instrumented object linked by g++ writes its profile; g++ -c a.c passes through quietly"
else nok cxx "$(ls "$m" | grep -c '++') C++ names; $(head -2 "$d/cxx/log" | tr '\n' ' ')"; fi
exit 0
