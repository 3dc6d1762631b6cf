#!/bin/sh
# Line counts on real programs (make check-full only): five C programs from Debian source packages
# (bzip2, zstd, Lua, PCRE2, libyaml), each built at -O0 with gcc --coverage, with clang-19's
# source-based coverage and through pathcc, run on one deterministic workload; every line's three
# counts are compared (regress/linecmp.py) and each difference must fall in a documented class.
# Prints the agreement table (README, "Line counts against gcov and llvm-cov").
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=lines_real
if [ -z "${REGRESS_FULL:-}" ]; then echo "skip lines-real: five real programs built three ways; runs in make check-full"; exit 0; fi
. "$top/regress/private.sh"
d=$E2E_DIR
# the same addresses in every run (Lua hashes some pointers): the rest runs without randomization
if [ -z "${LINES_REAL_NORAND:-}" ] && setarch "$(uname -m)" -R true 2>/dev/null; then
  LINES_REAL_NORAND=1 exec setarch "$(uname -m)" -R sh "$0" "$@"
fi
P=${LINES_REAL_PATHCC:-$top/bin/pathcc}   # another build's tools: its agreement table
R=${LINES_REAL_PATHPROF:-$top/bin/pathprof}
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
if [ "$(id -u)" = 0 ]; then sh "$top/scripts/deps.sh" clang-19 llvm-19 dpkg-dev gpgv >/dev/null 2>&1; fi
for t in gcov clang-19 llvm-cov-19 llvm-profdata-19 dpkg-source; do
  command -v $t >/dev/null 2>&1 || { echo "skip lines-real: $t is missing (apt-get install clang-19 llvm-19 dpkg-dev)"; exit 0; }
done

. "$top/regress/debsrc.sh"   # cache, apt_src, debsrc_fetch

# One program built one way: compile FILES (absolute) into objects under OUT with TOOL's compiler
# and flags, link them into OUT/prog. TOOL: gcc (gcc --coverage), clang (clang-19 coverage),
# pathcc (pathcc gcc).
build() {  # tool out cflags ldflags files...
  tool=$1 out=$2 cflags=$3 ldflags=$4; shift 4
  case $tool in
    gcc) cc="gcc --coverage" ;;
    clang) cc="clang-19 -fprofile-instr-generate -fcoverage-mapping" ;;
    pathcc) cc="$P gcc" ;;
  esac
  mkdir -p "$out"
  for f in "$@"; do echo "$f"; done | xargs -P 2 -I{} sh -c \
    'o="$1/$(echo "$2" | tr / _ | sed "s/\.c$/.o/")"; $3 -O0 -w $4 -c "$2" -o "$o" || echo "FAILED $2"' _ "$out" {} "$cc" "$cflags" \
    >"$out/build.log" 2>&1
  # shellcheck disable=SC2086
  $cc -O0 -o "$out/prog" "$out"/*.o $ldflags >>"$out/build.log" 2>&1 && ! grep -q '^FAILED' "$out/build.log"
}

# The three builds of one program, each run on the workload (a function of the program's binary
# and a scratch directory), then the line table. Programs run in one source tree, so the three
# tools see the same file names.
three_ways() {  # name srcdir cflags ldflags workload files...
  name=$1 src=$2 cflags=$3 ldflags=$4 work=$5; shift 5
  hashing=no; [ "$name" = lua ] && hashing=yes
  o="$d/$name"
  rm -rf "$o"; mkdir -p "$o"
  for tool in gcc clang pathcc; do
    if ! build $tool "$o/$tool" "$cflags" "$ldflags" "$@"; then
      echo "not ok lines-real $name: the $tool build failed: $(grep -m1 -i 'error\|FAILED' "$o/$tool/build.log")"
      return
    fi
    # one path for every build's binary (bzip2 walks its argv[0]) and no address randomization
    rm -rf "$o/run" && mkdir -p "$o/run/bin" && cp "$o/$tool/prog" "$o/run/bin/prog"
    (cd "$o/run" && LLVM_PROFILE_FILE="$o/$tool/%p.profraw" PATHPROF_FILE="$o/$tool/pathprof.out" \
      $work "$o/run/bin/prog" "$src" >"$o/$tool/run.log" 2>&1) ||
      { echo "not ok lines-real $name: the $tool build's workload failed: $(tail -1 "$o/$tool/run.log")"; return; }
  done
  (cd "$o/gcc" && gcov --json-format -t ./*.gcda >gcov.json 2>gcov.err)
  llvm-profdata-19 merge -o "$o/clang/prof.profdata" "$o"/clang/*.profraw &&
    llvm-cov-19 export -skip-expansions -skip-functions "$o/clang/prog" -instr-profile="$o/clang/prof.profdata" >"$o/clang/llvm.json" 2>"$o/clang/export.err"
  "$R" coverage --format json -o "$o/pathcc/cov.json" "$o/pathcc/pathprof.out" 2>"$o/pathcc/cov.err"
  python3 "$top/regress/linecmp.py" --check "$name" --under "$src" --gcov "$o/gcc/gcov.json" \
    --llvm "$o/clang/llvm.json" --pathprof "$o/pathcc/cov.json" --table "$d/table.txt" \
    --known "$top/regress/e2e/lines_real_known.txt" --address-hashing $hashing
}

# ---- the programs and their workloads ----

work_bzip2() {  # prog src
  for lvl in 1 5 9; do
    for s in 1 2 3; do
      "$1" -$lvl -c "$2/sample$s.ref" >x.bz2 && "$1" -d -c x.bz2 >x && cmp -s x "$2/sample$s.ref" || return 1
    done
  done
  "$1" -t "$2/sample1.bz2" && "$1" -dc "$2/sample3.bz2" | cmp -s - "$2/sample3.ref"
}

work_zstd() {
  cat "$2"/lib/compress/*.c "$2"/lib/decompress/*.c >in
  for lvl in 1 3 9 15; do
    "$1" -q -f -$lvl in -o x.zst && "$1" -q -f -d x.zst -o x && cmp -s in x || return 1
  done
  "$1" -q -f --ultra -20 --long "$2/lib/common/xxhash.h" -o y.zst && "$1" -q -t y.zst && "$1" -l y.zst
}

work_lua() {
  "$1" "$top/regress/e2e/lines_real.lua"
}

work_pcre2() {
  for t in 1 2 3 4 5; do
    "$1" -q "$2/testdata/testinput$t" "out$t" >/dev/null 2>&1
    [ -s "out$t" ] || return 1
  done
}

work_yaml() {
  "$1" "$2"/examples/*.yaml
}

yaml_main() {  # one program running the parser, loader, emitter and dumper on each file
  cat <<'EOF'
#include <yaml.h>
#include <stdio.h>
/* Parses each file as events, loads it as documents and writes both back (libyaml's own tests do each). */
static int one(const char *path) {
  FILE *f = fopen(path, "rb");
  yaml_parser_t p; yaml_event_t ev; yaml_emitter_t em; yaml_document_t doc;
  unsigned char out[65536]; size_t n = 0; int events = 0, docs = 0, ok = 1;
  if (!f) return 1;
  yaml_parser_initialize(&p); yaml_parser_set_input_file(&p, f);
  yaml_emitter_initialize(&em); yaml_emitter_set_output_string(&em, out, sizeof out, &n);
  for (;;) {
    if (!yaml_parser_parse(&p, &ev)) { ok = 0; break; }
    int end = ev.type == YAML_STREAM_END_EVENT;
    events++;
    if (!yaml_emitter_emit(&em, &ev)) { ok = 0; break; }
    if (end) break;
  }
  yaml_parser_delete(&p); yaml_emitter_delete(&em);
  rewind(f);
  yaml_parser_initialize(&p); yaml_parser_set_input_file(&p, f);
  yaml_emitter_initialize(&em); yaml_emitter_set_output_string(&em, out, sizeof out, &n);
  yaml_emitter_open(&em);
  for (;;) {
    if (!yaml_parser_load(&p, &doc)) { ok = 0; break; }
    if (!yaml_document_get_root_node(&doc)) { yaml_document_delete(&doc); break; }
    docs++;
    if (!yaml_emitter_dump(&em, &doc)) { ok = 0; break; }
  }
  yaml_emitter_close(&em);
  yaml_parser_delete(&p); yaml_emitter_delete(&em);
  fclose(f);
  printf("%s: %d events, %d documents, %zu bytes out%s\n", path, events, docs, n, ok ? "" : ", error");
  return 0;
}
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) one(argv[i]);
  return 0;
}
EOF
}

: >"$d/table.txt"
want() { case ",${LINES_REAL:-bzip2,zstd,lua,pcre2,yaml}," in *,$1,*) return 0;; esac; return 1; }  # LINES_REAL=lua,pcre2: a part
if want bzip2 && dir=$(debsrc_fetch bzip2) && [ -n "$dir" ]; then
  three_ways bzip2 "$dir" "-D_FILE_OFFSET_BITS=64" "" work_bzip2 \
    "$dir"/blocksort.c "$dir"/huffman.c "$dir"/crctable.c "$dir"/randtable.c "$dir"/compress.c \
    "$dir"/decompress.c "$dir"/bzlib.c "$dir"/bzip2.c
elif want bzip2; then echo "skip lines-real bzip2: apt-get source bzip2 failed: $(tail -1 "$cache/src/bzip2.log" 2>/dev/null)"; fi

if want zstd && dir=$(debsrc_fetch libzstd) && [ -n "$dir" ]; then
  # shellcheck disable=SC2046
  three_ways zstd "$dir" "-DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 -DZSTD_NOBENCH -DZSTD_NODICT -DZSTD_NOTRACE -I$dir/lib -I$dir/lib/common" "" work_zstd \
    $(ls "$dir"/lib/common/*.c "$dir"/lib/compress/*.c "$dir"/lib/decompress/*.c) \
    "$dir"/programs/zstdcli.c "$dir"/programs/fileio.c "$dir"/programs/fileio_asyncio.c "$dir"/programs/util.c \
    "$dir"/programs/timefn.c
elif want zstd; then echo "skip lines-real zstd: apt-get source libzstd failed"; fi

if want lua && dir=$(debsrc_fetch lua5.4) && [ -n "$dir" ]; then
  mkdir -p "$d/lua-include" && echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$d/lua-include/lua5.4-deb-multiarch.h"
  # shellcheck disable=SC2046
  three_ways lua "$dir" "-DLUA_USE_POSIX -Dluai_makeseed(L)=0u -Dl_randomizePivot()=0u -DSTRCACHE_N=1 -DSTRCACHE_M=1 -I$d/lua-include" "-lm" work_lua $(ls "$dir"/src/*.c | grep -v '/luac\.c$')
elif want lua; then echo "skip lines-real lua: apt-get source lua5.4 failed"; fi

if want pcre2 && dir=$(debsrc_fetch pcre2) && [ -n "$dir" ]; then
  inc="$d/pcre2-include"; mkdir -p "$inc"
  sed -e 's|^/\* #undef SUPPORT_PCRE2_8 \*/|#define SUPPORT_PCRE2_8 1|' -e 's|^/\* #undef SUPPORT_UNICODE \*/|#define SUPPORT_UNICODE 1|' \
    "$dir/src/config.h.generic" >"$inc/config.h"
  printf '#define HAVE_STRERROR 1\n#define HAVE_MEMMOVE 1\n#define HAVE_UNISTD_H 1\n#define HAVE_INTTYPES_H 1\n' >>"$inc/config.h"
  cp "$dir/src/pcre2.h.generic" "$inc/pcre2.h"
  [ -f "$dir/src/pcre2_chartables.c" ] || cp "$dir/src/pcre2_chartables.c.dist" "$dir/src/pcre2_chartables.c"
  # shellcheck disable=SC2046
  three_ways pcre2 "$dir" "-DHAVE_CONFIG_H -DPCRE2_CODE_UNIT_WIDTH=8 -DPCRE2_STATIC -I$inc -I$dir/src" "" work_pcre2 \
    $(ls "$dir"/src/pcre2_*.c | grep -v 'jit_match\|jit_misc\|jit_test\|fuzzsupport\|dftables\|printint\|ucptables') \
    "$dir"/src/pcre2test.c "$dir"/src/pcre2posix.c
elif want pcre2; then echo "skip lines-real pcre2: apt-get source pcre2 failed"; fi

if want yaml && dir=$(debsrc_fetch libyaml) && [ -n "$dir" ]; then
  yaml_main >"$dir/lines_real_main.c"
  mkdir -p "$d/yaml-include" && : >"$d/yaml-include/config.h"  # the version is all configure puts there
  # shellcheck disable=SC2046
  three_ways yaml "$dir" "-DYAML_VERSION_STRING=\"0.2.5\" -DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2 -DYAML_VERSION_PATCH=5 -I$dir/include -I$d/yaml-include" "" work_yaml \
    $(ls "$dir"/src/*.c) "$dir/lines_real_main.c"
elif want yaml; then echo "skip lines-real yaml: apt-get source libyaml failed"; fi

python3 "$top/regress/linecmp.py" --print-table "$d/table.txt"
