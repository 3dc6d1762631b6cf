#!/bin/sh
# bench/binutils.sh CACHE: makes CACHE/binutils ready for the "readelf" workload, once: GNU
# binutils from Debian's binutils-source tarball (/usr/src/binutils/binutils-*.tar.*) unpacked into
# CACHE/binutils/src, configured into CACHE/binutils/obj with the plain compiler (no NLS, no
# zstd, debuginfod or msgpack), and the libraries readelf links built there (libiberty, libsframe,
# the bundled zlib, whose libz.a with its DWARF is also the workload's input) plus bfd.h. The
# workload's own sources (readelf.c and its helpers) are compiled by each build of the bench.
# Prints nothing and exits 0 when ready; else prints why and exits 1. Log: CACHE/binutils/prepare.log
cache=${1:?usage: binutils.sh CACHE}
d="$cache/binutils"
[ -f "$d/ready" ] && exit 0
tarball=$(ls /usr/src/binutils/binutils-*.tar.* 2>/dev/null | sort | tail -1)
if [ -z "$tarball" ]; then
  echo "binutils-source is not installed (no /usr/src/binutils/binutils-*.tar.*)"
  exit 1
fi
rm -rf "$d" && mkdir -p "$d/obj" || exit 1
log="$d/prepare.log"
fail() { echo "$1 (see $log)"; exit 1; }
tar -xf "$tarball" -C "$d" >>"$log" 2>&1 || fail "could not unpack $tarball"
mv "$d"/binutils-*/ "$d/src" 2>>"$log" || fail "no binutils-* directory in $tarball"
cd "$d/obj" || exit 1
CC=gcc CFLAGS="-g -O2" ../src/configure --disable-nls --disable-gdb --disable-gdbserver --disable-gprofng --disable-libctf \
  --disable-gold --disable-ld --disable-gas --disable-sim --disable-plugins --disable-werror --without-zstd \
  --without-debuginfod --without-msgpack >>"$log" 2>&1 || fail "configure failed"
make -j2 all-libiberty all-libsframe all-zlib configure-binutils configure-bfd >>"$log" 2>&1 || fail "building libiberty, libsframe or zlib failed"
make -C bfd bfd.h bfdver.h >>"$log" 2>&1 || fail "making bfd.h failed"
for f in binutils/config.h bfd/bfd.h libiberty/libiberty.a libsframe/.libs/libsframe.a zlib/libz.a; do
  [ -f "$f" ] || fail "$f is missing after the build"
done
touch "$d/ready"
