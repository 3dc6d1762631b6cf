# debsrc.sh: sourced (after setting top) by the scripts that build Debian source packages
# (e2e/lines_real.sh, rebuild.sh). Sources are fetched into regress/out/debsrc with a sources file
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
