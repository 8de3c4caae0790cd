#!/usr/bin/env bash
# Runs diazo's Windows test group under Wine: the Windows build of the pinned Deno (npm package
# @deno/win32-x64) runs the test files that have Windows cases (tests/windows/files.txt) and the
# end-to-end smoke (tests/windows/smoke_test.ts) against a sandbox run by the Linux Deno; then a
# Ctrl-C is sent to a waiting Windows run, which must exit 130.
#
# Sets itself up from Debian's packages and the npm registry only: the system Wine when it is 10 or
# later, else Debian 13's Wine fetched with a private APT_CONFIG whose only source is Debian 13 and
# unpacked with dpkg -x (no system apt source is added, nothing is installed). The downloads, and
# Wine unpacked, are kept in DIAZO_WINE_CACHE (default .deno/wine-cache, ignored by git) so that the
# next run need not fetch them again; everything else of a run (the Wine prefix, HOME, Deno's cache,
# the sandbox) stays in one temporary folder, removed at the end.
#
# Prints what it installed and how long each step took, Deno's test output, and a last line
# "ok | N passed | N failed" (or "FAILED | ..."). Fails with one "error:" line when Wine cannot be had.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(dirname "$here")
cd "$root" || exit 1
export NO_COLOR=1
# Wine's console needs a plain standard input (a terminal or /dev/null), and aborts on a
# TMPDIR of its own: every Windows run gets /dev/null, and TMPDIR only reaches the Linux side.
exec </dev/null

started=$(date +%s%N)
step_at=$started
step() { # name: prints how long the previous step took, then the next step's name
  local now
  now=$(date +%s%N)
  printf '   (%d.%01d s)\n' $(((now - step_at) / 1000000000)) $((((now - step_at) / 100000000) % 10))
  step_at=$now
  printf '== wine: %s\n' "$1"
}
die() {
  echo "error: $*" >&2
  echo "FAILED | 0 passed | 1 failed (windows group: $*)"
  exit 1
}

PIN=$(sed -n 's/^PIN="\${DIAZO_DENO_VERSION:-\([0-9.]*\)}"$/\1/p' scripts/deno)
[ -n "$PIN" ] || die "cannot read the pinned Deno version from scripts/deno"
cache=${DIAZO_WINE_CACHE:-$root/.deno/wine-cache}
mkdir -p "$cache" || die "cannot create the download cache $cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/diazo-wine.XXXXXX") || die "cannot create a temporary folder"
sandbox_pid=""
wineserver=""
cleanup() {
  [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null && wait "$sandbox_pid" 2>/dev/null
  if [ -n "$wineserver" ] && [ -d "$work/prefix" ]; then
    WINEPREFIX="$work/prefix" "$wineserver" -k 2>/dev/null
    # Wine keeps its server's socket in /tmp/wine-XXXXXX/server-<device>-<inode of the prefix>.
    local sdir
    sdir="server-$(stat -c %D "$work/prefix")-$(printf %x "$(stat -c %i "$work/prefix")")"
    for d in /tmp/wine-*/"$sdir" /tmp/.wine-"$(id -u)"/"$sdir"; do
      [ -d "$d" ] && rm -rf "$d" && rmdir "$(dirname "$d")" 2>/dev/null
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# The Linux Deno keeps its own cache (nothing to download again) before HOME moves.
linux_npm=$(scripts/deno info --json 2>/dev/null | sed -n 's/^ *"npmCache": "\(.*\)",\{0,1\}$/\1/p')
[ -n "$linux_npm" ] || die "scripts/deno does not run (the Linux Deno is needed for the sandbox)"
LINUX_DENO_DIR=$(dirname "$linux_npm")
mkdir -p "$work/home" "$work/tmp" "$work/xdg/config" "$work/xdg/cache" "$work/xdg/data"
export HOME="$work/home" XDG_CONFIG_HOME="$work/xdg/config" \
  XDG_CACHE_HOME="$work/xdg/cache" XDG_DATA_HOME="$work/xdg/data"
unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS TMPDIR
echo "== wine: temporary folder $work"

# --- Linux Deno: what the sandbox runs, and whose npm cache the Windows Deno starts from ----------
step "Linux Deno $PIN and its npm packages"
mapfile -t files < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' tests/windows/files.txt | grep -v '^$')
DENO_DIR="$LINUX_DENO_DIR" scripts/deno cache --quiet src/main.ts "${files[@]}" >/dev/null 2>&1 ||
  die "the Linux Deno could not cache diazo's modules and their npm packages"

# --- Wine -------------------------------------------------------------------------------------------
wine_major() { "$1" --version 2>/dev/null | sed -n 's/^wine-\([0-9]*\).*/\1/p'; }
wine_bin=""
zlib_dll=""
for cand in wine64 wine; do
  w=$(command -v "$cand" 2>/dev/null) || continue
  major=$(wine_major "$w")
  if [ -n "$major" ] && [ "$major" -ge 10 ]; then
    wine_bin=$w
    break
  fi
done
if [ -n "$wine_bin" ]; then
  step "the system's Wine ($wine_bin)"
  wineserver=$(command -v wineserver 2>/dev/null || echo /usr/lib/wine/wineserver64)
  zlib_dll=/usr/x86_64-w64-mingw32/lib/zlib1.dll
else
  step "Debian 13's Wine, unpacked privately (the system has no Wine 10 or later)"
  command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
    die "Wine 10 or later is needed, and apt-get/dpkg are not here to fetch Debian 13's"
  mirror=$(sed -n 's#^URIs: *\(https\{0,1\}://[^ ]*/debian\)/\{0,1\} *$#\1#p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
    head -n 1)
  [ -n "$mirror" ] || mirror=$(sed -n 's#^deb \(https\{0,1\}://[^ ]*/debian\)/\{0,1\} .*#\1#p' /etc/apt/sources.list 2>/dev/null |
    head -n 1)
  [ -n "$mirror" ] || die "Wine 10 or later is needed, and no Debian mirror is configured in /etc/apt to fetch Debian 13's"
  apt="$cache/apt"
  mkdir -p "$apt/sources" "$apt/lists/partial" "$apt/archives/partial" "$apt/preferences.d" "$cache/debs"
  touch "$apt/status"
  printf 'Types: deb\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" >"$apt/sources/trixie.sources"
  cat >"$apt/apt.conf" <<EOF
Dir::Etc::SourceList "/dev/null";
Dir::Etc::SourceParts "$apt/sources";
Dir::Etc::Preferences "/dev/null";
Dir::Etc::PreferencesParts "$apt/preferences.d";
Dir::State::Lists "$apt/lists";
Dir::State::status "$apt/status";
Dir::Cache "$apt";
Dir::Cache::archives "$apt/archives";
APT::Architecture "amd64";
APT::Architectures "amd64";
APT::Sandbox::User "root";
EOF
  export APT_CONFIG="$apt/apt.conf"
  pkgs="wine64 libwine libc6 libunwind8 libz-mingw-w64 patchelf"
  have_all=1
  for p in $pkgs; do ls "$cache/debs/${p}_"*.deb >/dev/null 2>&1 || have_all=0; done
  if [ "$have_all" -eq 0 ]; then
    rm -f "$cache/debs/"*.deb
    apt-get update -qq -o Debug::NoLocking=1 >/dev/null 2>&1 || die "apt-get update of Debian 13's package list ($mirror, trixie) failed"
    # shellcheck disable=SC2086 # the package list is split on purpose
    (cd "$cache/debs" && apt-get download -qq $pkgs >/dev/null 2>&1) ||
      die "apt-get download of Debian 13's Wine ($pkgs) failed"
  fi
  unset APT_CONFIG
  for d in "$cache/debs/"*.deb; do echo "   $(basename "$d")"; done
  # Unpacked and patched once per set of packages (and place), then kept beside the downloads.
  wroot="$cache/wine-root"
  stamp="$wroot.done"
  want="$wroot $(cd "$cache/debs" && ls ./*.deb | tr '\n' ' ')"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    rm -rf "$wroot" "$stamp"
    for d in "$cache/debs/"*.deb; do dpkg -x "$d" "$wroot" || die "dpkg -x $d failed"; done
    libdir="$wroot/usr/lib/x86_64-linux-gnu"
    loader="$libdir/ld-linux-x86-64.so.2"
    if command -v patchelf >/dev/null 2>&1; then
      patch() { patchelf "$@"; }
    else
      # Debian 13's patchelf wants its newer C library: run it on the unpacked one.
      patch() { "$loader" --library-path "$libdir:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" "$wroot/usr/bin/patchelf" "$@"; }
    fi
    for b in wine64 wineserver64; do
      patch --set-interpreter "$loader" --set-rpath "$libdir" "$wroot/usr/lib/wine/$b" || die "patchelf on $b failed"
    done
    printf '%s' "$want" >"$stamp"
  else
    echo "   (unpacked before: $wroot)"
  fi
  # Debian's wineserver wrapper names /usr/lib/wine; the server looks for its data under share/wine/wine.
  printf '#!/bin/sh\nexec "%s" -p0 "$@"\n' "$wroot/usr/lib/wine/wineserver64" >"$wroot/usr/lib/wine/wineserver"
  chmod +x "$wroot/usr/lib/wine/wineserver"
  ln -sfn . "$wroot/usr/share/wine/wine"
  wine_bin="$wroot/usr/lib/wine/wine64"
  wineserver="$wroot/usr/lib/wine/wineserver64"
  zlib_dll="$wroot/usr/x86_64-w64-mingw32/lib/zlib1.dll"
fi
wine_version=$("$wine_bin" --version 2>/dev/null) || die "Wine ($wine_bin) does not run"
major=$(wine_major "$wine_bin")
[ -n "$major" ] && [ "$major" -ge 10 ] || die "Wine 10 or later is needed; $wine_bin is $wine_version"

# --- the Windows Deno ------------------------------------------------------------------------------
step "@deno/win32-x64@$PIN (npm registry)"
deno_exe="$cache/deno-win32-x64-$PIN/package/deno.exe"
if [ ! -f "$deno_exe" ]; then
  command -v npm >/dev/null 2>&1 || die "npm is needed to fetch @deno/win32-x64@$PIN"
  rm -rf "$cache/deno-win32-x64-$PIN" && mkdir -p "$cache/deno-win32-x64-$PIN"
  (cd "$cache/deno-win32-x64-$PIN" && npm pack --silent "@deno/win32-x64@$PIN" >/dev/null 2>&1 &&
    tar -xzf "deno-win32-x64-$PIN.tgz" && rm -f "deno-win32-x64-$PIN.tgz") ||
    die "npm pack @deno/win32-x64@$PIN failed"
fi

# --- a fresh prefix ---------------------------------------------------------------------------------
step "a fresh Wine prefix"
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
mkdir -p "$WINEPREFIX/drive_c/windows/system32"
[ -f "$zlib_dll" ] && cp "$zlib_dll" "$WINEPREFIX/drive_c/windows/system32/"
"$wine_bin" wineboot -i >/dev/null 2>&1
"$wineserver" -w >/dev/null 2>&1 # the registry files are written when the server ends
[ -f "$WINEPREFIX/system.reg" ] || die "wineboot did not make a prefix in $WINEPREFIX"
# A prefix links the user's Documents, Downloads... to $HOME: folders of their own instead.
find "$WINEPREFIX/drive_c/users" -maxdepth 2 -type l | while read -r link; do
  rm -f "$link" && mkdir -p "$link"
done
"$wineserver" -p >/dev/null 2>&1 # one server for the whole run: each start of Wine then takes ~1 s less
deno_version=$("$wine_bin" "$deno_exe" --version 2>/dev/null | head -n 1 | tr -d '\r')
case "$deno_version" in "deno $PIN "*) ;; *) die "the Windows Deno does not run under $wine_version ($deno_version)" ;; esac
echo "   $wine_version; $deno_version"

# --- Deno's cache for the Windows run: a copy of the Linux npm cache, no download ---------------
step "Deno's cache for the Windows run (a copy of the Linux Deno's npm packages)"
mkdir -p "$work/deno-dir/npm"
cp -r "$linux_npm/." "$work/deno-dir/npm/" 2>/dev/null || die "cannot copy the npm cache $linux_npm"
win_path() { printf 'Z:%s' "$1" | tr / '\\'; }
export DENO_DIR
DENO_DIR=$(win_path "$work/deno-dir")

# --- the sandbox, run by the Linux Deno -----------------------------------------------------------
step "a sandbox run by the Linux Deno"
TMPDIR="$work/tmp" DIAZO_CONFIG_DIR="$work/sandbox-config" DIAZO_STATE_DIR="$work/sandbox-state" DENO_DIR="$LINUX_DENO_DIR" \
  scripts/deno run -A src/main.ts sandbox --port 0 --auto-approve >"$work/sandbox.out" 2>"$work/sandbox.err" &
sandbox_pid=$!
url=""
for _ in $(seq 1 300); do
  url=$(head -n 1 "$work/sandbox.out" 2>/dev/null | grep -o 'http://127\.0\.0\.1:[0-9]*')
  [ -n "$url" ] && break
  kill -0 "$sandbox_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$url" ] || die "the sandbox did not start: $(head -c 300 "$work/sandbox.err")"
echo "   $url"

# --- the tests --------------------------------------------------------------------------------------
step "the Windows test group: deno.exe test under $wine_version"
log="$work/test.log"
DIAZO_KEYCHAIN_TEST=required DIAZO_WINDOWS_SANDBOX="$url" \
  "$wine_bin" "$deno_exe" test -A --no-check "${files[@]}" 2>&1 | tr -d '\r' | tee "$log"
summary=$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$log" | tail -n 1)
passed=$(printf '%s' "$summary" | sed -nE 's/.*\| ([0-9]+) passed.*/\1/p')
failed=$(printf '%s' "$summary" | sed -nE 's/.*\| ([0-9]+) failed.*/\1/p')
passed=${passed:-0}
failed=${failed:-1}

step "Ctrl-C stops a waiting Windows run with exit 130"
# The sandbox holds every answer to `bucket list` (each retry too) for a minute; SIGINT reaches the Windows process as a
# console Ctrl-C.
http() { # method path [body]: the sandbox's answer, through the Linux Deno (no other client needed)
  DENO_DIR="$LINUX_DENO_DIR" scripts/deno eval --quiet "const r = await fetch('$url$2', { method: '$1', headers: { 'content-type': 'application/json' }, body: Deno.args[0] || undefined }); console.log(await r.text());" "${3:-}"
}
http POST /_sandbox/faults '{"method":"GET","path":"/oss/v2/buckets","delay_ms":60000,"count":100}' | grep -q '"id"' ||
  echo "   (the sandbox did not take the fault: the check below fails)"
http DELETE /_sandbox/requests >/dev/null
cc="$work/ctrlc"
mkdir -p "$cc/config" "$cc/state"
DIAZO_BASE_URL="$url" SVC_CLIENT_ID=diazo-sandbox SVC_CLIENT_SECRET=diazo-sandbox-secret DIAZO_TOKEN_STORE=file \
  DIAZO_CONFIG_DIR="$(win_path "$cc/config")" DIAZO_STATE_DIR="$(win_path "$cc/state")" \
  "$wine_bin" "$deno_exe" run -A src/main.ts bucket list >"$cc/out" 2>"$cc/err" &
ccpid=$!
# Its token request is answered (and logged) just before the held one is sent.
for _ in $(seq 1 300); do
  http GET "/_sandbox/requests?path=/authentication/v2/token" | grep -q '"status"' && break
  kill -0 "$ccpid" 2>/dev/null || break
  sleep 0.2
done
sleep 1
kill -INT "$ccpid" 2>/dev/null
code=0
wait "$ccpid" || code=$?
if [ "$code" -eq 130 ] && tr -d '\r' <"$cc/err" | grep -q '^error: Interrupted'; then
  echo "Ctrl-C while a request waits: exit 130 and 'error: Interrupted' ... ok"
  passed=$((passed + 1))
else
  echo "Ctrl-C while a request waits: exit 130 and 'error: Interrupted' ... FAILED (exit $code: $(tr -d '\r' <"$cc/err" | head -c 300))"
  failed=$((failed + 1))
fi

step "done"
left=$(find "$work/deno-dir" -name 'node.exe.tmp-*' 2>/dev/null | wc -l)
total=$((($(date +%s%N) - started) / 1000000000))
note=""
[ "$left" -gt 0 ] && note=", $left node.exe copies left in the run's Deno cache (removed with it)"
echo "windows group: $wine_version, $deno_version, ${#files[@]} test files, ${total} s$note"
if [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; then
  echo "ok | $passed passed | 0 failed"
  exit 0
fi
echo "FAILED | $passed passed | $failed failed"
exit 1
