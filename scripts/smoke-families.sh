#!/usr/bin/env bash
# One command of every command family against a sandbox, from whichever form of diazo is given
# (the release binary, or `deno run ... dist/bundle/diazo.js`): the release workflow's smoke step and
# tests/e2e/bundle_test.ts run this same list, so every family is proven to load and answer from the
# artifact users get. Usage: scripts/smoke-families.sh <diazo command words...>
# Prints one line per family ("ok <family>" or "FAILED <family> (exit N): <stderr>") and exits 1 if any failed.
set -uo pipefail
if [ "$#" -eq 0 ]; then echo "usage: $0 <diazo command words...>" >&2; exit 2; fi
diazo=("$@")
work=$(mktemp -d)
trap 'kill "$sandbox" 2>/dev/null; rm -rf "$work"' EXIT
export DIAZO_CONFIG_DIR="$work/config" DIAZO_STATE_DIR="$work/state" DIAZO_TOKEN_STORE=file NO_COLOR=1
export DIAZO_NO_UPDATE_CHECK=1 DENO_NO_UPDATE_CHECK=1
"${diazo[@]}" sandbox --port 0 --auto-approve --data-dir "$work/data" > "$work/sandbox.out" 2>/dev/null &
sandbox=$!
for _ in $(seq 200); do grep -q '^http' "$work/sandbox.out" 2>/dev/null && break; sleep 0.1; done
DIAZO_BASE_URL=$(head -n 1 "$work/sandbox.out")
export DIAZO_BASE_URL SVC_CLIENT_ID=diazo-sandbox SVC_CLIENT_SECRET=diazo-sandbox-secret
[ -n "$DIAZO_BASE_URL" ] || { echo "FAILED sandbox (it printed no address)"; exit 1; }

failed=0
# family | command words (one line each; ids are the sandbox's seeded ones)
hub=b.dc6589d2-9ad1-4301-a2e8-6a1ff3b25cec
project=b.91f8bd44-058f-480c-adbb-861df5101b22
check() { # family, words...
  local family=$1
  shift
  if "${diazo[@]}" "$@" > "$work/out" 2> "$work/err" < /dev/null; then
    echo "ok $family"
  else
    echo "FAILED $family (exit $?): $(head -c 300 "$work/err" | tr '\n' ' ')"
    failed=1
  fi
}
printf 'a,b\n' > "$work/part.csv"
check auth auth login --device --scopes "data:read data:write data:create bucket:read viewables:read account:read user-profile:read"
check bucket bucket create --key smoke-families
check oss oss list
check object object upload smoke-families "$work/part.csv" --key part.csv
check translate translate preset list
check view view --help
check api api /oss/v2/buckets
check hub hub list
check project project list "$hub"
check folder folder list "$project" --hub "$hub"
folder=$("${diazo[@]}" folder list "$project" --hub "$hub" -o json --query '[0].id' 2>/dev/null | tr -d '"')
check item item upload "$project" "$folder" "$work/part.csv"
check dm dm --help
check admin admin account list
check acc acc asset list --project "$project"
check issue issue list --project "$project"
check rfi rfi list --project "$project"
check da da engines
check webhook webhook list
check reality-capture reality-capture --help
check pipeline pipeline schema
check serve serve --print-config claude
check plugin plugin list
check alias alias list
check config config list
check logs logs --help
check sandbox sandbox --help
check demo demo --help
check generate generate obj --size 1KB --out "$work/model.obj"
check completions completions bash
check version version
exit "$failed"
