#!/bin/sh
# The runtime's own state that every run touches sits together: on x86-64 ELF the buffers a run
# may never touch (trace buffer, alternate signal stack, crash names, the modes' pools) are in
# .lbss after every .bss (rt/core/core.h PATHPROF_BIG), so a one-function program's .bss, what
# the run faults in page by page, stays within two pages; the program runs and writes its profile
# whichever linker lays it out.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=rtpages
. "$top/regress/private.sh"
case $(uname -m) in x86_64) ;; *) echo "skip rtpages: .lbss is x86-64's"; exit 0 ;; esac
cat >"$out/t.c" <<'C'
int f(int x) { return x > 3 ? 1 : 2; }
int main(int argc, char **argv) { (void)argv; return f(argc) == 7; }
C
# size SECTION PROGRAM: the section's size in bytes (0 without it)
# (the section number "[ n]" is cut off first: below 10 it holds a blank)
size() { _h=$(readelf -SW "$2" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk -v s="$1" '$1 == s { print $5 }' | head -1); printf '%d\n' "0x${_h:-0}"; }
for ld in bfd gold lld; do
  if ! (cd "$out" && "$top/bin/pathcc" gcc -O2 -fuse-ld=$ld -o "t-$ld" t.c) >"$out/$ld.log" 2>&1; then
    grep -q "fuse-ld\|cannot find\|invalid linker" "$out/$ld.log" && { echo "skip rtpages-$ld: no $ld linker"; continue; }
    echo "not ok rtpages-$ld: build failed: $(head -1 "$out/$ld.log")"; continue
  fi
  bss=$(size .bss "$out/t-$ld") lbss=$(size .lbss "$out/t-$ld")
  if [ "$bss" -gt 8192 ] || [ "$lbss" -lt 131072 ]; then
    echo "not ok rtpages-$ld: .bss $bss bytes (want at most 8192), .lbss $lbss (want the buffers' 128 KB and more)"
  elif ! (cd "$out" && PATHPROF_FILE="p-$ld.out" "./t-$ld") || [ ! -s "$out/p-$ld.out" ]; then
    echo "not ok rtpages-$ld: the program failed or wrote no profile"
  else
    echo "ok rtpages-$ld: .bss $bss bytes, .lbss $lbss"
  fi
done
