#!/bin/sh
# make bench / make bench-quick.  Run as root on Debian, first installs what the comparison
# needs and is missing: gnuplot-nox (the chart), valgrind (instruction counts), clang's
# profile runtime (libclang-rt-N-dev, for clang -fprofile-instr-generate) and binutils-source
# (the readelf workload's sources; bench/binutils.sh configures them once).  Not root, or no
# apt-get: nothing is installed, and whatever is missing becomes a skipped column or a note.
# Then runs bench/bench.py (see bench/README.md).
# Usage: sh bench/bench.sh [--quick] [more bench.py run options]
top=$(cd "$(dirname "$0")/.." && pwd)
res="$top/bench/results"
mkdir -p "$res" || exit 1

clang_profile_links() {
  t=$(mktemp -d "${TMPDIR:-/tmp}/bench-probe.XXXXXX") || return 1
  printf 'int main(void) { return 0; }\n' > "$t/p.c"
  clang -fprofile-instr-generate -o "$t/p" "$t/p.c" >/dev/null 2>&1
  rc=$?
  rm -rf "$t"
  return $rc
}

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  need=""
  command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
  command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
  ls /usr/src/binutils/binutils-*.tar.* >/dev/null 2>&1 || need="$need binutils-source"
  if command -v clang >/dev/null 2>&1 && ! clang_profile_links; then
    need="$need libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
  fi
  if [ -n "$need" ]; then
    echo "bench: installing$need (log: $res/apt.log)" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >"$res/apt.log" 2>&1; then
      apt-get update -qq >>"$res/apt.log" 2>&1
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >>"$res/apt.log" 2>&1 ||
        echo "bench: could not install$need; those parts are skipped (see $res/apt.log)" >&2
    fi
  fi
fi

exec python3 "$top/bench/bench.py" run "$@"
