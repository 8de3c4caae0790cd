/** Running a plugin executable with the terminal handed over to it, and the `DIAZO_BIN` shim of `deno run`. */
import path from "node:path";
import { writeFileAtomic } from "./fs_write.ts";

/** How a plugin file is started on `os`: directly, or `.cmd`/`.bat` through `cmd.exe /d /s /c`. */
export function pluginInvocation(
  os: string,
  file: string,
  args: readonly string[],
): { program: string; args: string[]; windowsRawArguments: boolean } {
  if (os === "windows" && /\.(cmd|bat)$/i.test(file)) {
    const line = [file, ...args].map(cmdQuote).join(" ");
    // With /s, cmd strips the outer quotes and runs the rest as it is.
    return { program: "cmd.exe", args: ["/d", "/s", "/c", `"${line}"`], windowsRawArguments: true };
  }
  return { program: file, args: [...args], windowsRawArguments: false };
}

/**
 * Quotes one argument for a cmd.exe command line: double quotes around anything but plain words,
 * inner quotes doubled. (cmd still expands %VAR% inside quotes; that cannot be escaped.)
 */
export function cmdQuote(arg: string): string {
  if (arg !== "" && /^[\w.\\/:=+,@-]+$/.test(arg)) return arg;
  return `"${arg.replace(/"/g, '""')}"`;
}

/**
 * Runs `file` with `args`, stdin/stdout/stderr inherited and exactly `env` as its environment,
 * and returns its exit code. Ctrl-C goes to the plugin (it shares the terminal); this process
 * waits for it instead of exiting first.
 */
export async function runPlugin(
  file: string,
  args: readonly string[],
  opts: { env: Record<string, string>; cwd?: string; os?: string },
): Promise<number> {
  const inv = pluginInvocation(opts.os ?? Deno.build.os, file, args);
  const ignore = () => {};
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", ignore);
    listening = true;
  } catch { /* not supported here */ }
  try {
    const status = await new Deno.Command(inv.program, {
      args: inv.args,
      windowsRawArguments: inv.windowsRawArguments,
      env: opts.env,
      clearEnv: true,
      cwd: opts.cwd,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    return status.code;
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", ignore);
  }
}

/** The text of a script that re-runs diazo from source with the given deno and arguments. */
export function shimScript(os: string, deno: string, runArgs: readonly string[]): string {
  if (os === "windows") {
    return `@echo off\r\n${[deno, ...runArgs].map(cmdQuote).join(" ")} %*\r\nexit /b %ERRORLEVEL%\r\n`;
  }
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return `#!/bin/sh\n# Re-runs diazo from source (written by diazo for plugins: DIAZO_BIN).\nexec ${
    [deno, ...runArgs].map(q).join(" ")
  } "$@"\n`;
}

/**
 * Writes (when missing or different) an executable shim `dir/diazo` (`diazo.cmd` on Windows) that
 * runs `deno runArgs... "$@"`, and returns its path.
 */
export async function ensureShim(
  dir: string,
  deno: string,
  runArgs: readonly string[],
  os: string = Deno.build.os,
): Promise<string> {
  const file = path.join(dir, os === "windows" ? "diazo.cmd" : "diazo");
  const text = shimScript(os, deno, runArgs);
  const current = await Deno.readTextFile(file).catch(() => undefined);
  if (current !== text) await writeFileAtomic(file, text, 0o755);
  return file;
}
