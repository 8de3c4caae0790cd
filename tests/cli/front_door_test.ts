/**
 * The front door (cli/argv.ts): argv read once, the output format and the profile (with where it was
 * chosen) resolved once per run, and read from there by `config profile current`, error rendering
 * and `--help`'s family groups. In process, through runCli, against a temp config dir.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { runCli } from "../../src/front/root.ts";
import { readGlobals, resolveRunGlobals } from "../../src/front/argv.ts";
import { emptyConfig } from "../../src/config/config.ts";
import type { Io } from "../../src/command/io.ts";

/** Captured streams; `terminal` says whether stdout is a terminal. */
function fakeIo(terminal = false): Io & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (t) => void (out += t), isTerminal: terminal },
    stderr: { write: (t) => void (err += t), isTerminal: false },
    stdin: { isTerminal: false, readText: () => Promise.resolve(""), readLine: () => Promise.resolve(null) },
    out: () => out,
    err: () => err,
  };
}

/** A temp home (config and state dirs) and working directory, removed after `fn`. */
async function withHome(fn: (env: Record<string, string>, cwd: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "diazo-front-" });
  const cwd = path.join(root, "work");
  await Deno.mkdir(cwd);
  const env = {
    HOME: root,
    PATH: Deno.env.get("PATH") ?? "",
    DIAZO_CONFIG_DIR: path.join(root, "config"),
    XDG_STATE_HOME: path.join(root, "state"),
    DIAZO_NO_HOOKS: "1",
  };
  try {
    await fn(env, cwd);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function run(args: string[], env: Record<string, string>, cwd: string, terminal = false) {
  const io = fakeIo(terminal);
  const code = await runCli(args, io, env, cwd);
  return { code, out: io.out(), err: io.err() };
}

Deno.test("config profile current names .env as the source of a profile chosen in .env", async () => {
  await withHome(async (env, cwd) => {
    assert.equal((await run(["config", "profile", "create", "main", "--client-id", "a"], env, cwd)).code, 0);
    assert.equal((await run(["config", "profile", "create", "work", "--client-id", "b"], env, cwd)).code, 0);
    await Deno.writeTextFile(path.join(cwd, ".env"), "DIAZO_PROFILE=work\n");
    const r = await run(["config", "profile", "current", "-o", "json"], env, cwd);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { name: "work", exists: true, source: ".env" });
  });
});

Deno.test("config profile current: flag > env > .env > config > default", async () => {
  await withHome(async (env, cwd) => {
    const current = async (args: string[], extra: Record<string, string> = {}) =>
      JSON.parse(
        (await run([...args, "config", "profile", "current", "-o", "json"], { ...env, ...extra }, cwd)).out,
      );
    assert.deepEqual(await current([]), { name: "default", exists: false, source: "default" });
    await run(["config", "profile", "create", "main", "--client-id", "a"], env, cwd);
    assert.equal((await current([])).source, "default", "creating a profile does not make it active");
    await run(["config", "profile", "create", "main", "--client-id", "a", "--force", "--use"], env, cwd);
    assert.equal((await current([])).source, "config");
    await Deno.writeTextFile(path.join(cwd, ".env"), "DIAZO_PROFILE=dot\n");
    assert.deepEqual(await current([]), { name: "dot", exists: false, source: ".env" });
    assert.deepEqual(await current([], { DIAZO_PROFILE: "envp" }), {
      name: "envp",
      exists: false,
      source: "env",
    });
    assert.deepEqual(await current(["--profile", "main"], { DIAZO_PROFILE: "envp" }), {
      name: "main",
      exists: true,
      source: "flag",
    });
  });
});

Deno.test("with `config set output json`, a failing command's error is a JSON object on stderr and stdout is empty", async () => {
  await withHome(async (env, cwd) => {
    assert.equal((await run(["config", "set", "output", "json"], env, cwd)).code, 0);
    // On a terminal, too: the setting wins over the terminal's table.
    const r = await run(["config", "profile", "use", "missing"], env, cwd, true);
    assert.equal(r.code, 4);
    assert.equal(r.out, "");
    const lines = r.err.trim().split("\n");
    assert.match(lines[0], /^error: .*profile 'missing'/);
    assert.match(lines[1], /^hint: /);
    const obj = JSON.parse(lines[2]);
    assert.equal(obj.error.code, "profile_not_found");
    assert.equal(obj.error.status, null);
    // An explicit format wins over the setting: no JSON object then.
    const t = await run(["-o", "table", "config", "profile", "use", "missing"], env, cwd, true);
    assert.equal(t.err.trim().split("\n").length, 2);
  });
});

Deno.test("diazo --help groups the families under core, data, automation, extend and local headings", async () => {
  await withHome(async (env, cwd) => {
    const r = await run(["--help"], env, cwd);
    assert.equal(r.code, 0);
    const section = (heading: string) => {
      const start = r.out.indexOf(`${heading}\n`);
      assert.ok(start >= 0, `no heading ${heading} in:\n${r.out}`);
      const body = r.out.slice(start + heading.length + 1).split("\n\n")[0];
      return [...body.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);
    };
    assert.deepEqual(section("Core commands:"), [
      "auth",
      "bucket",
      "oss",
      "object|objects",
      "translate",
      "view",
      "api",
    ]);
    assert.deepEqual(section("Data commands:"), [
      "hub",
      "project",
      "folder",
      "item",
      "dm",
      "admin",
      "acc",
      "issue",
      "rfi",
    ]);
    assert.deepEqual(section("Automation commands:"), [
      "da",
      "webhook",
      "reality-capture",
      "pipeline|pipelines",
      "serve",
    ]);
    assert.deepEqual(section("Extension commands:"), ["plugin", "alias"]);
    assert.deepEqual(section("Local commands:"), [
      "config",
      "logs",
      "sandbox",
      "demo",
      "generate",
      "completions",
      "version",
    ]);
    assert.ok(r.out.indexOf("Core commands:") < r.out.indexOf("Local commands:"));
  });
});

Deno.test("readGlobals reads every spelling of the global flags, up to --", () => {
  assert.deepEqual(readGlobals(["-ojson", "--profile=w", "bucket", "list", "--debug", "--no-color"]), {
    output: "json",
    profile: "w",
    debug: true,
    noColor: true,
  });
  assert.deepEqual(readGlobals(["--query", "--profile", "--output", "yaml", "--", "--debug"]), {
    output: "yaml",
    debug: false,
    noColor: false,
  });
});

Deno.test("resolveRunGlobals: format flag > DIAZO_OUTPUT > setting > terminal, and a bad one is kept for later", () => {
  const config = { ...emptyConfig(), settings: { output: "yaml" } };
  const files = { config, dotenv: {} };
  const at = (args: string[], env: Record<string, string> = {}, terminal = true) =>
    resolveRunGlobals(args, { env, files, stdoutIsTerminal: terminal });
  assert.deepEqual([at([]).output, at([]).outputSource], ["yaml", "config"]);
  assert.deepEqual([at([], { DIAZO_OUTPUT: "csv" }).output, at([], { DIAZO_OUTPUT: "csv" }).outputSource], [
    "csv",
    "env",
  ]);
  assert.equal(at(["-o", "json"], { DIAZO_OUTPUT: "csv" }).outputSource, "flag");
  const none = resolveRunGlobals([], {
    env: {},
    files: { config: emptyConfig(), dotenv: {} },
    stdoutIsTerminal: false,
  });
  assert.deepEqual([none.output, none.outputSource], ["json", "terminal"]);
  const bad = at([], { DIAZO_OUTPUT: "xml" });
  assert.ok(bad.outputError instanceof Error);
  // A plugin's own arguments (after its name) are not diazo's flags.
  const plugin = at(["--profile", "p", "hello", "--profile", "q", "-o", "csv"], {}, true);
  assert.equal(plugin.profile, "q");
  const bounded = resolveRunGlobals(["--profile", "p", "hello", "--profile", "q"], {
    env: {},
    files,
    stdoutIsTerminal: true,
    flagsEnd: 2,
  });
  assert.deepEqual([bounded.profile, bounded.profileSource, bounded.output], ["p", "flag", "yaml"]);
});

Deno.test({
  name: "a plugin's environment carries the run's profile and output format, whatever chose them",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withHome(async (env, cwd) => {
      const bin = path.join(cwd, "bin");
      const seen = path.join(cwd, "seen.txt");
      await Deno.mkdir(bin);
      await Deno.writeTextFile(
        path.join(bin, "diazo-envdump"),
        `#!/bin/sh\nprintf '%s %s %s\\n' "$DIAZO_PROFILE" "$DIAZO_OUTPUT" "$*" > "${seen}"\n`,
        { mode: 0o755 },
      );
      const penv = { ...env, PATH: `${bin}:${env.PATH}` };
      await run(["config", "set", "output", "yaml"], penv, cwd);
      await Deno.writeTextFile(path.join(cwd, ".env"), "DIAZO_PROFILE=work\n");
      assert.equal((await run(["envdump", "--profile", "x", "-o", "csv"], penv, cwd)).code, 0);
      assert.equal(await Deno.readTextFile(seen), "work yaml --profile x -o csv\n");
      assert.equal((await run(["-o", "csv", "--profile", "p", "envdump"], penv, cwd)).code, 0);
      assert.equal(await Deno.readTextFile(seen), "p csv \n");
    });
  },
});
