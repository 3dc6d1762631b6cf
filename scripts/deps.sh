#!/bin/sh
# Installs the Debian packages pathprof needs to build and test, when they are missing.
set -e
need=""
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in gcc make clang libclang-14-dev libjansson-dev python3 "$@"; do
  have "$p" || need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "pathprof needs:$need" >&2
  echo "run: sudo apt-get update && sudo apt-get install -y$need" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$need >/dev/null
