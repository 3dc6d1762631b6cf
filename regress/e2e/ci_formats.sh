#!/bin/sh
# The coverage formats CI services read, checked against what each documents or does: SonarQube's
# generic coverage XML against sonar-generic-coverage.xsd (xmllint) and line by line against the
# lcov tracefile; a Coveralls job against the documented fields of /api/v1/jobs (name relative to
# the repository, source_digest the MD5 of the file, coverage one entry per line, branches in
# quadruples); Cobertura as GitLab's parser (at most 100 sources; a source counts only when it holds
# the project path, else the class filename must be the file's path in the repository) and
# Codecov's (sources starting with / joined to the filename) resolve it; lcov as Codecov parses it; markdown's totals; and
# --fail-under[-line|-branch|-path] exit statuses around the exact coverage.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=ci_formats
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS SOURCE_DATE_EPOCH GITHUB_ACTIONS GITLAB_CI
for v in $(env | sed -n 's/^\(COVERALLS_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

command -v xmllint >/dev/null 2>&1 || {
  [ "$(id -u)" = 0 ] && { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils; } >"$d/apt.log" 2>&1
}

# A project checked out where a GitLab runner would put it: the root is .../builds/grp/proj.
root="$d/builds/grp/proj"
mkdir -p "$root/src" "$root/lib"
cat >"$root/lib/parse.c" <<'EOF'
int parse_digit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c == 'x')
    return -2;
  return -1;
}
EOF
cat >"$root/src/main.c" <<'EOF'
#include <stdio.h>
int parse_digit(char c);

static int unused(int x)
{
  return x * 2;
}

int main(int argc, char **argv)
{
  int sum = 0;
  for (int i = 1; i < argc; i++) {
    int v = parse_digit(argv[i][0]);
    if (v < 0)
      sum -= 1;
    else
      sum += v;
  }
  if (argc > 100)
    sum = unused(sum);
  printf("%d\n", sum);
  return 0;
}
EOF
if ! (cd "$root" && "$P" gcc -O0 -o prog src/main.c lib/parse.c) >"$d/build.log" 2>&1; then
  echo "not ok ci-formats-build: $(head -1 "$d/build.log")"; exit 0
fi
(cd "$root" && ./prog 1 7 a 9 >/dev/null) || { echo "not ok ci-formats-run: the program failed"; exit 0; }
for f in lcov cobertura sonarqube coveralls markdown json text; do
  (cd "$root" && "$R" coverage --format $f -o "$d/cov.$f") >"$d/$f.log" 2>&1 || echo "not ok ci-formats-write-$f: $(head -1 "$d/$f.log")"
done

# ---- SonarQube: the documented schema, and the same lines and branches as the lcov tracefile ----
cat >"$d/sonar-generic-coverage.xsd" <<'EOF'
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="coverage">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="file" minOccurs="0" maxOccurs="unbounded">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="lineToCover" minOccurs="0" maxOccurs="unbounded">
                <xs:complexType>
                  <xs:attribute name="lineNumber" type="xs:positiveInteger" use="required"/>
                  <xs:attribute name="covered" type="xs:boolean" use="required"/>
                  <xs:attribute name="branchesToCover" type="xs:nonNegativeInteger"/>
                  <xs:attribute name="coveredBranches" type="xs:nonNegativeInteger"/>
                </xs:complexType>
              </xs:element>
            </xs:sequence>
            <xs:attribute name="path" type="xs:string" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attribute name="version" type="xs:positiveInteger" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
EOF
if command -v xmllint >/dev/null 2>&1; then
  if xmllint --noout --nonet --schema "$d/sonar-generic-coverage.xsd" "$d/cov.sonarqube" >"$d/xsd.log" 2>&1; then echo "ok sonarqube-schema"
  else echo "not ok sonarqube-schema: $(grep -v validates "$d/xsd.log" | head -1)"; fi
  # the check itself must be able to fail: a document the schema refuses
  sed 's/covered="true"/covered="yes"/' "$d/cov.sonarqube" >"$d/bad.sonarqube"
  if xmllint --noout --nonet --schema "$d/sonar-generic-coverage.xsd" "$d/bad.sonarqube" >/dev/null 2>&1; then
    echo "not ok sonarqube-schema-refuses: covered=\"yes\" passed the schema"
  else echo "ok sonarqube-schema-refuses"; fi
else
  echo "skip sonarqube-schema: xmllint (Debian libxml2-utils) is not installed"
fi

python3 - "$d" "$root" <<'EOF'
import hashlib, json, os, re, sys
import xml.etree.ElementTree as ET
d, root = sys.argv[1], sys.argv[2]
ok = nok = 0
def check(cond, name, why):
    global ok, nok
    if cond: ok += 1; print('ok ' + name)
    else: nok += 1; print('not ok %s: %s' % (name, why))

# the lcov tracefile (absolute paths) as the reference: lines and branches per file
lcov, cur = {}, None
for l in open(os.path.join(d, 'cov.lcov')):
    l = l.strip()
    if l.startswith('SF:'): cur = os.path.relpath(l[3:], root); lcov[cur] = {'da': {}, 'br': {}}
    elif l.startswith('DA:'):
        n, c = l[3:].split(',')[:2]; lcov[cur]['da'][int(n)] = int(c)
    elif l.startswith('BRDA:'):
        n, b, a, t = l[5:].split(',')
        lcov[cur]['br'].setdefault(int(n), []).append(0 if t == '-' else int(t))
check(set(lcov) == {'src/main.c', 'lib/parse.c'}, 'lcov-files', 'lcov names %s' % sorted(lcov))
# lcov as Codecov's parser reads it: records split at end_of_record, SF first, DA line,count with
# integers, BRDA line,block,branch,taken with taken an integer or -, FN line,name
bad = []
text = open(os.path.join(d, 'cov.lcov')).read()
recs = [r for r in text.split('\nend_of_record') if r.strip()]
if '\nend_of_record' not in text or len(recs) != 2: bad.append('%d records' % len(recs))
for r in recs:
    kv = [l.split(':', 1) for l in r.strip().splitlines() if ':' in l]
    keys = [k for k, _ in kv]
    if 'SF' not in keys or keys.index('SF') > 1: bad.append('SF not first')
    for k, v in kv:
        f = v.split(',')
        if k == 'DA' and not (len(f) >= 2 and f[0].isdigit() and f[1].isdigit()): bad.append('DA:' + v)
        if k == 'BRDA' and not (len(f) == 4 and all(x.isdigit() for x in f[:3]) and (f[3] == '-' or f[3].isdigit())): bad.append('BRDA:' + v)
        if k == 'FN' and not (len(f) == 2 and f[0].isdigit()): bad.append('FN:' + v)
        if k == 'SF' and not os.path.isabs(v): bad.append('SF:' + v)
check(not bad, 'lcov-codecov', '; '.join(bad[:3]))

# SonarQube: relative paths; each line with code once; covered and branches as in lcov
s = ET.parse(os.path.join(d, 'cov.sonarqube')).getroot()
files = {f.get('path'): f for f in s.iter('file')}
check(s.get('version') == '1' and set(files) == set(lcov), 'sonarqube-paths', 'files %s, version %s' % (sorted(files), s.get('version')))
bad = []
for p, f in files.items():
    if p not in lcov: continue
    seen = {}
    for l in f.iter('lineToCover'):
        n = int(l.get('lineNumber'))
        if n in seen: bad.append('%s:%d twice' % (p, n))
        seen[n] = l
        nlines = len(open(os.path.join(root, p)).read().split('\n')) - 1
        if n > nlines: bad.append('%s:%d past the end (%d lines)' % (p, n, nlines))
    if set(seen) != set(lcov[p]['da']) | set(lcov[p]['br']): bad.append('%s: lines %s, lcov %s' % (p, sorted(seen), sorted(lcov[p]['da'])))
    for n, l in seen.items():
        if n in lcov[p]['da'] and (l.get('covered') == 'true') != (lcov[p]['da'][n] > 0): bad.append('%s:%d covered=%s' % (p, n, l.get('covered')))
        br = lcov[p]['br'].get(n)
        want = (str(len(br)), str(sum(1 for x in br if x > 0))) if br else (None, None)
        if (l.get('branchesToCover'), l.get('coveredBranches')) != want: bad.append('%s:%d branches %s/%s, want %s/%s' % ((p, n, l.get('coveredBranches'), l.get('branchesToCover')) + want[::-1]))
check(not bad, 'sonarqube-lines', '; '.join(bad[:3]))
check(any(l.get('branchesToCover') for l in s.iter('lineToCover')) and any(l.get('covered') == 'false' for l in s.iter('lineToCover')),
      'sonarqube-has-branches-and-misses', 'no branch attributes or no uncovered line')

# Coveralls: the documented job fields
j = json.load(open(os.path.join(d, 'cov.coveralls')))
check(isinstance(j.get('source_files'), list) and 'run_at' in j, 'coveralls-job', 'keys %s' % sorted(j))
bad = []
names = [f.get('name') for f in j['source_files']]
if sorted(names) != sorted(lcov): bad.append('names %s' % names)
for f in j['source_files']:
    p = f['name']
    if p not in lcov: continue
    text = open(os.path.join(root, p), 'rb').read()
    if f.get('source_digest') != hashlib.md5(text).hexdigest(): bad.append('%s: digest %s' % (p, f.get('source_digest')))
    cov = f['coverage']
    if len(cov) != text.count(b'\n'): bad.append('%s: %d coverage entries, %d lines' % (p, len(cov), text.count(b'\n')))
    want = [lcov[p]['da'].get(i + 1) for i in range(len(cov))]
    if cov != want: bad.append('%s: coverage %s, lcov %s' % (p, cov, want))
    br = f.get('branches', [])
    if len(br) % 4 or not all(isinstance(x, int) and x >= 0 for x in br): bad.append('%s: branches %s' % (p, br))
    got = {}
    for i in range(0, len(br), 4): got.setdefault(br[i], []).append(br[i + 3])
    if {k: sorted(v) for k, v in got.items()} != {k: sorted(v) for k, v in lcov[p]['br'].items()}: bad.append('%s: branches %s' % (p, got))
check(not bad, 'coveralls-source-files', '; '.join(bad[:3]))
check(re.match(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}$', j.get('run_at', '')), 'coveralls-run-at', j.get('run_at'))

# Cobertura: as GitLab resolves it (project path grp/proj; the worktree's files)
c = ET.parse(os.path.join(d, 'cov.cobertura')).getroot()
sources = [x.text or '' for x in c.iter('source')]
check(1 <= len(sources) <= 100, 'cobertura-sources', '%d <source> nodes (GitLab reads 100)' % len(sources))
worktree = {os.path.relpath(os.path.join(dp, f), root) for dp, _, fs in os.walk(root) for f in fs}
gl = [s.replace('\\', '/').split('grp/proj/', 1)[1] for s in sources if 'grp/proj/' in s.replace('\\', '/')]
gl = [s for s in gl if s]
resolved = []
for cl in c.iter('class'):
    fn = cl.get('filename')
    if not gl: resolved.append(fn if fn in worktree else None)
    else: resolved.append(next((os.path.join(s, fn) for s in gl[:100] if os.path.join(s, fn) in worktree), None))
check(sorted(r for r in resolved if r) == sorted(lcov), 'cobertura-gitlab-paths', 'GitLab would match %s' % resolved)
cc = [os.path.join(s, cl.get('filename')) for cl in c.iter('class') for s in sources if s.startswith('/')]
check(sorted(os.path.relpath(p, root) for p in cc if os.path.isfile(p)) == sorted(lcov), 'cobertura-codecov-paths',
      'Codecov would try %s' % cc)
lines = {}
for cl in c.iter('class'):
    for l in cl.find('lines').iter('line'): lines[(cl.get('filename'), int(l.get('number')))] = int(l.get('hits'))
want = {(p, n): v for p in lcov for n, v in lcov[p]['da'].items()}
check(lines == want, 'cobertura-lines', 'class lines differ from lcov: %s' % (set(lines.items()) ^ set(want.items())))

# markdown: the total row carries the text report's totals
md = open(os.path.join(d, 'cov.markdown')).read()
js = json.load(open(os.path.join(d, 'cov.json')))['summary']
tot = [l for l in md.split('\n') if l.startswith('| **total**')]
want = '(%d/%d)' % (js['lines']['covered'], js['lines']['total'])
check(tot and want in tot[0] and '| file |' in md and 'src/main.c' in md, 'markdown-totals', 'total row %s, want %s' % (tot, want))
sys.exit(0)
EOF

# ---- --fail-under: just below the exact coverage passes, just above fails with status 3 ----
eval "$(python3 - "$d/cov.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))['summary']
def pct(k):
    c, t = s[k]['covered'], s[k]['total']
    return 100.0 * float(c) / float(t)
print('line=%.4f branch=%.4f path=%.4f' % (pct('lines'), pct('branches'), pct('paths')))
EOF
)"
for kind in line branch path; do
  eval v=\$$kind
  lo=$(python3 -c "print($v - 0.01)"); hi=$(python3 -c "print($v + 0.01)")
  (cd "$root" && "$R" coverage --fail-under-$kind "$lo" >/dev/null 2>"$d/fu.log"); a=$?
  (cd "$root" && "$R" coverage --format lcov -o "$d/fu.info" --fail-under-$kind "$hi" >/dev/null 2>"$d/fu2.log"); b=$?
  if [ "$a" = 0 ] && [ "$b" = 3 ] && grep -q "$kind coverage" "$d/fu2.log" && [ -s "$d/fu.info" ]; then echo "ok fail-under-$kind"
  else echo "not ok fail-under-$kind: $v%: status $a under $lo, $b under $hi (want 0, 3 and the report written): $(head -1 "$d/fu2.log")"; fi
done
(cd "$root" && "$R" coverage --fail-under "$(python3 -c "print($line + 0.01)")" >/dev/null 2>&1); a=$?
(cd "$root" && "$R" coverage --fail-under 101 >/dev/null 2>&1); b=$?
(cd "$root" && "$R" coverage --fail-under-branch 100 --fail-under-line 0 >/dev/null 2>&1); c=$?
if [ "$a" = 3 ] && [ "$b" = 2 ] && [ "$c" = 3 ]; then echo "ok fail-under-statuses"
else echo "not ok fail-under-statuses: --fail-under above: $a (want 3), 101: $b (want 2), branch 100: $c (want 3)"; fi

# ---- Coveralls: the job's details from the environment ----
(cd "$root" && GITHUB_ACTIONS=true GITHUB_SHA=abc123 GITHUB_RUN_ID=77 COVERALLS_REPO_TOKEN=tok COVERALLS_PARALLEL=true \
  "$R" coverage --format coveralls) >"$d/env.json" 2>/dev/null
if python3 -c "
import json,sys; j=json.load(open('$d/env.json'))
sys.exit(0 if (j.get('service_name'),j.get('commit_sha'),j.get('service_number'),j.get('repo_token'),j.get('parallel'))==('github','abc123','77','tok',True) else 1)"; then
  echo "ok coveralls-environment"
else echo "not ok coveralls-environment: $(head -c 300 "$d/env.json")"; fi
