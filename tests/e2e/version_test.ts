/** e2e: `--version`, `version`, `version --json`, and the update notice at the end of a run in a terminal. */
import assert from "node:assert/strict";
import path from "node:path";
import { cliCommand, cliEnv, diazo, json, makeHome, spawnDiazo, withSandboxHome } from "./harness.ts";

Deno.test("--version: version and build date, Deno version and target, without loading the command tree", async () => {
  const home = await makeHome();
  try {
    const r = await spawnDiazo(["--version"], { env: cliEnv(home) }); // main.ts's fast path
    assert.equal(r.code, 0, r.stderr);
    const [first, deno, target] = r.stdout.trimEnd().split("\n");
    assert.match(first, /^diazo \d+\.\d+\.\d+ \((dev|\d{4}-\d{2}-\d{2})\)$/);
    assert.equal(deno, `deno ${Deno.version.deno}`);
    assert.equal(target, `target ${Deno.build.target}`);
  } finally {
    await home.cleanup();
  }
});

Deno.test("version --json and -o json: the facts a bug report needs, with this run's directories", async () => {
  const home = await makeHome();
  try {
    for (const args of [["version", "--json"], ["version", "-o", "json"]]) {
      const r = await diazo(args, { env: cliEnv(home) });
      assert.equal(r.code, 0, r.stderr);
      const v = json<Record<string, unknown>>(r);
      const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
      assert.equal(v.version, config.version);
      assert.equal(v.deno, Deno.version.deno);
      assert.equal(v.target, Deno.build.target);
      assert.equal(v.os, Deno.build.os);
      assert.equal(v.arch, Deno.build.arch);
      assert.equal(v.compiled, false);
      assert.equal(v.config_dir, home.configDir);
      assert.equal(v.state_dir, home.stateDir);
      assert.equal(typeof v.build_date, "string");
    }
    const human = await diazo(["version"], { env: cliEnv(home) });
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^diazo \d+\.\d+\.\d+/);
    assert.ok(human.stdout.includes(home.configDir));
    const q = await diazo(["version", "--json", "--query", "deno"], { env: cliEnv(home) });
    assert.equal(JSON.parse(q.stdout), Deno.version.deno);
    // A data management file's versions are `item version …`: `version` is diazo's alone.
    const help = await diazo(["version", "--help"], { env: cliEnv(home) });
    assert.doesNotMatch(help.stdout, /Commands:|\$ diazo version describe/);
    assert.match(help.stdout.replace(/\s+/g, " "), /file's versions are `item version describe\|rename`/);
    const top = await diazo(["--help"], { env: cliEnv(home) });
    assert.match(top.stdout, /\n {2}version +print diazo's version, build and directories/);
    assert.doesNotMatch(top.stdout, /describe\|rename a data management/);
  } finally {
    await home.cleanup();
  }
});

Deno.test("item version describe|rename is a file's version; the old `version describe|get|rename` warn once and still work", async () => {
  await withSandboxHome(async (h) => {
    const project = "b.91f8bd44-058f-480c-adbb-861df5101b22";
    const v2 = "urn:adsk.wipprod:fs.file:vf.w3t4bvtQzhwf41oMYi4F_A?version=2";
    const warnings = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("warning:"));
    const now = await h.run(["item", "version", "describe", project, v2, "--as", "app", "-o", "json"]);
    assert.equal(now.code, 0, now.stderr);
    assert.deepEqual(warnings(now.stderr), []);
    assert.equal(json<{ versionNumber: number }>(now).versionNumber, 2);
    for (const verb of ["describe", "get"]) {
      const old = await h.run(["version", verb, project, v2, "--as", "app", "-o", "json"]);
      assert.equal(old.code, 0, old.stderr);
      assert.deepEqual(warnings(old.stderr), [
        "warning: 'diazo version describe' is deprecated and will be removed; use 'diazo item version describe'",
      ]);
      assert.deepEqual(json(old), json(now), "the old spelling answers as the new one");
    }
    const renamed = await h.run([
      "version",
      "rename",
      project,
      v2,
      "--name",
      "Ground Floor v2.dwg",
      "--as",
      "app",
      "-o",
      "json",
    ]);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.match(warnings(renamed.stderr).join("\n"), /^warning: .*use 'diazo item version rename'$/);
    assert.equal(json<{ name: string }>(renamed).name, "Ground Floor v2.dwg");
    const mine = await h.run(["version"]);
    assert.equal(mine.code, 0, mine.stderr);
    assert.match(mine.stdout, /^diazo \d+\.\d+\.\d+/);
    assert.equal(mine.stderr, "");
  });
});

/** util-linux `script`, which runs a command in a pseudo-terminal; undefined elsewhere. */
async function utilLinuxScript(): Promise<boolean> {
  try {
    const out = await new Deno.Command("script", { args: ["--version"], stdout: "piped", stderr: "null" })
      .output();
    return out.success && new TextDecoder().decode(out.stdout).includes("util-linux");
  } catch {
    return false;
  }
}

Deno.test("update notice: shown on stderr at the end of a run in a terminal, never when turned off or piped", async () => {
  if (Deno.build.os !== "linux" || !(await utilLinuxScript())) {
    return console.log("skipped: needs util-linux `script` for a pseudo-terminal");
  }
  let hits = 0;
  const ac = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} }, () => {
    hits++;
    return Response.json({ tag_name: "v99.0.0", html_url: "https://example.test/releases/tag/v99.0.0" });
  });
  const home = await makeHome();
  try {
    const seed = async () => {
      // What an earlier run found: a newer release, checked just now (so this run asks nobody).
      await Deno.mkdir(home.stateDir, { recursive: true });
      await Deno.writeTextFile(
        path.join(home.stateDir, "update-check.json"),
        JSON.stringify({
          checked_at: new Date().toISOString(),
          latest: { version: "99.0.0", url: "https://example.test/v99" },
        }),
      );
    };
    const env = (extra: Record<string, string> = {}) =>
      cliEnv(home, {
        DIAZO_UPDATE_URL: `http://127.0.0.1:${server.addr.port}/latest`,
        TERM: "dumb",
        ...extra,
      });
    const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const inTerminal = async (extra: Record<string, string> = {}) => {
      const cmd = [Deno.execPath(), ...cliCommand(["auth", "scopes", "-o", "json"])].map(q).join(" ");
      const out = await new Deno.Command("script", {
        args: ["-qec", cmd, "/dev/null"],
        env: env(extra),
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      return { code: out.code, text: new TextDecoder().decode(out.stdout) };
    };

    await seed();
    const off = await inTerminal({ DIAZO_NO_UPDATE_NOTIFIER: "1" });
    assert.equal(off.code, 0, off.text);
    assert.doesNotMatch(off.text, /new release/);

    const ci = await inTerminal({ CI: "true" });
    assert.doesNotMatch(ci.text, /new release/);

    const shown = await inTerminal();
    assert.equal(shown.code, 0, shown.text);
    assert.match(shown.text, /A new release of diazo is available: \d+\.\d+\.\d+ → 99\.0\.0/);
    assert.ok(
      shown.text.trimEnd().endsWith("(turn this notice off with DIAZO_NO_UPDATE_NOTIFIER=1)"),
      "it comes last",
    );

    const again = await inTerminal();
    assert.doesNotMatch(again.text, /new release/, "at most once a day");

    await seed();
    const piped = await spawnDiazo(["auth", "scopes", "-o", "json"], { env: env() }); // the check is main.ts's
    assert.equal(piped.code, 0);
    assert.doesNotMatch(piped.stderr, /new release/);
    JSON.parse(piped.stdout);
    assert.equal(hits, 0, "checked recently: no request");
  } finally {
    ac.abort();
    await server.finished;
    await home.cleanup();
  }
});
