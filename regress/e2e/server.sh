#!/bin/sh
# The compile server: a one-unit build starts none, a build's second compile does; a compile
# through it gives the object, tables, stderr and exit status an
# in-process compile gives (also from stdin, and 8 at once); workers serve request after request,
# each in its client's state; a killed client leaves no worker;
# a socket directory others could use is refused (the compile still succeeds); an idle server
# exits; a rebuilt pathcc does not use the old one's server.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=server
. "$top/regress/private.sh"
cd "$out" || exit 1
P="$top/bin/pathcc"
unset PATHCC_SERVER PATHCC_CC PATHCC_FLAGS
export XDG_RUNTIME_DIR="$out/xdg" PATHCC_SERVER_IDLE=20 PATHCC_CACHE_DIR="$out/cache"
mkdir -m 700 xdg

# every server these tests started, stopped at the end (each lock file holds its server's pid)
stop_servers() {
  for l in "$out"/xdg*/pathcc/*.lock "$out"/xdg*/*/*.lock; do
    [ -s "$l" ] && kill -TERM "$(cat "$l")" 2>/dev/null
  done
}
trap stop_servers EXIT
# socket DIR: the server's socket in DIR, once one is listening (5 s at most)
socket() {
  i=0
  while [ $i -lt 50 ]; do
    s=$(ls "$1" 2>/dev/null | grep -E '^s-[0-9a-f]{16}$' | head -1)
    [ -n "$s" ] && { echo "$1/$s"; return 0; }
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
# gone PID: true when no process has that pid or process group within 5 s
gone() {
  i=0
  while [ $i -lt 50 ]; do
    kill -0 "$1" 2>/dev/null || ps -eo pgid= | grep -qw "$1" || return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
check() {  # NAME CONDITION-STATUS WHY
  if [ "$2" = 0 ]; then echo "ok server-$1"; else echo "not ok server-$1: $3"; fi
}

cat >one.c <<'EOF'
#include <stdio.h>
int clamp(int x, int lo, int hi) { if (x < lo) return lo; if (x > hi) return hi; printf("%d\n", x); return x; }
EOF
cat >bad.c <<'EOF'
int f(int x) { return x + ; }
int g(void) { return undeclared; }
EOF

# in-process references (PATHCC_SERVER=0 neither starts nor asks a server)
PATHCC_SERVER=0 "$P" gcc -O2 -c one.c -o one.o 2>ref.err; echo $? >ref.rc
cp one.o ref.o; cp one.pp.json ref.pp.json
PATHCC_SERVER=0 "$P" gcc -c bad.c -o bad.o 2>badref.err; echo $? >badref.rc
PATHCC_SERVER=0 "$P" gcc -x c -c - -o in.o <one.c 2>inref.err; nm in.o >inref.nm; cp in.pp.json inref.pp.json
# a source from stdin is compiled from a copy in a fresh temporary directory, whose name its
# tables (and so their checksum and digest) record: those are left out of the comparison
stdin_tables() { sed -e 's|/pathcc-[A-Za-z0-9]*/|/pathcc-X/|g' -e 's/"checksum":"[0-9a-f]*"//' -e 's/"digest":"[0-9a-f]*"//' "$1"; }
ls xdg/pathcc 2>/dev/null | grep -q '^s-'; check disabled $((! $?)) "PATHCC_SERVER=0 started a server"

# a build's first compile runs in-process and only leaves a mark (a one-unit build pays for no
# server); the second starts a server and goes through it (no second load of libclang), as do
# the next ones
"$P" --verbose gcc -O2 -c one.c -o one.o 2>zeroth.err
grep -q 'compiled in-process: no compile server at .* (one starts at the next compile)' zeroth.err &&
  ! ls xdg/pathcc | grep -qE '^s-[0-9a-f]{16}$'
check one-unit-no-server $? "$(grep 'in-process' zeroth.err | head -1); $(ls xdg/pathcc | tr '\n' ' ')"
"$P" --verbose gcc -O2 -c one.c -o one.o 2>first.err
sock=$(socket xdg/pathcc); check start $? "no server socket in xdg/pathcc after a compile: $(grep -v '^pathcc: [a-z/]*gcc' first.err | head -1)"
grep -q "^pathcc: via compile server $out/$sock (worker [0-9]*)" first.err
check starter-served $? "the compile that started the server did not go through it: $(head -1 first.err)"
"$P" --verbose gcc -O2 -c one.c -o one.o 2>second.err
grep -q "^pathcc: via compile server $out/$sock (worker [0-9]*)" second.err
check used $? "the second compile did not go through the server: $(head -1 second.err)"
"$P" gcc -O2 -c one.c -o one.o 2>srv.err; echo $? >srv.rc
cmp -s one.o ref.o && cmp -s one.pp.json ref.pp.json && cmp -s srv.err ref.err && cmp -s srv.rc ref.rc
check same-output $? "object, tables, stderr or status differ from the in-process compile"

# a failing compile: the same status and the same diagnostics
"$P" gcc -c bad.c -o bad.o 2>bad.err; echo $? >bad.rc
cmp -s bad.rc badref.rc && cmp -s bad.err badref.err && [ "$(cat bad.rc)" != 0 ]
check failing-compile $? "status $(cat bad.rc) (in-process $(cat badref.rc)), stderr differs: $(diff bad.err badref.err | head -3 | tr '\n' ' ')"

# the source on stdin
rm -f in.o
"$P" --verbose gcc -x c -c - -o in.o <one.c 2>in.err
nm in.o >in.nm 2>&1; stdin_tables in.pp.json >in.t; stdin_tables inref.pp.json >inref.t
grep -q 'via compile server' in.err && cmp -s in.nm inref.nm && cmp -s in.t inref.t && [ -s in.t ]
check stdin $? "a source on stdin through the server differs or did not go through it: $(grep -v '^pathcc: [a-z/]*gcc' in.err | head -1)"

# a client killed mid-compile (SIGTERM, then SIGKILL): its worker and the compiler go too
cat >slowcc <<EOF
#!/bin/sh
if [ -e "$out/slow.flag" ]; then case " \$* " in *" -E "*) echo \$\$ >"$out/slow.pid"; sleep 60;; esac; fi
exec gcc "\$@"
EOF
chmod +x slowcc
"$P" ./slowcc -c one.c -o slow.o 2>/dev/null  # the compiler's facts cached, unslowed
for sig in TERM KILL; do
  touch slow.flag; rm -f slow.pid kill.err
  "$P" --verbose ./slowcc -c one.c -o slow.o 2>kill.err &
  client=$!
  i=0; while [ ! -s slow.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  worker=$(sed -n 's/^pathcc: via compile server .* (worker \([0-9]*\))$/\1/p' kill.err)
  kill -$sig $client; wait $client; rc=$?
  rm -f slow.flag
  if [ -z "$worker" ] || [ ! -s slow.pid ]; then
    check killed-$sig 1 "the slow compile did not start through the server: $(head -1 kill.err)"
  else
    want=143; [ $sig = KILL ] && want=137
    gone "$worker" && gone "$(cat slow.pid)" && [ $rc = $want ]
    check killed-$sig $? "client status $rc (want $want); worker $worker or the compiler $(cat slow.pid) still running"
  fi
done

# a socket directory someone else could use is refused, and the compile still succeeds
mkdir -m 700 xdg-mode xdg-owner xdg-link xdg-link/real
mkdir -m 755 xdg-mode/pathcc
ln -s real xdg-link/pathcc
chmod 700 xdg-link/real
owner=xdg-owner
if [ "$(id -u)" = 0 ] && mkdir -m 700 xdg-owner/pathcc && chown nobody xdg-owner/pathcc 2>/dev/null; then :; else owner=; echo "skip server-refused-owner: not root (cannot make a directory another user owns)"; fi
for d in xdg-mode $owner xdg-link; do
  rm -f refused.o
  XDG_RUNTIME_DIR="$out/$d" "$P" --verbose gcc -O2 -c one.c -o refused.o 2>refused.err; rc=$?
  grep -q "compiled in-process: no compile server: $out/$d/pathcc" refused.err && [ $rc = 0 ] && [ -s refused.o ] &&
    ! ls "$d/pathcc/" "$d/real/" 2>/dev/null | grep -q '^s-'
  check refused-${d#xdg-} $? "status $rc; $(grep 'in-process' refused.err | head -1); $(ls "$d/pathcc/" 2>/dev/null | tr '\n' ' ')"
done

# the server a compile starts holds none of its descriptors: a pipe read to its end (the
# build log's, make's jobserver's) ends when the compile does, not when the server does
mkdir -m 700 xdg-fds
XDG_RUNTIME_DIR="$out/xdg-fds" "$P" gcc -O2 -c one.c -o fds.o 2>/dev/null
t0=$(date +%s)
got=$(XDG_RUNTIME_DIR="$out/xdg-fds" "$P" gcc -O2 -c one.c -o fds.o 3>&1 4>&2 2>&1; echo done)
t1=$(date +%s)
fsock=$(socket xdg-fds/pathcc)
[ -n "$fsock" ] && [ "$got" = done ] && [ $((t1 - t0)) -lt 10 ]
check detached $? "the pipe stayed open $((t1 - t0)) s (server idle timeout 20 s), output '$got', socket '$fsock'"

# a socket directory whose socket name would not fit in sun_path: no server, the compile succeeds
long="$out/xdg-long/$(printf '%0100d' 0)"
mkdir -p -m 700 "$long"
rm -f long.o
XDG_RUNTIME_DIR="$long" "$P" --verbose gcc -O2 -c one.c -o long.o 2>long.err; rc=$?
grep -q 'compiled in-process: no compile server: .*name too long for a socket' long.err && [ $rc = 0 ] && [ -s long.o ]
check long-path $? "status $rc; $(grep 'in-process' long.err | head -1)"

# a server killed outright leaves its socket: the next compile starts a new server in its place
# (the mark is recent) and goes through it, as does the one after
spid=$(cat "$sock.lock")
kill -KILL "$spid"; gone "$spid"
"$P" --verbose gcc -O2 -c one.c -o one.o 2>stale.err; rc=$?
grep -q 'via compile server' stale.err && [ $rc = 0 ] && cmp -s one.o ref.o &&
  [ "$(cat "$sock.lock" 2>/dev/null)" != "$spid" ]
check stale-socket $? "status $rc after the server was killed: $(grep 'in-process\|via' stale.err | head -1)"
"$P" gcc -O2 -c one.c -o one.o 2>/dev/null  # the mark may be older than the idle time by now
socket xdg/pathcc >/dev/null
i=0; while [ "$(cat "$sock.lock" 2>/dev/null)" = "$spid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
"$P" --verbose gcc -O2 -c one.c -o one.o 2>stale2.err
grep -q 'via compile server' stale2.err && cmp -s one.o ref.o
check stale-replaced $? "no new server took the old one's place: $(grep 'in-process\|via' stale2.err | head -1)"

# a server that does not answer (stopped): after 5 s the compile runs in-process, and the
# server, once continued, does not run it a second time
spid=$(cat "$sock.lock")
kill -STOP "$spid"
rm -f one.o
"$P" --verbose gcc -O2 -c one.c -o one.o 2>stopped.err; rc=$?
kill -CONT "$spid"
grep -q 'compiled in-process: the server at .* did not take the request' stopped.err && [ $rc = 0 ] && cmp -s one.o ref.o
check stopped-server $? "status $rc: $(grep 'in-process\|via' stopped.err | head -1)"
sleep 0.5
"$P" --verbose gcc -O2 -c one.c -o one.o 2>cont.err
grep -q 'via compile server' cont.err && cmp -s one.o ref.o
check continued-server $? "the continued server does not serve: $(grep 'in-process\|via' cont.err | head -1)"

# an idle server exits and takes its socket, lock file and mark with it
mkdir -m 700 xdg-idle
XDG_RUNTIME_DIR="$out/xdg-idle" PATHCC_SERVER_IDLE=1 "$P" gcc -O2 -c one.c -o idle.o 2>/dev/null
XDG_RUNTIME_DIR="$out/xdg-idle" PATHCC_SERVER_IDLE=1 "$P" gcc -O2 -c one.c -o idle.o 2>/dev/null
isock=$(socket xdg-idle/pathcc)
ipid=$(cat "$isock.lock" 2>/dev/null)
if [ -z "$isock" ] || [ -z "$ipid" ]; then check idle 1 "no server started in xdg-idle"
else
  i=0; while kill -0 "$ipid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  ! kill -0 "$ipid" 2>/dev/null && [ ! -e "$isock" ] && [ ! -e "$isock.lock" ] && [ ! -e "$isock.wanted" ]
  check idle $? "server $ipid still running (or its socket, lock or mark left) 5 s after a 1 s idle timeout"
fi

# another pathcc binary (a rebuilt one) does not talk to this server
mkdir -p tree/bin && cp "$P" tree/bin/pathcc && cp -r "$top/lib" tree/lib && touch -d '2001-01-01' tree/bin/pathcc
tree/bin/pathcc --verbose gcc -O2 -c one.c -o other.o 2>other.err
grep -q 'compiled in-process: no compile server at ' other.err
check rebuilt-not-used $? "a copied pathcc used the running server: $(grep 'server' other.err | head -1)"
tree/bin/pathcc gcc -O2 -c one.c -o other.o 2>/dev/null
# workers run request after request: the next compile, from another directory, with another
# environment and umask, goes to the same worker and gives what an in-process compile there
# gives; a client whose resource limits differ is its worker's last (limits cannot all be put back)
mkdir -p reuse/a reuse/b && cp one.c reuse/a/ && sed 's/clamp/clampb/' one.c >reuse/b/two.c
(cd reuse/a && PATHCC_SERVER=0 "$P" gcc -O2 -c one.c -o one.o && mv one.o ref.o && mv one.pp.json ref.pp.json)
(cd reuse/b && umask 077 && PATHCC_SERVER=0 PATHCC_FLAGS=--mode=edge "$P" gcc -O2 -c two.c -o two.o && mv two.o ref.o &&
  mv two.pp.json ref.pp.json)
(cd reuse/a && "$P" --verbose gcc -O2 -c one.c -o one.o 2>v.err)
(cd reuse/b && umask 077 && PATHCC_FLAGS=--mode=edge "$P" --verbose gcc -O2 -c two.c -o two.o 2>v.err)
worker_of() { sed -n 's/^pathcc: via compile server .* (worker \([0-9]*\))$/\1/p' "$1"; }
w1=$(worker_of reuse/a/v.err) w2=$(worker_of reuse/b/v.err)
[ -n "$w1" ] && [ "$w1" = "$w2" ] && cmp -s reuse/a/one.o reuse/a/ref.o && cmp -s reuse/a/one.pp.json reuse/a/ref.pp.json &&
  cmp -s reuse/b/two.o reuse/b/ref.o && cmp -s reuse/b/two.pp.json reuse/b/ref.pp.json && [ "$(stat -c %a reuse/b/two.o)" = 600 ]
check reused-worker $? "workers $w1 then $w2; outputs differ from in-process ones or the umask was not taken ($(stat -c %a reuse/b/two.o))"
(cd reuse/a && ulimit -S -n 200 && "$P" --verbose gcc -O2 -c one.c -o one.o 2>l1.err)
(cd reuse/a && "$P" --verbose gcc -O2 -c one.c -o one.o 2>l2.err)
w3=$(worker_of reuse/a/l1.err) w4=$(worker_of reuse/a/l2.err)
[ -n "$w3" ] && [ -n "$w4" ] && [ "$w3" != "$w4" ] && gone "$w3" && cmp -s reuse/a/one.o reuse/a/ref.o
check limits-retire $? "a client with its own limits (worker $w3) and the next ($w4)"

# a worker that ends during a request (pathcc's exit(1) on a missing TMPDIR): the server sends
# the client its status, the message is the in-process one, and a new worker takes the next
(cd reuse/a && TMPDIR=/nonexistent PATHCC_SERVER=0 "$P" gcc -O2 -c one.c -o one.o 2>die.ref; echo $? >die.ref.rc)
(cd reuse/a && TMPDIR=/nonexistent "$P" --verbose gcc -O2 -c one.c -o one.o 2>die.err; echo $? >die.rc)
(cd reuse/a && "$P" --verbose gcc -O2 -c one.c -o one.o 2>after.err)
w5=$(worker_of reuse/a/die.err) w6=$(worker_of reuse/a/after.err)
[ -n "$w5" ] && [ -n "$w6" ] && [ "$w5" != "$w6" ] && [ "$(cat reuse/a/die.rc)" = 1 ] &&
  cmp -s reuse/a/die.ref.rc reuse/a/die.rc && [ "$(grep -v '^pathcc: via' reuse/a/die.err)" = "$(cat reuse/a/die.ref)" ]
check worker-died $? "status $(cat reuse/a/die.rc) (in-process $(cat reuse/a/die.ref.rc)); workers $w5, then $w6; $(head -2 reuse/a/die.err | tr '\n' ' ')"

osock=$(socket xdg/pathcc.other 2>/dev/null; ls xdg/pathcc | grep -E '^s-[0-9a-f]{16}$' | grep -v "$(basename "$sock")" | head -1)
[ -n "$osock" ]; check rebuilt-own-server $? "the copy started no server of its own"

# eight compiles at once through the server, each output as an in-process compile's
mkdir par && i=1
while [ $i -le 8 ]; do
  sed "s/clamp/clamp$i/" one.c >par/u$i.c
  (cd par && PATHCC_SERVER=0 "$P" gcc -O2 -c u$i.c -o u$i.o && mv u$i.o r$i.o && mv u$i.pp.json r$i.pp.json)
  i=$((i + 1))
done
i=1; while [ $i -le 8 ]; do (cd par && "$P" --verbose gcc -O2 -c u$i.c -o u$i.o 2>u$i.err; echo $? >u$i.rc) & i=$((i + 1)); done
wait
bad=; i=1
while [ $i -le 8 ]; do
  [ "$(cat par/u$i.rc)" = 0 ] && cmp -s par/u$i.o par/r$i.o && cmp -s par/u$i.pp.json par/r$i.pp.json || bad="$bad u$i"
  i=$((i + 1))
done
via=$(grep -l 'via compile server' par/u*.err | wc -l)
[ -z "$bad" ] && [ "$via" -ge 1 ]
check parallel $? "outputs differ for:$bad; $via of 8 went through the server"

# A compiler that is a script without #! runs (the shell runs it, as execvp would): compilers are
# started with posix_spawn now, which does not fall back to the shell by itself.
mkdir -p noexec && printf 'exec gcc "$@"\n' >noexec/mycc && chmod +x noexec/mycc
(cd noexec && PATH="$out/noexec:$PATH" "$P" mycc -O2 -c "$out/one.c" -o one.o 2>err) && [ -s noexec/one.o ]
check no-shebang-compiler $? "$(head -2 noexec/err)"

# TMPDIR is left as it was found: the server's directory is not put there (without
# XDG_RUNTIME_DIR it is /tmp/pathcc-UID, whose server goes after its idle second)
mkdir -p tmpd
(unset XDG_RUNTIME_DIR; TMPDIR="$out/tmpd" PATHCC_SERVER_IDLE=1 "$P" gcc -O2 -c one.c -o tmpd.o 2>tmpd.err)
[ -s tmpd.o ] && [ -z "$(ls -A tmpd)" ]
check tmpdir-untouched $? "left in TMPDIR: $(ls -A tmpd | tr '\n' ' ')"
