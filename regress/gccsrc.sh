#!/bin/sh
# Unpacks parts of GCC's source (Debian's gcc-12-source) into regress/out/gcc-src once, installing
# the package first when missing (as root). Prints the source directory, or nothing if unavailable
# (the reason goes to stderr). Usage: dir=$(sh regress/gccsrc.sh libiberty include ...)
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
dest="$top/regress/out/gcc-src"
mkdir -p "$dest"
# Installs the package (as root), one script at a time, waiting for another package manager to
# finish rather than failing on its lock; the package lists are refreshed when the first try fails
# (a fresh machine has none). What apt said stays in $dest/install.log.
if [ ! -f "$tarball" ] && [ "$(id -u)" = 0 ]; then
  (
    flock 8
    apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
    if [ ! -f "$tarball" ]; then
      DEBIAN_FRONTEND=noninteractive $apt install -y gcc-12-source >"$dest/install.log" 2>&1 ||
        { $apt update >>"$dest/install.log" 2>&1; DEBIAN_FRONTEND=noninteractive $apt install -y gcc-12-source >>"$dest/install.log" 2>&1; }
    fi
  ) 8>"$dest/.install-lock"
fi
if [ ! -f "$tarball" ]; then
  echo "gcc-12-source is not installed (run: apt-get install gcc-12-source)$( [ -s "$dest/install.log" ] && printf '; apt-get said: %s' "$(tail -1 "$dest/install.log")")" >&2
  exit 0
fi
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
