#!/bin/sh
# CPython 3.11 from Debian's source (make check-cpython; make check-full), as a new user builds it:
# ./configure with its default flags and make, plainly, with gcc --coverage and through pathcc's
# masquerade. Every extension module builds and imports as in the plain build (no *_failed.so),
# `python -m test` on 26 modules in one process gives the plain build's results three runs in a
# row, and the report of _PyEval_EvalFrameDefault lists its paths. Prints build and test CPU as
# ratios to the plain build (pathcc's compile server off, so every compile's CPU is counted).
# Needs root (apt-get source, the build dependencies); about an hour on 2 cores. CPYTHON_REUSE=1
# keeps the builds a previous run finished.
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${REGRESS_FULL:-}${REGRESS_CPYTHON:-}" ]; then
  echo "skip cpython: CPython built three ways and its tests; runs in make check-cpython and make check-full"; exit 0
fi
if [ "$(id -u)" != 0 ]; then echo "skip cpython: needs root (apt-get source python3.11 and its build dependencies)"; exit 0; fi
out="$top/regress/out/cpython"
mkdir -p "$out" || exit 1
sh "$top/scripts/deps.sh" dpkg-dev gpgv >/dev/null 2>&1
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS CC CFLAGS LDFLAGS
export PATHCC_SERVER=0
. "$top/regress/debsrc.sh"   # cache, apt_src, debsrc_fetch, debsrc_deps
src=$(debsrc_fetch python3.11)
if [ -z "$src" ]; then echo "not ok cpython source: apt-get source python3.11 failed ($cache/src/python3.11.log)"; exit 0; fi
debsrc_deps python3.11 "$out/deps.log" || echo "# some build dependencies did not install ($out/deps.log): the plain build is the judge"
# test_threading runs last: its test_frame_tstate_tracing leaves threading.settrace(noop_trace)
# installed, after which every new thread calls sys.settrace as it starts. In 3.11
# _PyEval_SetTrace guards itself with one static flag for all threads and, flag set, calls
# regrtest's Python audit hook, where the GIL may pass to another thread starting at that moment:
# that thread gets "Cannot install a trace function while another trace function is being
# installed" and dies before its target runs, and a test waiting for it at a barrier without a
# timeout (pickletester's test_unpickle_module_race) hangs. The window is the audit hook's call:
# any slowdown widens it (through pathcc it hung the first run). --timeout turns a hang into a
# failure.
TESTS_RUN=${CPYTHON_TESTS:-"test_dict test_json test_re test_subprocess test_signal test_list test_set
  test_tuple test_string test_unicode test_bytes test_long test_float test_math test_itertools test_functools
  test_collections test_struct test_pickle test_sort test_format test_int test_os test_generators test_exceptions
  test_threading"}

# build HOW CONFIGURE-ENV: a copy of the source configured and made in $out/HOW; wall, user and
# system seconds in $out/HOW/configure.time and make.time, the logs beside them
build() {
  w="$out/$1"; shift
  # CPYTHON_REUSE=1 keeps a build that finished (to rerun the tests or another build alone)
  [ -n "${CPYTHON_REUSE:-}" ] && [ -s "$w/make.time" ] && [ -x "$w/src/python" ] && return 0
  rm -rf "$w" && mkdir -p "$w" && cp -a "$src" "$w/src" || return 1
  (cd "$w/src" && /usr/bin/time -f '%e %U %S' -o ../configure.time env "$@" ./configure >../configure.log 2>&1 &&
   /usr/bin/time -f '%e %U %S' -o ../make.time env "$@" make -j2 >../make.log 2>&1)
}

# modules HOW: the extension modules the build made, one name a line (and *_failed ones by name)
modules() { find "$out/$1/src/build" -name '*.so' 2>/dev/null | sed 's|.*/||; s|\..*||' | sort -u; }

# imports HOW: each of the plain build's modules imported by HOW's python, "name ok|failed" lines
imports() {
  for m in $(modules plain); do
    if (cd "$out/$1/src" && PATHPROF_FILE="$out/$1/imports.prof" timeout 60 ./python -c "import $m") >/dev/null 2>&1; then
      echo "$m ok"; else echo "$m failed"; fi
  done
}

# tests HOW N: the test modules run once in one process; the summary's verdict and failed tests
# in $out/HOW/tests-N.result, CPU in tests-N.time
tests() {
  w="$out/$1"
  # shellcheck disable=SC2086
  (cd "$w/src" && PATHPROF_FILE="$w/tests.prof" /usr/bin/time -f '%e %U %S' -o "$w/tests-$2.time" \
     timeout 3600 ./python -m test --timeout=1200 $TESTS_RUN) >"$w/tests-$2.log" 2>&1
  awk '/^Tests result:/ { print } /tests? failed:$/ { f = 1; next } f && /^    / { print "failed:" $0; next } { f = 0 }' \
    "$w/tests-$2.log" >"$w/tests-$2.result"
}

cpu() { awk '{ printf "%.1f", $2 + $3 }' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

masq="$out/masq"
rm -rf "$masq" && "$top/bin/pathcc" --masquerade="$masq" >/dev/null || { echo "not ok cpython masquerade: pathcc --masquerade failed"; exit 0; }
build plain || { echo "skip cpython: the plain build does not work here ($out/plain/make.log)"; exit 0; }
build gcov CC="gcc --coverage" || echo "# the gcov build failed ($out/gcov/make.log): no gcov figures"
if build pathcc PATH="$masq:$PATH"; then echo "ok cpython build through the masquerade"
else echo "not ok cpython build through the masquerade: $(grep -m1 -i 'error' "$out/pathcc/make.log")"; exit 0; fi

n=$(grep -c 'pathcc: warning' "$out/pathcc/make.log")
if [ "$n" = 0 ]; then echo "ok cpython every unit instrumented"
else echo "not ok cpython $n pathcc warnings, e.g. $(grep -m1 'pathcc: warning' "$out/pathcc/make.log")"; fi
modules plain >"$out/plain.modules"; modules pathcc >"$out/pathcc.modules"
if grep -q '_failed' "$out/pathcc.modules"; then echo "not ok cpython modules: $(grep '_failed' "$out/pathcc.modules" | tr '\n' ' ')"
elif cmp -s "$out/plain.modules" "$out/pathcc.modules"; then echo "ok cpython the same $(wc -l <"$out/plain.modules") extension modules as plain"
else echo "not ok cpython modules differ from plain: $(diff "$out/plain.modules" "$out/pathcc.modules" | grep '^[<>]' | head -3 | tr '\n' ' ')"; fi
imports plain >"$out/plain.imports"; imports pathcc >"$out/pathcc.imports"
if cmp -s "$out/plain.imports" "$out/pathcc.imports"; then echo "ok cpython every module imports as in the plain build"
else echo "not ok cpython imports differ: $(diff "$out/plain.imports" "$out/pathcc.imports" | grep '^>' | head -3 | tr '\n' ' ')"; fi

tests plain 1
[ -d "$out/gcov/src" ] && tests gcov 1
for r in 1 2 3; do
  tests pathcc $r
  if [ -s "$out/plain/tests-1.result" ] && cmp -s "$out/plain/tests-1.result" "$out/pathcc/tests-$r.result"; then
    echo "ok cpython tests run $r: $(head -1 "$out/pathcc/tests-$r.result")"
  else
    echo "not ok cpython tests run $r: plain $(tr '\n' ' ' <"$out/plain/tests-1.result"), pathcc $(tr '\n' ' ' <"$out/pathcc/tests-$r.result")"
  fi
done

(cd "$out/pathcc/src" && "$top/bin/pathprof" report --function _PyEval_EvalFrameDefault "$out/pathcc/tests.prof") >"$out/eval.txt" 2>&1
if grep -q '^_PyEval_EvalFrameDefault (.*path executions' "$out/eval.txt" && grep -qE '^ +[0-9]+ +[0-9.]+% +#[0-9]+' "$out/eval.txt"; then
  echo "ok cpython report of _PyEval_EvalFrameDefault: $(grep -m1 '^_PyEval_EvalFrameDefault (' "$out/eval.txt")"
else echo "not ok cpython report of _PyEval_EvalFrameDefault: $(head -2 "$out/eval.txt" | tr '\n' ' ')"; fi

# the figures: CPU of configure + make, and of one test run, as ratios to the plain build's
pb=$(cat "$out/plain/configure.time" "$out/plain/make.time" | awk '{ s += $2 + $3 } END { print s }')
pt=$(cpu "$out/plain/tests-1.time")
for how in gcov pathcc; do
  [ -f "$out/$how/make.time" ] || continue
  b=$(cat "$out/$how/configure.time" "$out/$how/make.time" | awk '{ s += $2 + $3 } END { print s }')
  t=$(cpu "$out/$how/tests-1.time")
  echo "# cpython $how: build CPU $b s ($(ratio "$b" "$pb") x plain $pb s), test CPU $t s ($(ratio "$t" "$pt") x plain $pt s)"
done
exit 0
