#!/bin/sh
# Unpacks parts of GCC's source (Debian's gcc-12-source) into regress/out/gcc-src once, installing
# the package first when missing (as root). Prints the source directory, or nothing if unavailable
# (the reason goes to stderr). Usage: dir=$(sh regress/gccsrc.sh libiberty include ...)
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
dest="$top/regress/out/gcc-src"
if [ ! -f "$tarball" ]; then
  if [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-12-source; } >/dev/null 2>&1
  fi
  if [ ! -f "$tarball" ]; then
    echo "gcc-12-source is not installed (run: apt-get install gcc-12-source)" >&2
    exit 0
  fi
fi
mkdir -p "$dest"
(
  flock 9
  need=""
  for part in "$@" config config.guess config.sub install-sh move-if-change mkinstalldirs ltmain.sh missing \
              depcomp compile test-driver config-ml.in libtool.m4 ltoptions.m4 ltsugar.m4 ltversion.m4 lt~obsolete.m4; do
    [ -e "$dest/gcc-12.2.0/$part" ] || need="$need gcc-12.2.0/$part"
  done
  # shellcheck disable=SC2086
  [ -z "$need" ] || tar -xJf "$tarball" -C "$dest" $need 2>/dev/null
) 9>"$dest/.lock"
echo "$dest/gcc-12.2.0"
