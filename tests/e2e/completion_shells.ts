/**
 * What the completion tests share: a home with a `diazo` shim on PATH (it runs src/main.ts, as an
 * installed diazo would be found by the scripts of `diazo completions`), and runs of real shells.
 */
import path from "node:path";
import { cliCommand, cliEnv, type TestHome } from "./harness.ts";

/** True when `cmd --version` runs here. */
export async function has(cmd: string): Promise<boolean> {
  try {
    const out = await new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

/**
 * The start of a zsh script that asks the completion of `diazo completions zsh`: zsh's completion
 * functions stubbed to print what they are given, and `ask <words...>` printing "== <words>" then the
 * answers for the last word.
 */
export const ZSH_ASK = `compdef() { :; }
_describe() { print -rl -- "\${(@P)4}"; }
_files() { print -r -- __files__; }
eval "$(diazo completions zsh)"
ask() { words=(diazo "$@"); CURRENT=\${#words}; print -r -- "== $*"; _diazo; }
`;

/**
 * A test of a shell's completion, run on Unix (the scripts are for Unix shells there); where the shell is
 * not installed it says so and passes (.ci/run installs bash, zsh and fish).
 */
export function shellTest(shell: string, name: string, fn: () => Promise<void>): void {
  Deno.test({
    name,
    ignore: Deno.build.os === "windows",
    fn: async () => {
      if (!(await has(shell))) return console.log(`skipped: ${shell} is not installed`);
      await fn();
    },
  });
}

/**
 * Puts a `diazo` shim in `<home>/bin` and returns the CLI environment (`cliEnv` and `extra`) with it
 * first on PATH (then `morePath`), HOME in the home and the warm Deno cache.
 */
export async function shimEnv(
  home: TestHome,
  extra: Record<string, string> = {},
  morePath: readonly string[] = [],
): Promise<Record<string, string>> {
  const bin = path.join(home.dir, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  await Deno.writeTextFile(
    path.join(bin, "diazo"),
    `#!/bin/sh\nexec ${[Deno.execPath(), ...cliCommand([])].map(q).join(" ")} "$@"\n`,
    { mode: 0o755 },
  );
  return cliEnv(home, {
    ...extra,
    PATH: [bin, ...morePath, Deno.env.get("PATH") ?? "/usr/bin:/bin"].join(":"),
    HOME: home.dir,
    DENO_DIR: await denoDir(), // the warm cache, though HOME moves
  });
}

/** Runs a shell (or any program) with only `env`: its exit code and output. */
export async function runShell(cmd: string, args: string[], env: Record<string, string>, cwd: string) {
  const out = await new Deno.Command(cmd, {
    args,
    env,
    clearEnv: true,
    cwd,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** The non-empty lines of a text. */
export const lines = (s: string) => s.split("\n").filter((l) => l !== "");

/** Output of `== <question>` lines each followed by its answers, as answers by question (names only). */
export function sections(out: string, name = (l: string) => l.split("\t")[0]): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  let key = "";
  for (const l of lines(out)) {
    if (l.startsWith("== ")) result[key = l.slice(3).trimEnd()] = [];
    else result[key]?.push(name(l));
  }
  return result;
}
