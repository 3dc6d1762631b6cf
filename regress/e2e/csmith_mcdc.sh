#!/bin/sh
# MC/DC of csmith random programs against clang-19's: each program built with pathcc
# --decisions=conditions (gcc) and with clang-19 -fcoverage-mcdc, both run; they must print the
# same checksum, and every decision both tools see with the same conditions must have the same
# covered conditions under unique-cause (regress/mcdccmp.py); decisions seen differently are
# listed with the reason. `make check` takes the first 10 usable seeds from 1, REGRESS_FULL=1
# (make check-full) the first 50; CSMITH_MCDC_COUNT=N sets the number. A seed is usable when
# csmith and clang build it and it ends within 2 s. The last line sums them up:
#   # csmith-mcdc: N programs, A decisions agree (C/T conditions covered; evaluations equal in E),
#     D seen differently (...), X disagree
# Installs csmith, libcsmith-dev, clang-19 and llvm-19 when missing (as root).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=csmith_mcdc
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"
need csmith:csmith clang-19:clang-19 llvm-cov-19:llvm-19 llvm-profdata-19:llvm-19
inc=
for h in /usr/include/csmith/csmith.h /usr/include/csmith-*/csmith.h; do [ -f "$h" ] && inc=$(dirname "$h"); done
[ -n "$inc" ] || need csmith.h-missing:libcsmith-dev
want=${CSMITH_MCDC_COUNT:-$(sized 10 50)}
opts="--quiet --max-funcs 4 --max-block-depth 3 --max-expr-complexity 5"
used=0 seed=0 skipped=0
while [ "$used" -lt "$want" ] && [ "$seed" -lt $((want * 4)) ]; do
  seed=$((seed + 1))
  d="$out/s$seed"; mkdir -p "$d/pp" "$d/cl"
  # shellcheck disable=SC2086
  timeout 60 csmith --seed "$seed" $opts -o "$d/prog.c" >/dev/null 2>&1 || { skipped=$((skipped + 1)); continue; }
  (cd "$d/cl" && timeout 120 clang-19 -w -O0 -I"$inc" -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc -o prog ../prog.c) \
    >"$d/cl/build.log" 2>&1 || { skipped=$((skipped + 1)); continue; }
  (cd "$d/cl" && LLVM_PROFILE_FILE=prog.profraw timeout 2 ./prog >out.txt 2>&1) || { skipped=$((skipped + 1)); continue; }
  used=$((used + 1))
  if ! (cd "$d/pp" && timeout 300 "$pc" --decisions=conditions $CC -w -O0 -I"$inc" -o prog ../prog.c) >"$d/pp/build.log" 2>&1; then
    echo "not ok csmith_mcdc build $seed: $(head -1 "$d/pp/build.log")"; continue
  fi
  (cd "$d/pp" && PATHPROF_FILE=prof.out timeout 20 ./prog >out.txt 2>&1)
  if ! cmp -s "$d/pp/out.txt" "$d/cl/out.txt"; then
    echo "not ok csmith_mcdc run $seed: prints $(head -c 60 "$d/pp/out.txt"), clang's build $(head -c 60 "$d/cl/out.txt")"; continue
  fi
  if ! (cd "$d/pp" && "$pp" coverage --mcdc=unique-cause --format json -o mcdc.json prof.out) 2>"$d/pp/mcdc.err"; then
    echo "not ok csmith_mcdc report $seed: $(head -1 "$d/pp/mcdc.err")"; continue
  fi
  llvm-profdata-19 merge -o "$d/cl/prog.profdata" "$d/cl/prog.profraw" &&
    llvm-cov-19 export -format=text -instr-profile "$d/cl/prog.profdata" "$d/cl/prog" >"$d/cl/export.json" ||
    { echo "not ok csmith_mcdc clang $seed: llvm-cov export failed"; continue; }
  python3 "$top/regress/mcdccmp.py" csmith_mcdc "$seed" "$d/prog.c" "$d/pp/mcdc.json" "$d/cl/export.json" "$d/cl/build.log" \
    >"$d/cmp.txt"
  grep -v '^# mcdccmp' "$d/cmp.txt"
  rm -f "$d/cl/prog" "$d/pp/prog" "$d/cl/prog.profraw"
done
[ "$used" -lt "$want" ] && echo "not ok csmith_mcdc seeds: $used usable of $seed tried, want $want"
# the totals, and the differences by reason
cat "$out"/s*/cmp.txt 2>/dev/null | python3 -c '
import re, sys, collections
t = collections.Counter(); why = collections.Counter(); n = 0
for l in sys.stdin:
    m = re.match(r"^# mcdccmp \S+ (.*)$", l)
    if m:
        n += 1
        for kv in m.group(1).split(): k, v = kv.split("="); t[k] += int(v)
    m = re.match(r"^# differs \S+: (.*)$", l)
    if m: why[re.sub(r"\d+", "N", m.group(1))] += 1
print("# csmith-mcdc: %d programs, %d decisions agree (%d/%d conditions covered; evaluations equal in %d), %d seen differently (%s), %d disagree"
      % (n, t["agree"], t["covered"], t["conditions"], t["counted"], t["differ"], "; ".join("%d: %s" % (c, w) for w, c in why.most_common()) or "none", t["disagree"]))
'
echo "# csmith-mcdc: $skipped seeds skipped (csmith or clang failed, or the program ran over 2 s)"
