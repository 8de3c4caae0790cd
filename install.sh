#!/bin/sh
# Installs diazo from a release: detects OS and architecture, downloads the matching binary and the
# release's SHA256SUMS, refuses to install unless the binary's checksum is listed and matches, and
# puts it in ~/.local/bin (or --dir). Never needs root. Nothing is installed when anything fails.
#
#   curl -fsSL https://github.com/diazo-cli/diazo/releases/latest/download/install.sh | sh
#   sh install.sh [--version 1.2.3] [--dir DIR]
#
# DIAZO_INSTALL_BASE_URL overrides where releases are downloaded from; a release's files are
# <base>/download/v<version>/<file>, the newest one's <base>/latest/download/<file>.
set -eu

BASE_URL="${DIAZO_INSTALL_BASE_URL:-https://github.com/diazo-cli/diazo/releases}"
BASE_URL="${BASE_URL%/}"
VERSION=""
DIR="${XDG_BIN_HOME:-${HOME:-}/.local/bin}"
TMP=""

say() { printf '%s\n' "$*" >&2; }
fail() {
  say "error: $1"
  if [ -n "${2:-}" ]; then say "hint: $2"; fi
  exit 1
}
cleanup() { if [ -n "$TMP" ]; then rm -rf "$TMP"; fi; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

usage() {
  cat <<'EOF'
Install diazo.

Usage: install.sh [--version X.Y.Z] [--dir DIR]

  --version X.Y.Z   install this release (default: the newest)
  --dir DIR         install into DIR (default: ~/.local/bin)

Environment: DIAZO_INSTALL_BASE_URL (where releases are downloaded from).
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version | -v)
      [ $# -ge 2 ] || fail "--version needs a value" "e.g. --version 1.2.3"
      VERSION="${2#v}"
      shift 2
      ;;
    --version=*) VERSION="${1#--version=}"; VERSION="${VERSION#v}"; shift ;;
    --dir)
      [ $# -ge 2 ] || fail "--dir needs a value"
      DIR="$2"
      shift 2
      ;;
    --dir=*) DIR="${1#--dir=}"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) fail "unknown argument: $1" "run: sh install.sh --help" ;;
  esac
done
[ -n "$DIR" ] || fail "no install directory: HOME is not set" "pass --dir DIR"
case "$VERSION" in
  "" | [0-9]*.[0-9]*.[0-9]*) ;;
  *) fail "not a version: $VERSION" "use the form 1.2.3" ;;
esac

# --- what to download -------------------------------------------------------------------------
os=$(uname -s)
case "$os" in
  Linux) os_part="unknown-linux-gnu" ;;
  Darwin) os_part="apple-darwin" ;;
  *) fail "unsupported operating system: $os" "diazo is built for Linux, macOS and Windows (use install.ps1 there)" ;;
esac
arch=$(uname -m)
case "$arch" in
  x86_64 | amd64) arch_part="x86_64" ;;
  aarch64 | arm64) arch_part="aarch64" ;;
  *) fail "unsupported architecture: $arch" "diazo is built for x86_64 and aarch64 (arm64)" ;;
esac
# A shell under Rosetta reports x86_64 on an Apple silicon Mac: take the native binary.
if [ "$os" = "Darwin" ] && [ "$arch_part" = "x86_64" ] &&
  [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = "1" ]; then
  arch_part="aarch64"
fi
if [ "$os" = "Linux" ] && (ldd --version 2>&1 || true) | grep -qi musl; then
  fail "musl libc (e.g. Alpine) is not supported" "use a glibc-based system or image (Debian, Ubuntu, Fedora, ...)"
fi
target="${arch_part}-${os_part}"

if [ -n "$VERSION" ]; then
  release_url="$BASE_URL/download/v$VERSION"
else
  release_url="$BASE_URL/latest/download"
fi

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  fail "neither curl nor wget is installed" "install one of them and run this again"
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
elif command -v openssl >/dev/null 2>&1; then
  sha256() { openssl dgst -sha256 "$1" | sed 's/.*= *//'; }
else
  fail "no SHA-256 tool (sha256sum, shasum or openssl): cannot verify the download" "install coreutils or openssl"
fi

TMP=$(mktemp -d 2>/dev/null || mktemp -d -t diazo-install)

# --- download and verify ----------------------------------------------------------------------
fetch "$release_url/SHA256SUMS" "$TMP/SHA256SUMS" ||
  fail "could not download SHA256SUMS from $release_url: refusing to install without a checksum" \
    "check the version and DIAZO_INSTALL_BASE_URL, or try again later"

# The newest release names its version only in its files: take it from the checksum list.
if [ -z "$VERSION" ]; then
  file=$(awk -v t="$target" '{ f = $2; sub(/^\*/, "", f) } f ~ ("^diazo-[0-9][^ ]*-" t "$") { print f; exit }' "$TMP/SHA256SUMS")
  [ -n "$file" ] || fail "the newest release has no binary for $target in its SHA256SUMS: refusing to install" \
    "pick a release that has one with --version"
else
  file="diazo-$VERSION-$target"
fi
expected=$(awk -v f="$file" '{ g = $2; sub(/^\*/, "", g) } g == f { print tolower($1); exit }' "$TMP/SHA256SUMS")
case "$expected" in
  [0-9a-f]*) [ ${#expected} -eq 64 ] || expected="" ;;
  *) expected="" ;;
esac
[ -n "$expected" ] || fail "SHA256SUMS has no checksum for $file: refusing to install" \
  "the release may not have a binary for $target"

say "Downloading $file ..."
fetch "$release_url/$file" "$TMP/$file" || fail "could not download $release_url/$file"
actual=$(sha256 "$TMP/$file")
[ "$actual" = "$expected" ] || fail "checksum mismatch for $file (expected $expected, got $actual): refusing to install" \
  "the download is damaged or was tampered with; try again, and report it if it persists"

# --- install ----------------------------------------------------------------------------------
mkdir -p "$DIR" || fail "cannot create $DIR" "pass a directory you can write with --dir"
staged="$DIR/.diazo.install.$$"
cp "$TMP/$file" "$staged" || fail "cannot write to $DIR" "pass a directory you can write with --dir"
chmod 755 "$staged"
mv -f "$staged" "$DIR/diazo" || { rm -f "$staged"; fail "cannot replace $DIR/diazo"; }

say "Installed $file as $DIR/diazo"
"$DIR/diazo" --version 2>/dev/null | head -n 1 >&2 || say "warning: $DIR/diazo does not run on this machine"
case ":${PATH:-}:" in
  *":$DIR:"*) ;;
  *)
    say ""
    say "$DIR is not on your PATH. Add it, e.g. in ~/.profile (or ~/.zshrc):"
    say "  export PATH=\"$DIR:\$PATH\""
    ;;
esac
