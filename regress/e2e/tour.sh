#!/bin/sh
# The README's five-minute tour, run as written: every ```sh tour block of README.md, in order, from
# a directory laid out like the checkout (bin, lib, include, samples); every command succeeds, each
# line of the ```text tour excerpts is in what the tour printed, and every file or directory a
# command wrote with -o is there and holds what its format says.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=tour
. "$top/regress/private.sh"
unset PATHPROF_FILE PATHCC_FLAGS PATHCC_CC PATHPROF_TEST
t="$out/checkout"
mkdir -p "$t" && for d in bin lib include samples; do ln -s "$top/$d" "$t/$d"; done
python3 - "$top/README.md" "$out" <<'PY'
import re, sys
readme, out = sys.argv[1], sys.argv[2]
blocks = re.findall(r'^```(\w+) tour\n(.*?)^```$', open(readme).read(), re.M | re.S)
sh = [b for lang, b in blocks if lang == 'sh']
text = [b for lang, b in blocks if lang == 'text']
open(out + '/tour.sh', 'w').write('set -ex\n' + ''.join(sh))
open(out + '/excerpt.txt', 'w').write(''.join(text))
open(out + '/nblocks', 'w').write('%d %d\n' % (len(sh), len(text)))
PY
read -r nsh ntext <"$out/nblocks"
if [ "$nsh" -ge 4 ] && [ "$ntext" -ge 1 ]; then echo "ok tour-blocks ($nsh command blocks, $ntext excerpts)"
else echo "not ok tour-blocks: README has $nsh \`\`\`sh tour blocks (want the four parts) and $ntext \`\`\`text tour excerpts"; exit 0; fi

(cd "$t" && timeout 300 sh "$out/tour.sh") >"$out/tour.out" 2>"$out/tour.err"; rc=$?
if [ "$rc" = 0 ]; then echo "ok tour-runs"
else echo "not ok tour-runs: status $rc after: $(grep '^+ ' "$out/tour.err" | tail -1) ($(grep -v '^+ ' "$out/tour.err" | tail -1))"; fi

# every excerpt line (spaces squeezed) is a line the tour printed
tr -s ' ' <"$out/tour.out" | sed 's/ *$//' >"$out/got.txt"
missing=0
while IFS= read -r l; do
  l=$(printf '%s' "$l" | tr -s ' ' | sed 's/ *$//')
  [ -z "$l" ] && continue
  grep -qxF -- "$l" "$out/got.txt" || { missing=$((missing + 1)); echo "$l" >>"$out/missing.txt"; }
done <"$out/excerpt.txt"
if [ "$missing" = 0 ]; then echo "ok tour-excerpt"
else echo "not ok tour-excerpt: $missing excerpt lines not in the tour's output, first: $(head -1 "$out/missing.txt")"; fi

# what each -o wrote, by the command and format that wrote it (looked up under the tour's directory)
python3 - "$out/tour.sh" >"$out/outputs.txt" <<'PY'
import re, sys
for line in open(sys.argv[1]).read().replace('\\\n', ' ').split('\n'):
    m = re.search(r' -o (\S+)', line.split('#')[0])
    if not m: continue
    f = re.search(r'--format (\w+)', line)
    kind = f.group(1) if f else 'profile' if re.search(r'pathprof (import|merge)', line) else 'program' if 'pathcc' in line else 'file'
    print(kind, m.group(1))
PY
while read -r fmt name; do
  f=$(find "$t" -name "$(basename "$name")" -newer "$out/tour.sh" | head -1)
  case "$fmt" in
    cobertura) grep -q '<coverage' "$f" 2>/dev/null ;;
    lcov) grep -q '^SF:' "$f" 2>/dev/null && grep -q '^end_of_record' "$f" ;;
    html) [ -s "$f/index.html" ] ;;
    profile) [ -s "$f" ] && "$top/bin/pathprof" report "$f" 2>/dev/null | grep -q '^Hottest paths' ;;
    program) [ -x "$f" ] ;;
    *) [ -s "$f" ] ;;
  esac
  if [ $? = 0 ]; then echo "ok tour-output $fmt $name"; else echo "not ok tour-output $fmt $name: ${f:-not written}: not a $fmt"; fi
done <"$out/outputs.txt"
# the report commands printed reports, the coverage summary its total
grep -q '^Hottest paths' "$out/tour.out" && grep -q '^total ' "$out/tour.out"
check=$?
if [ "$check" = 0 ]; then echo "ok tour-reports"; else echo "not ok tour-reports: no hot-path report or no coverage total in the tour's output"; fi
