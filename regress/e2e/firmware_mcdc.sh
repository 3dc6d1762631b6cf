#!/bin/sh
# MC/DC on the firmware sample: samples/firmware built with pathcc --decisions=conditions for the
# Cortex-M3 (run under QEMU, counts sent as UART text dumps) and for the host; pathprof coverage
# --mcdc of the target's profile equals the host's, decision by decision (vectors, counts, pairs),
# under both definitions, and so does the MC/DC the regular JSON report carries.
# Installs gcc-arm-none-eabi and qemu-system-arm when missing (as root).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=firmware_mcdc
. "$top/regress/private.sh"
cd "$out" || exit 1
need arm-none-eabi-gcc:gcc-arm-none-eabi qemu-system-arm:qemu-system-arm
fw="$top/samples/firmware"
b="$out/build"   # the sample's build directory, here (relative to the sample: its run target says ./$(B)/host-prog)
rb=$(realpath --relative-to="$fw" "$out")/build
if ! make -C "$fw" B="$rb" PCFLAGS=--decisions=conditions all >build.log 2>&1; then
  echo "not ok firmware_mcdc build: $(grep -m1 -i 'error' build.log)"; exit 0
fi
if ! make -C "$fw" B="$rb" PCFLAGS=--decisions=conditions run TIMEOUT=60 >run.log 2>&1; then
  echo "not ok firmware_mcdc run: $(tail -1 run.log)"; exit 0
fi
for p in host fw-uart; do
  for def in masking unique-cause; do
    "$top/bin/pathprof" coverage --mcdc=$def --format json -o $p-$def.json "$b/$p.prof" 2>$p.err ||
      echo "not ok firmware_mcdc report $p $def: $(head -1 $p.err)"
  done
  "$top/bin/pathprof" coverage --format json -o $p-coverage.json "$b/$p.prof" 2>>$p.err
done
python3 - <<'PY'
import json
def decisions(p):
    d = json.load(open(p))
    return d['decisions'] if 'decisions' in d else [x for f in d['files'] for x in f.get('mcdc', [])]
for what in ('masking', 'unique-cause', 'coverage'):
    host, target = decisions('host-%s.json' % what), decisions('fw-uart-%s.json' % what)
    ran = sum(1 for d in host if d['evaluations'])
    same = host == target and len(host) > 10 and ran > 5
    print(('ok firmware_mcdc %s: the Cortex-M3 run equals the host run, %d decisions (%d ran), %d/%d conditions shown'
           % (what, len(host), ran, sum(d['covered'] for d in host), sum(len(d['conditions']) for d in host))) if same else
          'not ok firmware_mcdc %s: %d decisions on the host, %d on the target, %s' % (what, len(host), len(target),
          'they differ' if host != target else 'too few decisions ran'))
PY
