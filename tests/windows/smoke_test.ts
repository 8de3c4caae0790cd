/**
 * The end-to-end smoke of diazo's Windows-only paths, run by the Windows build of Deno (under Wine:
 * scripts/windows-under-wine.sh) against a sandbox at DIAZO_WINDOWS_SANDBOX, which that script runs
 * with the Linux Deno (`diazo sandbox --auto-approve`). Elsewhere, or without the variable, every test
 * is reported as ignored. Ctrl-C (exit 130) is checked by the script itself: a console Ctrl-C is sent
 * from outside the process.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import { keychainTokenStore } from "../../src/auth/token_keychain.ts";
import { keychainFor } from "../../src/platform/keychain.ts";
import { diazo, json, makeHome, sandboxEnv, spawnDiazo, type TestHome } from "../e2e/harness.ts";

const SANDBOX = Deno.env.get("DIAZO_WINDOWS_SANDBOX") ?? "";
const windows = { ignore: Deno.build.os !== "windows" || SANDBOX === "", sanitizeResources: false };
const run = crypto.randomUUID().slice(0, 8);
const bucketOf = (what: string) => `win-${what}-${run}`;
const text = async (home: TestHome, name: string) =>
  (await Deno.readTextFile(path.join(home.cwd, name))).trim();
const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");

/** Removes a test home; a process that was just killed may hold its folder for a moment on Windows. */
async function removeHome(home: TestHome): Promise<void> {
  for (let i = 0;; i++) {
    try {
      return await home.cleanup();
    } catch (e) {
      if (i >= 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A test home whose working directory has a space in its name, and the sandbox's environment. */
async function winHome(
  extra: Record<string, string> = {},
): Promise<{ home: TestHome; env: Record<string, string> }> {
  const home = await makeHome();
  home.cwd = path.join(home.dir, "work dir");
  await Deno.mkdir(home.cwd, { recursive: true });
  const env = sandboxEnv(home, SANDBOX, {
    SYSTEMROOT: Deno.env.get("SYSTEMROOT") ?? "C:\\windows",
    ...extra,
  });
  return { home, env };
}

async function ok(args: string[], opts: { env: Record<string, string>; cwd: string }) {
  const r = await diazo(args, opts);
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  return r;
}

Deno.test({
  ...windows,
  name:
    "Windows paths: upload and download with C:\\ paths holding backslashes and spaces, multipart, SHA-1 equal",
  async fn() {
    const { home, env } = await winHome();
    try {
      assert.match(home.cwd, /^[A-Za-z]:\\.*\\work dir$/, "a Windows path");
      const bucket = bucketOf("paths");
      await ok(["bucket", "create", "--key", bucket], { env, cwd: home.cwd });
      const src = path.join(home.cwd, "in folder", "model one.obj");
      await Deno.mkdir(path.dirname(src));
      const bytes = crypto.getRandomValues(new Uint8Array(65_536)).map((b) => b);
      const big = new Uint8Array(11 * 1024 * 1024);
      for (let i = 0; i < big.length; i += bytes.length) big.set(bytes.subarray(0, big.length - i), i);
      await Deno.writeFile(src, big);
      const up = json<{ objectKey: string; sha1?: string; size: number }>(
        await ok(["object", "upload", bucket, src, "--part-size", "5", "-o", "json"], { env, cwd: home.cwd }),
      );
      assert.equal(up.objectKey, "model one.obj");
      assert.equal(up.size, big.length);
      const out = path.join(home.cwd, "out dir") + "\\";
      await ok(["object", "download", bucket, "model one.obj", "--out", out], { env, cwd: home.cwd });
      const back = await Deno.readFile(path.join(home.cwd, "out dir", "model one.obj"));
      assert.equal(sha1(back), sha1(big));
    } finally {
      await removeHome(home);
    }
  },
});

Deno.test({
  ...windows,
  name:
    "Windows paths: a batch of nested keys lands in folders under --out; ..\\ and drive-letter keys are refused",
  async fn() {
    const { home, env } = await winHome();
    try {
      const bucket = bucketOf("batch");
      await ok(["bucket", "create", "--key", bucket], { env, cwd: home.cwd });
      const file = path.join(home.cwd, "small.txt");
      await Deno.writeTextFile(file, "small\r\n");
      const keys = ["a/b/one.txt", "a/two.txt", "three.txt", "..\\evil.txt", "C:\\evil.txt"];
      for (const key of keys) {
        await ok(["object", "upload", bucket, file, "--key", key], { env, cwd: home.cwd });
      }
      await ok(["object", "download", bucket, ...keys.slice(0, 3), "--out", "got\\"], { env, cwd: home.cwd });
      for (const key of keys.slice(0, 3)) {
        assert.equal(
          await Deno.readTextFile(path.join(home.cwd, "got", ...key.split("/"))),
          "small\r\n",
          key,
        );
      }
      for (const key of keys.slice(3)) {
        const r = await diazo(["object", "download", bucket, key], { env, cwd: home.cwd });
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /^error: refusing to write '.*evil\.txt' outside .*\nhint: .*--out <file>/);
      }
      assert.deepEqual(
        [...Deno.readDirSync(home.cwd)].map((e) => e.name).sort(),
        ["got", "small.txt"],
        "nothing written",
      );
    } finally {
      await removeHome(home);
    }
  },
});

Deno.test({
  ...windows,
  name:
    "Windows-invalid keys (q?.txt, a<b>.txt, CON): a usage error naming the key and --out; --out <file> saves",
  async fn() {
    const { home, env } = await winHome();
    try {
      const bucket = bucketOf("names");
      await ok(["bucket", "create", "--key", bucket], { env, cwd: home.cwd });
      const file = path.join(home.cwd, "x.txt");
      await Deno.writeTextFile(file, "x");
      for (const key of ["q?.txt", "a<b>.txt", "CON"]) {
        await ok(["object", "upload", bucket, file, "--key", key], { env, cwd: home.cwd });
        const r = await diazo(["object", "download", bucket, key], { env, cwd: home.cwd });
        assert.equal(r.code, 2, r.stderr);
        assert.doesNotMatch(r.stderr, /unexpected error|os error/);
        const lines = r.stderr.trimEnd().split("\n");
        assert.equal(lines.length, 2, r.stderr);
        assert.ok(lines[0].startsWith(`error: '${key}' cannot be a file name on Windows: `), lines[0]);
        assert.match(lines[1], /^hint: .*--out <file>/);
      }
      await ok(["object", "download", bucket, "q?.txt", "--out", "q.txt"], { env, cwd: home.cwd });
      assert.equal(await Deno.readTextFile(path.join(home.cwd, "q.txt")), "x");
    } finally {
      await removeHome(home);
    }
  },
});

Deno.test({
  ...windows,
  name: "Credential Manager: a device login is stored there, auth status reads it back, logout removes it",
  async fn() {
    const { home, env } = await winHome({ DIAZO_TOKEN_STORE: "keychain", DIAZO_NO_BROWSER: "1" });
    try {
      const login = await diazo(["auth", "login", "--device", "--scopes", "data:read", "-o", "json"], {
        env,
        cwd: home.cwd,
      });
      assert.equal(login.code, 0, login.stderr);
      assert.equal(JSON.parse(login.stdout).mode, "3-legged");
      const status = JSON.parse(
        (await diazo(["auth", "status", "-o", "json"], { env, cwd: home.cwd })).stdout,
      );
      assert.equal(status.token_store.kind, "keychain");
      assert.equal(status.token_store.location, "windows-credential-manager");
      assert.ok(
        status.tokens.some((t: { mode: string }) => t.mode === "3-legged"),
        JSON.stringify(status.tokens),
      );
      // Read back through the Credential Manager itself, not through diazo's answer.
      const stored = await keychainTokenStore(keychainFor("windows")!).list(status.profile);
      const tokens = Object.values(stored);
      assert.ok(tokens.some((t) => t.mode === "3-legged" && t.access_token.split(".").length === 3));
      const out = await diazo(["auth", "logout"], { env, cwd: home.cwd });
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(await keychainTokenStore(keychainFor("windows")!).list(status.profile), {});
    } finally {
      await removeHome(home);
    }
  },
});

Deno.test({
  ...windows,
  name: "hooks through cmd /d /s /c: DIAZO_* of object upload --key, and a hung hook stopped by taskkill /T",
  async fn() {
    const { home, env } = await winHome({ DIAZO_HOOK_TIMEOUT: "2" });
    try {
      const bucket = bucketOf("hooks");
      await ok(["bucket", "create", "--key", bucket], { env, cwd: home.cwd });
      await Deno.mkdir(home.configDir, { recursive: true });
      await Deno.writeTextFile(
        path.join(home.configDir, "plugins.json"),
        JSON.stringify({
          hooks: {
            pre_upload: ["echo %DIAZO_HOOK_NAME% %DIAZO_OBJECT_KEY% %DIAZO_BUCKET%> hook.txt"],
            pre_object_upload: ["ping -n 30 127.0.0.1 >NUL"],
          },
        }),
      );
      await Deno.writeTextFile(path.join(home.cwd, "m.txt"), "m");
      const started = performance.now();
      const r = await diazo(["object", "upload", bucket, "m.txt", "--key", "by key/m.txt"], {
        env,
        cwd: home.cwd,
      });
      const seconds = (performance.now() - started) / 1000;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        (await Deno.readTextFile(path.join(home.cwd, "hook.txt"))).trim(),
        `pre_upload by key/m.txt ${bucket}`,
      );
      assert.match(
        r.stderr,
        /warning: hook pre_object_upload: `ping -n 30 127\.0\.0\.1 >NUL` timed out after 2 s and was stopped with every process it started \(taskkill \/T\)/,
      );
      assert.doesNotMatch(r.stderr, /process group/);
      assert.ok(seconds < 25, `the 30 s hook was stopped (${seconds.toFixed(1)} s)`);
    } finally {
      await removeHome(home);
    }
  },
});

Deno.test({
  ...windows,
  name: "plugins through PATH + PATHEXT: .exe before .cmd, arguments and exit codes, any case, DIAZO_BIN",
  async fn() {
    const bin = await Deno.makeTempDir({ prefix: "diazo-win-bin-" });
    const { home, env } = await winHome();
    env.PATH = `${bin};${env.PATH ?? ""}`;
    env.PATHEXT = ".COM;.EXE;.BAT;.CMD";
    try {
      // cmd.exe under another name is an .exe plugin that runs what it is given.
      const systemRoot = Deno.env.get("SYSTEMROOT") ?? "C:\\windows";
      await Deno.copyFile(path.join(systemRoot, "system32", "cmd.exe"), path.join(bin, "diazo-both.exe"));
      await Deno.writeTextFile(
        path.join(bin, "diazo-both.cmd"),
        "@echo off\r\necho the cmd one\r\nexit /b 3\r\n",
      );
      // A plugin shares this process's standard streams: it writes what it saw to files instead.
      const exe = await diazo(["both", "/d", "/c", "echo from the exe> exe.txt& exit 7"], {
        env,
        cwd: home.cwd,
      });
      assert.equal(exe.code, 7, exe.stderr);
      assert.equal(await text(home, "exe.txt"), "from the exe", ".exe comes before .cmd in PATHEXT");

      await Deno.writeTextFile(
        path.join(bin, "DIAZO-Greet.CMD"),
        '@echo off\r\necho [%~1] [%~2]> args.txt\r\ncall "%DIAZO_BIN%" --version > bin.txt\r\nexit /b 5\r\n',
      );
      // In a process of its own: DIAZO_BIN re-runs the program that dispatched the plugin.
      const cmd = await spawnDiazo(["greet", "two words", "x"], { env, cwd: home.cwd });
      assert.equal(cmd.code, 5, cmd.stderr);
      assert.equal(await text(home, "args.txt"), "[two words] [x]", "arguments intact");
      assert.match(await text(home, "bin.txt"), /^diazo \d+\.\d+\.\d+/, "DIAZO_BIN runs diazo again");
      const list = json<{ name: string; path: string }[]>(
        await diazo(["plugin", "list", "-o", "json"], { env, cwd: home.cwd }),
      );
      assert.deepEqual(
        list.filter((p) => ["both", "greet"].includes(p.name.toLowerCase())).map((p) =>
          path.basename(p.path!)
        ).sort(),
        ["DIAZO-Greet.CMD", "diazo-both.exe"],
      );
    } finally {
      await removeHome(home);
      await Deno.remove(bin, { recursive: true });
    }
  },
});

Deno.test({
  ...windows,
  name: "%APPDATA%\\diazo holds the configuration and %LOCALAPPDATA%\\diazo the state",
  async fn() {
    const { home, env } = await winHome();
    try {
      delete env.DIAZO_CONFIG_DIR;
      delete env.DIAZO_STATE_DIR;
      env.APPDATA = path.join(home.dir, "Roaming");
      env.LOCALAPPDATA = path.join(home.dir, "Local");
      env.USERPROFILE = home.dir;
      await ok(["config", "set", "output", "json"], { env, cwd: home.cwd });
      const cfg = JSON.parse(await Deno.readTextFile(path.join(env.APPDATA, "diazo", "config.json")));
      assert.equal(cfg.settings.output, "json");
      const paths = json<Record<string, unknown>>(
        await ok(["config", "list", "-o", "json"], { env, cwd: home.cwd }),
      );
      assert.ok(JSON.stringify(paths).includes("json"));
      await ok(["bucket", "list"], { env, cwd: home.cwd });
      const state = [...Deno.readDirSync(path.join(env.LOCALAPPDATA, "diazo"))].map((e) => e.name);
      assert.ok(state.length > 0, "the run left its state under %LOCALAPPDATA%\\diazo");
    } finally {
      await removeHome(home);
    }
  },
});
