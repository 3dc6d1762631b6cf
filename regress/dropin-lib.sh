# Shared by regress/e2e/dropin_*.sh, the tests of pathcc as a drop-in cc in real builds.
# Source it after setting NAME:  NAME=cmake; . "$(dirname "$0")/../dropin-lib.sh"
# Gives: $top, $P (pathcc), $R (pathprof), $d (a private work directory under regress/out, removed
# at the end unless something failed), ok/nok/skip result lines, full (REGRESS_FULL set),
# need_pkg (installs a Debian package when missing, as root), finish (call last).
top=$(cd "$(dirname "$0")/../.." && pwd)
P="$top/bin/pathcc"
R="$top/bin/pathprof"
# The user's pathcc settings must not leak into the tests.
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS PATHCC_CC PATHCC_KEEP PATHCC_INCLUDE_FILES \
      PATHCC_EXCLUDE_FILES PATHCC_INCLUDE_FUNCTIONS PATHCC_EXCLUDE_FUNCTIONS
export LC_ALL=C
failed=0
ok()   { echo "ok $NAME-$1${2:+: $2}"; }
nok()  { echo "not ok $NAME-$1: $2"; failed=1; }
skip() { echo "skip $NAME-$1: $2"; }
# t ID WHY COMMAND... : ok when the command succeeds, else "not ok ID: WHY"
t() { id=$1 why=$2; shift 2; if "$@" >/dev/null 2>&1; then ok "$id"; else nok "$id" "$why"; fi; }
full() { [ -n "${REGRESS_FULL:-}" ]; }
# need_pkg COMMAND PACKAGE: true when COMMAND is (or could be made) available.
need_pkg() {
  command -v "$1" >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || return 1
  stamp="$top/regress/out/.apt-updated"
  if [ ! -f "$stamp" ]; then
    apt-get update -qq >/dev/null 2>&1 && touch "$stamp"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null 2>&1
  command -v "$1" >/dev/null 2>&1
}
finish() {
  if [ "$failed" = 0 ] && [ -z "${DROPIN_KEEP:-}" ]; then rm -rf "$d"; else echo "# files kept in $d"; fi
  exit 0
}
if [ ! -x "$P" ] || [ ! -x "$R" ] || [ ! -f "$top/lib/libpathprof.a" ]; then
  echo "not ok $NAME: bin/pathcc, bin/pathprof or lib/libpathprof.a missing (run make)"
  exit 0
fi
mkdir -p "$top/regress/out" && d=$(mktemp -d "$top/regress/out/dropin_$NAME.XXXXXX") || exit 1
