# debsrc.sh: sourced (after setting top) by the scripts that build Debian source packages
# (e2e/lines_real.sh, e2e/cpython.sh, rebuild.sh). Sources are fetched into regress/out/debsrc with a sources file
# and package lists of their own (an update that saw only deb-src entries would otherwise drop the
# machine's binary package lists); apt_src runs apt-get with them.
cache="$top/regress/out/debsrc"
mkdir -p "$cache/parts" "$cache/lists/partial" "$cache/src"
: >"$cache/empty.list"
cat >"$cache/parts/debsrc.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt_src() {
  apt-get -o Dir::Etc::SourceList="$cache/empty.list" -o Dir::Etc::SourceParts="$cache/parts" \
          -o Dir::State::Lists="$cache/lists" "$@"
}

# debsrc_fetch PKG: the unpacked source of package PKG, in a directory of its own under the cache
# (fetched the first time): prints the directory, nothing when apt-get source failed ($cache/src/PKG.log)
debsrc_fetch() {
  _into="$cache/src/$1"
  _dir=$(find "$_into" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -1)
  if [ -z "$_dir" ]; then
    [ -f "$cache/lists/.updated" ] || { apt_src update -qq >"$cache/update.log" 2>&1 && touch "$cache/lists/.updated"; }
    mkdir -p "$_into"
    (cd "$_into" && apt_src source "$1" >"$_into.log" 2>&1)
    _dir=$(find "$_into" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -1)
  fi
  echo "$_dir"
}

# debsrc_deps PKG LOG: installs what the package's .dsc says its build needs (Build-Depends and
# -Arch, with the machine's binary lists): apt-get satisfy reads the same syntax, build profiles included
debsrc_deps() {
  _dsc=$(ls "$cache/src/$1"/*.dsc 2>/dev/null | head -1)
  [ -n "$_dsc" ] || return 1
  _deps=$(awk '/^[A-Za-z-]+:/ { keep = ($1 == "Build-Depends:" || $1 == "Build-Depends-Arch:"); if (keep) { sub(/^[^:]*: */, ""); printf "%s,", $0 }; next }
              keep && /^ / { printf "%s", $0 }' "$_dsc" | tr -s ' ,' | sed 's/^[ ,]*//; s/[ ,]*$//')
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 satisfy -y -qq "$_deps" >"$2" 2>&1
}
