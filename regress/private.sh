# private.sh: sourced by e2e scripts (after setting top and e2e_name) to run in a private directory.
# Other runs may share this tree, so the script re-runs itself in regress/out/NAME.XXXXXX, keeps that
# directory only when something failed, and exits with its status. In the re-run it sets out (the
# directory), CC (E2E_CC or gcc) and run (a 20 s timeout when there is one), and reports missing tools.
if [ -z "${E2E_DIR:-}" ]; then
  mkdir -p "$top/regress/out" && E2E_DIR=$(mktemp -d "$top/regress/out/$e2e_name.XXXXXX") || exit 1
  export E2E_DIR
  { sh "$0" "$@"; echo $? >"$E2E_DIR/status"; } | tee "$E2E_DIR/results.txt"
  rc=$(cat "$E2E_DIR/status")
  if [ "$rc" = 0 ] && ! grep -q '^not ok' "$E2E_DIR/results.txt"; then rm -rf "$E2E_DIR"; else echo "# files kept in $E2E_DIR"; fi
  exit "$rc"
fi
out=$E2E_DIR
CC=${E2E_CC:-gcc}
if [ ! -x "$top/bin/pathcc" ] || [ ! -x "$top/bin/pathprof" ]; then
  echo "not ok $e2e_name: bin/pathcc or bin/pathprof missing (run make)"
  exit 0
fi
. "$top/regress/sample.sh"   # sampled I N: make check's part of a long list
run=""
command -v timeout >/dev/null 2>&1 && run="timeout 20"
# case_flags SOURCE...: the pathcc options a regress case asks for, from its line
# "regress: pathcc-flags OPTIONS */" (signals.c counts atomically: its handler interrupts counts)
case_flags() { sed -n 's|.*regress: pathcc-flags \(.*\) \*/.*|\1|p' "$@" | head -1; }
# want CMD:PACKAGE...: installs the Debian packages whose commands are missing (as root; one
# apt-get update, its output in $out/apt.log); 1 when some stay missing (not root, or apt-get
# failed), so a single check can skip alone. As root, a package of the list that dpkg does not
# have is installed too, even when the command is there (gcc-avr without avr-libc compiles but
# cannot link).
want() {
  _pkgs=
  for _p in "$@"; do
    if ! command -v "${_p%%:*}" >/dev/null 2>&1; then _pkgs="$_pkgs ${_p#*:}"; continue; fi
    [ "$(id -u)" = 0 ] && command -v dpkg-query >/dev/null 2>&1 || continue
    for _k in ${_p#*:}; do
      dpkg-query -W -f='${Status}' "$_k" 2>/dev/null | grep -q "install ok installed" || _pkgs="$_pkgs $_k"
    done
  done
  [ -z "$_pkgs" ] && return 0
  [ "$(id -u)" = 0 ] && { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $_pkgs; } >"$out/apt.log" 2>&1
}
# need CMD:PACKAGE...: want, or else the test ends, reported skipped (not root) or failed.
need() {
  want "$@" && return 0
  [ "$(id -u)" = 0 ] && { echo "not ok $e2e_name install: apt-get install$_pkgs failed"; exit 0; }
  echo "skip $e2e_name: missing$_pkgs; as root run: apt-get update && apt-get install -y$_pkgs"; exit 0
}
# kept NAME CFLAGS PATHCC-OPTION...: $src built into $out/NAME/prog through pathcc (its options
# first) and "$CC" CFLAGS -O2 -save-temps, so the instrumented unit stays as prog-<source>.i;
# what the build said goes to $out/NAME/build.log
kept() {
  _n=$1 _f=$2; shift 2
  mkdir -p "$out/$_n"
  (cd "$out/$_n" && "$top/bin/pathcc" "$@" "$CC" $_f -O2 -save-temps -o prog "$src") >"$out/$_n/build.log" 2>&1
}
