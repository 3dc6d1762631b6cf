#!/bin/sh
# Help, versions and manual pages: every `pathprof --help`, `pathprof help CMD`, `pathprof CMD
# --help`, `pathprof --version`, `pathcc --help` and `pathcc --version` exits 0; each names every
# option README.md and doc/*.md name for that command, and so does the manual page, which renders with
# `MANWIDTH=80 man --warnings -l` without a warning; an unknown option is one error line and
# status 2; with a compiler named, pathcc passes --help and --version to it.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=help
. "$top/regress/private.sh"
d=$E2E_DIR
R="$top/bin/pathprof"
P="$top/bin/pathcc"
unset PATHCC_CC PATHCC_FLAGS

cmds="report coverage tests merge diff residual dump kpaths hot-subpaths import size clean"

# ---- exit status 0 and some text from every way of asking ----
for how in "--help" "-h" "help" "--version"; do
  if "$R" $how >"$d/out.txt" 2>&1 && [ -s "$d/out.txt" ]; then echo "ok help-pathprof$how"
  else echo "not ok help-pathprof$how: status or empty output: $(head -1 "$d/out.txt")"; fi
done
for c in $cmds; do
  "$R" "$c" --help >"$d/help-$c.txt" 2>&1; a=$?
  "$R" help "$c" >"$d/help2-$c.txt" 2>&1; b=$?
  if [ "$a" = 0 ] && [ "$b" = 0 ] && grep -q "^usage: pathprof $c" "$d/help-$c.txt" && cmp -s "$d/help-$c.txt" "$d/help2-$c.txt"; then
    echo "ok help-$c"
  else
    echo "not ok help-$c: status $a/$b, '$(head -1 "$d/help-$c.txt")', help CMD and CMD --help differ or no usage line"
  fi
  # the overview lists the command
  if "$R" --help | grep -q "^  $c "; then echo "ok help-overview-$c"; else echo "not ok help-overview-$c: pathprof --help does not list it"; fi
done
if "$R" help nosuch >"$d/nosuch.txt" 2>&1; then echo "not ok help-unknown-command: status 0"
elif [ "$(wc -l <"$d/nosuch.txt")" = 1 ] && grep -q "nosuch" "$d/nosuch.txt"; then echo "ok help-unknown-command"
else echo "not ok help-unknown-command: '$(cat "$d/nosuch.txt")'"; fi

# ---- unknown options and missing values: one line naming them, status 2 ----
for args in "report --bogus" "coverage --format" "coverage --fail-under-line 120" "merge -q" "kpaths --k 0"; do
  "$R" $args >"$d/bad.txt" 2>&1; rc=$?
  opt=$(echo "$args" | cut -d' ' -f2)
  if [ "$rc" = 2 ] && [ "$(wc -l <"$d/bad.txt")" = 1 ] && grep -q -- "$opt" "$d/bad.txt"; then echo "ok help-bad-option '$args'"
  else echo "not ok help-bad-option '$args': status $rc, '$(head -2 "$d/bad.txt" | tr '\n' ' ')'"; fi
done

# ---- pathcc ----
if "$P" --help >"$d/pathcc-help.txt" 2>&1 && grep -q '^usage: pathcc' "$d/pathcc-help.txt"; then echo "ok help-pathcc"
else echo "not ok help-pathcc: $(head -1 "$d/pathcc-help.txt")"; fi
if "$P" --version >"$d/pathcc-version.txt" 2>&1 && head -1 "$d/pathcc-version.txt" | grep -q '^pathcc (pathprof) '; then echo "ok help-pathcc-version"
else echo "not ok help-pathcc-version: $(head -1 "$d/pathcc-version.txt")"; fi
if "$P" gcc --help >"$d/gcc-help.txt" 2>&1 && ! grep -q 'pathcc' "$d/gcc-help.txt" && grep -qi '^usage: gcc' "$d/gcc-help.txt"; then
  echo "ok help-pathcc-passes-help"
else echo "not ok help-pathcc-passes-help: pathcc gcc --help: $(head -1 "$d/gcc-help.txt")"; fi
if "$P" gcc --version >"$d/gcc-version.txt" 2>&1 && head -1 "$d/gcc-version.txt" | grep -q '^gcc'; then echo "ok help-pathcc-passes-version"
else echo "not ok help-pathcc-passes-version: pathcc gcc --version: $(head -1 "$d/gcc-version.txt")"; fi

# ---- manual pages render without warnings ----
if command -v man >/dev/null 2>&1; then
  for p in pathcc pathprof; do
    MANWIDTH=80 man --warnings -l "$top/doc/$p.1" >"$d/$p.man.txt" 2>"$d/$p.man.err"; rc=$?
    if [ "$rc" = 0 ] && [ ! -s "$d/$p.man.err" ] && [ -s "$d/$p.man.txt" ]; then echo "ok man-$p"
    else echo "not ok man-$p: status $rc: $(head -2 "$d/$p.man.err" | tr '\n' ' ')"; fi
  done
else
  echo "skip man: man (Debian man-db) is not installed"
fi

# ---- make install puts both pages where man finds them ----
if make -s -C "$top" install DESTDIR="$d/inst" PREFIX=/usr >"$d/install.log" 2>&1 &&
   [ -f "$d/inst/usr/share/man/man1/pathcc.1" ] && [ -f "$d/inst/usr/share/man/man1/pathprof.1" ] &&
   MANPATH="$d/inst/usr/share/man" man -w pathprof 2>/dev/null | grep -q "$d/inst"; then echo "ok man-installed"
else echo "not ok man-installed: $(tail -2 "$d/install.log" | tr '\n' ' ')"; fi

# ---- the options the user documents name, in --help and in the manual page ----
cat "$top/README.md" "$top"/doc/*.md >"$d/docs.md"
python3 - "$d/docs.md" "$d" "$cmds" <<'EOF'
import re, sys, os
readme, d, cmds = sys.argv[1], sys.argv[2], sys.argv[3].split()
OPT = re.compile(r'(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])(?![\w-])')
named = {c: set() for c in cmds}
pathcc = set()
text = open(readme).read().split('\n')
in_code, cur = False, None
for line in text:
    if line.startswith('```'):
        in_code, cur = not in_code, None
        continue
    if in_code:
        m = re.match(r'\s*(?:\$ |bin/)?pathprof ([a-z-]+)(.*)', line)
        if m and m.group(1) in named:
            cur = m.group(1)
            named[cur] |= set(OPT.findall(m.group(2).split('  #')[0]))
        elif cur and re.match(r'\s+\[', line):
            named[cur] |= set(OPT.findall(line))
        else:
            cur = None
        continue
    for span in re.findall(r'`([^`]*)`', line):
        m = re.match(r'(?:bin/)?pathprof ([a-z-]+)(.*)', span)
        if m and m.group(1) in named: named[m.group(1)] |= set(OPT.findall(m.group(2)))
        m = re.match(r'(?:bin/)?pathcc (.*)', span)
        if m: pathcc |= {o for o in OPT.findall(m.group(1)) if o.startswith('--')}
    m = re.match(r'\| `(--[a-z][^`]*)`', line)  # the pathcc option table
    if m: pathcc |= set(re.findall(r'--[a-z][a-z0-9-]*', m.group(1)))
# options of the compiler in pathcc examples are not pathcc's
pathcc -= {'--coverage'}
ok = nok = 0
def check(cond, name, why):
    global ok, nok
    if cond: ok += 1; print('ok ' + name)
    else: nok += 1; print('not ok %s: %s' % (name, why))
def has(txt, o):
    return re.search(r'(?<![\w-])' + re.escape(o) + r'(?![\w-])', txt) is not None
man_pp = open(os.path.join(d, 'pathprof.man.txt')).read() if os.path.exists(os.path.join(d, 'pathprof.man.txt')) else ''
man_cc = open(os.path.join(d, 'pathcc.man.txt')).read() if os.path.exists(os.path.join(d, 'pathcc.man.txt')) else ''
check(sum(len(v) for v in named.values()) >= 20, 'readme-options-found', 'only %d pathprof options found in README' % sum(len(v) for v in named.values()))
check(len(pathcc) >= 15, 'readme-pathcc-options-found', 'only %d pathcc options found in README' % len(pathcc))
for c in cmds:
    h = open(os.path.join(d, 'help-%s.txt' % c)).read()
    missing = sorted(o for o in named[c] if not has(h, o))
    check(not missing, 'help-names-readme-options ' + c, 'pathprof %s --help lacks %s' % (c, ' '.join(missing)))
    # the manual page's section for the command
    sec = man_pp.split('pathprof ' + c + ' ', 1)[1].split('\n   pathprof ', 1)[0] if ('pathprof ' + c + ' ') in man_pp else ''
    missing = sorted(o for o in named[c] | set(OPT.findall(h)) - {'-h', '--help'} if not has(sec, o))
    check(sec and not missing, 'man-names-options ' + c, 'pathprof.1 lacks %s for %s' % (' '.join(missing) or 'a section', c))
h = open(os.path.join(d, 'pathcc-help.txt')).read()
missing = sorted(o for o in pathcc if not has(h, o))
check(not missing, 'help-names-readme-options pathcc', 'pathcc --help lacks %s' % ' '.join(missing))
missing = sorted(o for o in pathcc | {o for o in OPT.findall(h) if o.startswith('--')} if not has(man_cc, o))
check(not missing, 'man-names-options pathcc', 'pathcc.1 lacks %s' % ' '.join(missing))
sys.exit(0)
EOF
