/**
 * Runs CLI commands in a real terminal of a given width (a detached tmux pane) and reads back what
 * the pane shows: only a real terminal gives the CLI a width. Tests skip (with a message) without tmux.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliCommand } from "./harness.ts";

/** True when tmux can be run here. */
export const hasTmux = await new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" })
  .output()
  .then((r) => r.success, () => false);
if (!hasTmux) {
  console.warn("skipping the tmux terminal tests: tmux is not installed (apt-get install -y tmux)");
}

/** `s` quoted for sh. */
export function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** The sh command line that runs the CLI from source with `args`. */
export function cliLine(args: readonly string[]): string {
  return [Deno.execPath(), ...cliCommand(args)].map(shQuote).join(" ");
}

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const r = await new Deno.Command("tmux", {
    args: ["-L", socket, "-f", "/dev/null", ...args],
    stderr: "piped",
  })
    .output();
  assert.ok(r.success, `tmux ${args.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
  return new TextDecoder().decode(r.stdout);
}

/** The pane's text with wrapped lines joined, once `marker` shows (or after `ms`). */
async function waitFor(socket: string, marker: RegExp, ms: number): Promise<string> {
  const end = Date.now() + ms;
  while (true) {
    const text = await tmux(socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "pane");
    if (marker.test(text) || Date.now() > end) return text;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Runs the sh `lines` in a `width`-column pane with exactly `env` (no COLUMNS: the width comes
 * from the terminal) in `cwd`, and returns the pane's text once they have all run. The script is
 * written into `dir`; `done=<exit>` ends the text.
 */
export async function runInPane(
  width: number,
  env: Record<string, string>,
  cwd: string,
  dir: string,
  lines: readonly string[],
): Promise<string> {
  const socket = `diazo-pane-${Deno.pid}-${width}-${Date.now()}`;
  const script = path.join(dir, `pane-${width}.sh`);
  await Deno.writeTextFile(
    script,
    [
      "unset COLUMNS LINES",
      ...Object.entries(env).map(([k, v]) => `export ${k}=${shQuote(v)}`),
      `cd ${shQuote(cwd)}`,
      ...lines,
      'echo "done=$?"',
    ].join("\n") + "\n",
  );
  try {
    await tmux(socket, "new-session", "-d", "-x", String(width), "-y", "50", "-s", "pane", "sh");
    await tmux(socket, "send-keys", "-t", "pane", `sh ${shQuote(script)}`, "Enter");
    return await waitFor(socket, /^done=\d+/m, 120_000);
  } finally {
    await tmux(socket, "kill-server").catch(() => {});
  }
}
