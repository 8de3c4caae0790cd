/**
 * `plugin create`: the files of a new plugin that follows diazo's conventions (`--help`,
 * `--output json`, `error:`/`hint:` on stderr, the exit codes of README.md, "Errors and exit codes").
 */
import path from "node:path";
import { DiazoError, usageError } from "../core/errors.ts";

/** True for a usable plugin name: letters, digits, `_` and `-`, starting with a letter or digit. */
export function validPluginName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name);
}

/** The POSIX sh script of a plugin named `name`. */
export function pluginShScript(name: string): string {
  return `#!/bin/sh
# diazo-${name}: a diazo plugin, run as \`diazo ${name} [options] [WHO]\`.
# Conventions:
#   -h, --help      usage on stdout, exit 0
#   -o, --output    json | table (default: $DIAZO_OUTPUT, else table); stdout carries data only
#   errors          \`error: <message>\` and \`hint: <remedy>\` on stderr
#   exit codes      0 ok, 1 failure, 2 usage, 3 auth, 4 not found, 5 transient, 6 conflict
# diazo sets DIAZO_BIN (to call diazo back: "$DIAZO_BIN" bucket list -o json), DIAZO_PROFILE,
# DIAZO_OUTPUT and DIAZO_BASE_URL. No secrets are passed: call "$DIAZO_BIN" for anything that
# needs a token.
set -u

name="${name}"
output="\${DIAZO_OUTPUT:-table}"
who="world"

usage() {
  cat <<EOF
usage: diazo $name [-o json|table] [WHO]

Says hello (replace this with what the plugin does).

Options:
  -o, --output FORMAT   json or table (default: \\$DIAZO_OUTPUT, else table)
  -h, --help            show this help
EOF
}

fail() { # exit code, message, hint
  printf 'error: %s\\nhint: %s\\n' "$2" "$3" >&2
  exit "$1"
}

json_string() {
  printf '"%s"' "$(printf '%s' "$1" | sed 's/\\\\/\\\\\\\\/g; s/"/\\\\"/g')"
}

while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    -o | --output)
      [ $# -ge 2 ] || fail 2 "option '$1' needs a value" "Use -o json or -o table."
      output="$2"
      shift 2
      ;;
    --output=*) output="\${1#--output=}"; shift ;;
    --) shift; break ;;
    -*) fail 2 "unknown option '$1'" "Run \\\`diazo $name --help\\\` for usage." ;;
    *) who="$1"; shift ;;
  esac
done
if [ $# -gt 0 ]; then who="$1"; fi

case "$output" in
  json)
    printf '{"plugin":%s,"greeting":%s,"profile":%s}\\n' "$(json_string "$name")" \\
      "$(json_string "hello, $who")" "$(json_string "\${DIAZO_PROFILE:-}")"
    ;;
  table) printf 'hello, %s\\n' "$who" ;;
  *) fail 2 "unsupported output format '$output'" "Use -o json or -o table." ;;
esac
`;
}

/** The Windows batch file of a plugin named `name`, with the same options and conventions. */
export function pluginCmdScript(name: string): string {
  return [
    "@echo off",
    "setlocal",
    `rem diazo-${name}: a diazo plugin, run as "diazo ${name} [options] [WHO]" (conventions as in diazo-${name}).`,
    'set "output=%DIAZO_OUTPUT%"',
    'if "%output%"=="" set "output=table"',
    'set "who=world"',
    ":args",
    'if "%~1"=="" goto run',
    'if "%~1"=="-h" goto help',
    'if "%~1"=="--help" goto help',
    'if "%~1"=="-o" goto outarg',
    'if "%~1"=="--output" goto outarg',
    'set "arg=%~1"',
    'if "%arg:~0,1%"=="-" goto badopt',
    'set "who=%~1"',
    "shift",
    "goto args",
    ":outarg",
    'if "%~2"=="" goto novalue',
    'set "output=%~2"',
    "shift",
    "shift",
    "goto args",
    ":novalue",
    "echo error: option '%~1' needs a value 1>&2",
    "echo hint: Use -o json or -o table. 1>&2",
    "exit /b 2",
    ":badopt",
    "echo error: unknown option '%~1' 1>&2",
    `echo hint: Run \`diazo ${name} --help\` for usage. 1>&2`,
    "exit /b 2",
    ":help",
    `echo usage: diazo ${name} [-o json^|table] [WHO]`,
    "echo.",
    "echo Says hello (replace this with what the plugin does).",
    "exit /b 0",
    ":run",
    'if /i "%output%"=="json" goto json',
    'if /i "%output%"=="table" goto table',
    "echo error: unsupported output format '%output%' 1>&2",
    "echo hint: Use -o json or -o table. 1>&2",
    "exit /b 2",
    ":json",
    `echo {"plugin":"${name}","greeting":"hello, %who%","profile":"%DIAZO_PROFILE%"}`,
    "exit /b 0",
    ":table",
    "echo hello, %who%",
    "exit /b 0",
    "",
  ].join("\r\n");
}

/**
 * Writes a new plugin into `dir`: the executable sh script `diazo-<name>`, and on Windows also
 * `diazo-<name>.cmd`. Existing files are never overwritten. Returns the files written.
 */
export async function scaffoldPlugin(dir: string, name: string, os: string): Promise<string[]> {
  if (!validPluginName(name)) {
    throw usageError(
      `invalid plugin name '${name}'`,
      "Use letters, digits, '_' and '-', starting with a letter or digit, e.g. `diazo plugin create hello`.",
    );
  }
  const files: [string, string][] = [[path.join(dir, `diazo-${name}`), pluginShScript(name)]];
  if (os === "windows") files.push([path.join(dir, `diazo-${name}.cmd`), pluginCmdScript(name)]);
  for (const [file] of files) {
    if (await Deno.lstat(file).then(() => true, () => false)) {
      throw new DiazoError("conflict", { params: { detail: `${file} already exists` } });
    }
  }
  await Deno.mkdir(dir, { recursive: true });
  for (const [file, text] of files) {
    await Deno.writeTextFile(file, text, { mode: 0o755, createNew: true });
    if (os !== "windows") await Deno.chmod(file, 0o755);
  }
  return files.map(([f]) => f);
}
