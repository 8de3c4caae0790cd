/** e2e: `diazo <name>` runs diazo-<name> from PATH or plugins.json; `plugin list|enable|disable|create`. */
import assert from "node:assert/strict";
import path from "node:path";
import { json, spawnDiazo } from "./harness.ts";
import { assertOneError, extHome, PROBE_PLUGIN, readEnvDump, sandboxProfile } from "./ext_helpers.ts";

const SECRET = "plugin-e2e-secret-4f1c";

/** These plugins are `#!/bin/sh` scripts without an extension: no plugin on Windows, where
 * tests/windows/smoke_test.ts checks `.exe` and `.cmd` plugins through PATHEXT instead. */
const POSIX_PLUGINS = { ignore: Deno.build.os === "windows" };

Deno.test(
  "plugin dispatch: arguments untouched, DIAZO_* environment, exit code passed through, no secrets",
  POSIX_PLUGINS,
  async () => {
    const x = await extHome();
    try {
      await x.script("diazo-probe", PROBE_PLUGIN);
      await Deno.writeTextFile(
        path.join(x.home.configDir, "config.json"),
        JSON.stringify({
          active_profile: "main",
          profiles: {
            main: { client_id: "cid", client_secret: SECRET },
            work: { client_id: "cid2", client_secret: SECRET, base_url: "http://127.0.0.1:9/work" },
          },
          settings: {},
        }),
      );
      const r = await spawnDiazo(
        [
          "--profile",
          "work",
          "-o",
          "json",
          "probe",
          "--help",
          "--output",
          "json",
          "a b",
          "-o",
          "x",
          "--profile",
        ],
        { env: x.env({ PROBE_EXIT: "42", PROBE_RUN_BIN: "1" }), cwd: x.home.cwd },
      );
      assert.equal(r.code, 42, r.stderr);
      assert.equal(r.stdout, "<--help>\n<--output>\n<json>\n<a b>\n<-o>\n<x>\n<--profile>\n");
      const env = await readEnvDump(x.file("env.txt"));
      assert.equal(env.DIAZO_PROFILE, "work");
      assert.equal(env.DIAZO_OUTPUT, "json");
      assert.equal(env.DIAZO_BASE_URL, "http://127.0.0.1:9/work", "resolved from the profile");
      assert.ok(env.DIAZO_BIN, "DIAZO_BIN is set");
      assert.match(await Deno.readTextFile(x.file("bin.txt")), /^diazo \S+/, "DIAZO_BIN runs diazo");
      const all = r.stdout + r.stderr + (await Deno.readTextFile(x.file("env.txt")));
      assert.ok(!all.includes(SECRET), "the profile's client secret reaches neither argv nor env");

      // Without global flags: the active profile, the inherited output preference, the default base URL.
      const plain = await spawnDiazo(["probe"], { env: x.env({ DIAZO_OUTPUT: "yaml" }), cwd: x.home.cwd });
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(plain.stdout, "");
      const env2 = await readEnvDump(x.file("env.txt"));
      assert.equal(env2.DIAZO_PROFILE, "main");
      assert.equal(env2.DIAZO_OUTPUT, "yaml");
      assert.equal(env2.DIAZO_BASE_URL, "https://developer.api.autodesk.com");
    } finally {
      await x.close();
    }
  },
);

Deno.test(
  "a disabled plugin is an unknown command with a hint; plugin enable/disable keep the rest of the file",
  POSIX_PLUGINS,
  async () => {
    const x = await extHome();
    try {
      await x.script("diazo-probe", PROBE_PLUGIN);
      const original = {
        plugins: { probe: { enabled: false, description: "probes" }, other: { path: "/opt/other" } },
        hooks: { pre_demo: ["echo demo"] },
        aliases: { p: "probe --from-alias" },
        $note: "kept as it is",
      };
      await x.pluginsJson(original);
      const env = x.env();
      assertOneError(
        await spawnDiazo(["probe", "x"], { env, cwd: x.home.cwd }),
        2,
        /^error: unknown command 'probe'$/,
        /diazo-probe\) is disabled: enable it with `diazo plugin enable probe`/,
      );
      assertOneError(
        await spawnDiazo(["p"], { env, cwd: x.home.cwd }),
        2,
        /unknown command 'probe'/,
        /disabled/,
      );

      const en = await spawnDiazo(["plugin", "enable", "probe", "-o", "json"], { env });
      assert.equal(en.code, 0, en.stderr);
      assert.deepEqual(json(en), { name: "probe", enabled: true });
      assert.deepEqual(await x.readPluginsJson(), {
        ...original,
        plugins: { ...original.plugins, probe: { enabled: true, description: "probes" } },
      });
      const ran = await spawnDiazo(["p", "y"], { env, cwd: x.home.cwd });
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stdout, "<--from-alias>\n<y>\n");

      assert.equal((await spawnDiazo(["plugin", "disable", "probe"], { env })).code, 0);
      assert.deepEqual(await x.readPluginsJson(), original);
    } finally {
      await x.close();
    }
  },
);

Deno.test(
  "plugins.json may give an explicit path (relative to the config dir); a missing one is an error",
  POSIX_PLUGINS,
  async () => {
    const x = await extHome();
    try {
      const tools = path.join(x.home.configDir, "tools");
      await Deno.mkdir(tools);
      await x.script("special.sh", '#!/bin/sh\necho "special: $*"\nexit 3\n', { dir: tools });
      await x.pluginsJson({
        plugins: { special: { path: "tools/special.sh" }, ghost: { path: "/nonexistent/diazo-ghost" } },
      });
      const r = await spawnDiazo(["special", "--flag", "v"], { env: x.env(), cwd: x.home.cwd });
      assert.equal(r.code, 3, r.stderr);
      assert.equal(r.stdout, "special: --flag v\n");
      assertOneError(
        await spawnDiazo(["ghost"], { env: x.env() }),
        2,
        /Plugin 'ghost': configured path not found: \/nonexistent\/diazo-ghost/,
        /plugins\.ghost\.path/,
      );
    } finally {
      await x.close();
    }
  },
);

Deno.test(
  "plugin list: discovered and configured plugins; warns about shadowed, not executable, built-in clash, missing path",
  POSIX_PLUGINS,
  async () => {
    const x = await extHome();
    try {
      const marker = x.file("bucket-plugin-ran");
      await x.script("diazo-dup", "#!/bin/sh\necho first\n");
      await x.script("diazo-dup", "#!/bin/sh\necho second\n", { dir: x.bin2 });
      await x.script("diazo-noexec", "#!/bin/sh\n", { mode: 0o644 });
      await x.script("diazo-bucket", `#!/bin/sh\ntouch '${marker}'\n`, { dir: x.bin2 });
      await x.pluginsJson({
        plugins: { dup: { description: "first on PATH wins" }, gone: { path: "/nonexistent/gone" } },
      });
      const r = await spawnDiazo(["plugin", "list", "-o", "json"], { env: x.env() });
      assert.equal(r.code, 0, r.stderr);
      const rows = json<
        { name: string; path: string | null; enabled: boolean; description: string; source: string }[]
      >(r);
      assert.deepEqual(rows.find((p) => p.name === "dup"), {
        name: "dup",
        path: path.join(x.bin, "diazo-dup"),
        enabled: true,
        description: "first on PATH wins",
        source: "PATH",
      });
      assert.deepEqual(rows.find((p) => p.name === "gone"), {
        name: "gone",
        path: "/nonexistent/gone",
        enabled: true,
        description: "",
        source: "config",
      });
      assert.ok(!rows.some((p) => p.name === "noexec"), "a file that cannot run is not listed as a plugin");
      const warnings = r.stderr.trimEnd().split("\n");
      for (
        const w of [
          `warning: ${path.join(x.bin2, "diazo-dup")} is shadowed by ${path.join(x.bin, "diazo-dup")}`,
          `warning: ${path.join(x.bin, "diazo-noexec")} is named like a diazo plugin but is not executable`,
          `warning: plugin 'bucket' (${
            path.join(x.bin2, "diazo-bucket")
          }) is hidden by the built-in command 'diazo bucket'`,
          "warning: plugin 'gone': configured path /nonexistent/gone does not exist or is not executable",
        ]
      ) assert.ok(warnings.some((l) => l.startsWith(w)), `missing ${w} in\n${r.stderr}`);

      const table = await spawnDiazo(["plugin", "list", "-o", "table"], { env: x.env() });
      assert.match(table.stdout, /dup\s.*diazo-dup.*first on PATH wins/);

      // Built-in commands win: diazo-bucket never runs.
      const help = await spawnDiazo(["bucket", "--help"], { env: x.env() });
      assert.equal(help.code, 0);
      assert.match(help.stdout, /create/);
      assert.equal(await Deno.stat(marker).then(() => true, () => false), false);
      assert.equal((await spawnDiazo(["dup"], { env: x.env() })).stdout, "first\n");
    } finally {
      await x.close();
    }
  },
);

Deno.test(
  "plugin create scaffolds a plugin that follows the conventions (--help, --output json, error:/hint:, exit codes)",
  POSIX_PLUGINS,
  async () => {
    const x = await extHome();
    try {
      const env = x.env();
      const r = await spawnDiazo(["plugin", "create", "hello", "--dir", x.bin, "-o", "json"], { env });
      assert.equal(r.code, 0, r.stderr);
      const made = json<{ files: string[]; onPath: boolean }>(r);
      assert.deepEqual(made.files, [path.join(x.bin, "diazo-hello")]);
      assert.equal(made.onPath, true);
      assert.ok(((await Deno.stat(made.files[0])).mode! & 0o111) !== 0, "executable");

      const out = await spawnDiazo(["hello", "--output", "json", "Ann"], { env });
      assert.equal(out.code, 0, out.stderr);
      assert.equal(json<{ plugin: string; greeting: string }>(out).greeting, "hello, Ann");
      const viaGlobal = await spawnDiazo(["-o", "json", "hello"], { env });
      assert.deepEqual(json(viaGlobal), { plugin: "hello", greeting: "hello, world", profile: "default" });
      const table = await spawnDiazo(["-o", "table", "hello"], { env });
      assert.equal(table.stdout, "hello, world\n");
      const help = await spawnDiazo(["hello", "--help"], { env });
      assert.equal(help.code, 0);
      assert.match(help.stdout, /^usage: diazo hello/);
      assertOneError(
        await spawnDiazo(["hello", "--bogus"], { env }),
        2,
        /unknown option '--bogus'/,
        /diazo hello --help/,
      );
      assertOneError(await spawnDiazo(["hello", "-o", "xml"], { env }), 2, /unsupported output format 'xml'/);

      const again = await spawnDiazo(["plugin", "create", "hello", "--dir", x.bin], { env });
      assert.equal(again.code, 6, "an existing plugin is never overwritten");
      assert.match(again.stderr, /already exists/);
      assertOneError(
        await spawnDiazo(["plugin", "create", "bucket", "--dir", x.bin], { env }),
        2,
        /'bucket' is a built-in/,
      );
      assertOneError(
        await spawnDiazo(["plugin", "create", "../x", "--dir", x.bin], { env }),
        2,
        /invalid plugin name/,
      );
    } finally {
      await x.close();
    }
  },
);

Deno.test("malformed plugins.json: one error naming file:line:column where it is needed; other commands run with one warning", async () => {
  const x = await extHome();
  const sb = await sandboxProfile(x);
  try {
    const file = await x.pluginsJson('{\n  "aliases": {\n    "lsb" "bucket list"\n  }\n}\n');
    const env = x.env();
    const where = new RegExp(
      `Invalid plugins file ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:11: not valid JSON`,
    );
    assertOneError(await spawnDiazo(["plugin", "list"], { env }), 2, where, /Fix it by hand/);
    assertOneError(await spawnDiazo(["alias", "list"], { env }), 2, where);
    assertOneError(await spawnDiazo(["lsb"], { env }), 2, where);
    assertOneError(await spawnDiazo(["plugin", "enable", "x"], { env }), 2, where);

    for (const args of [["config", "get", "output", "-o", "json"], ["bucket", "list", "-o", "json"]]) {
      const r = await spawnDiazo(args, { env });
      assert.equal(r.code, 0, r.stderr);
      json(r);
      const lines = r.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, `one warning, got:\n${r.stderr}`);
      assert.match(lines[0], /^warning: hooks skipped: Invalid plugins file .*:3:11/);
    }
    const version = await spawnDiazo(["--version"], { env });
    assert.equal(version.code, 0);
    assert.equal(version.stderr, "");

    await x.pluginsJson({ hooks: { pre_config_get: "echo should-not-run" } });
    assertOneError(
      await spawnDiazo(["plugin", "list"], { env }),
      2,
      /hook pre_config_get must be an array of shell command strings/,
    );
    const r = await spawnDiazo(["config", "get", "output"], { env });
    assert.equal(r.code, 0);
    assert.match(r.stderr, /^warning: hooks skipped: .*hook pre_config_get must be an array/);
    assert.doesNotMatch(r.stderr + r.stdout, /should-not-run/);
  } finally {
    await sb.close();
    await x.close();
  }
});
