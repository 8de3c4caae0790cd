#!/bin/sh
# Runs the real Linux keychain test (tests/platform/keychain_linux_test.ts) against a private
# Secret Service: a D-Bus session of its own and a gnome-keyring unlocked with a throwaway
# password, in a fresh temporary HOME. Installs the Debian packages it needs when they are missing.
# Exits with Deno's exit code; prints Deno's normal test output.
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(dirname "$here")

if [ "$(uname -s)" != "Linux" ]; then
  echo "error: the Secret Service keychain test runs on Linux only" >&2
  exit 1
fi

# --- packages -------------------------------------------------------------------------------
missing=""
command -v secret-tool >/dev/null 2>&1 || missing="$missing libsecret-tools"
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing="$missing gnome-keyring"
command -v dbus-run-session >/dev/null 2>&1 || missing="$missing dbus"
if [ -n "$missing" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: missing:$missing, and apt-get is not available to install them" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    as_root=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root="sudo -n"
  else
    echo "error: missing:$missing; install them as root (apt-get install$missing)" >&2
    exit 1
  fi
  echo "Installing$missing ..." >&2
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  # shellcheck disable=SC2086
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
fi

# --- a private session ----------------------------------------------------------------------
# Keep Deno's cache where it is (nothing to download) before HOME moves.
DENO_DIR="${DENO_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/deno}"
export DENO_DIR
work=$(mktemp -d "${TMPDIR:-/tmp}/diazo-keychain.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/home" "$work/run"
chmod 700 "$work/run"
# Nothing of the user's own session may be reached: no bus, no display, no keyring dirs.
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY GNOME_KEYRING_CONTROL \
  XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME XDG_STATE_HOME
HOME="$work/home"
XDG_RUNTIME_DIR="$work/run"
DIAZO_KEYCHAIN_TEST=required
export HOME XDG_RUNTIME_DIR DIAZO_KEYCHAIN_TEST

cd "$root"
status=0
# The keyring must be unlocked with a non-empty password, or every call waits for a prompt that
# cannot be shown.
dbus-run-session -- sh -c '
  printf %s diazo-test | gnome-keyring-daemon --unlock --daemonize --components=secrets >/dev/null || {
    echo "error: gnome-keyring-daemon did not start" >&2; exit 1; }
  exec "$0" test -A tests/platform/keychain_linux_test.ts
' "$root/scripts/deno" || status=$?
exit "$status"
