import assert from "node:assert/strict";
import path from "node:path";
import { cmdQuote, ensureShim, pluginInvocation, runPlugin, shimScript } from "../../src/platform/spawn.ts";

Deno.test("pluginInvocation: executables run directly; Windows .cmd/.bat through cmd.exe with quoted arguments", () => {
  assert.deepEqual(pluginInvocation("linux", "/bin/diazo-x", ["--help", "a b"]), {
    program: "/bin/diazo-x",
    args: ["--help", "a b"],
    windowsRawArguments: false,
  });
  assert.deepEqual(
    pluginInvocation("windows", "C:\\bin\\diazo-x.exe", ["a b"]).program,
    "C:\\bin\\diazo-x.exe",
  );
  const cmd = pluginInvocation("windows", "C:\\My Tools\\diazo-x.CMD", [
    "--output",
    "json",
    'say "hi" & bye',
    "",
  ]);
  assert.equal(cmd.program, "cmd.exe");
  assert.equal(cmd.windowsRawArguments, true);
  assert.deepEqual(cmd.args, [
    "/d",
    "/s",
    "/c",
    '""C:\\My Tools\\diazo-x.CMD" --output json "say ""hi"" & bye" """',
  ]);
});

Deno.test("cmdQuote: plain words as they are; anything else quoted with inner quotes doubled", () => {
  assert.equal(cmdQuote("--output=json"), "--output=json");
  assert.equal(cmdQuote("C:\\x\\y.txt"), "C:\\x\\y.txt");
  assert.equal(cmdQuote("a|b"), '"a|b"');
  assert.equal(cmdQuote(""), '""');
});

Deno.test('shimScript: an sh script that execs deno with the run arguments and "$@"; a .cmd on Windows', () => {
  const sh = shimScript("linux", "/opt/deno", ["run", "--allow-net", "/src/it's main.ts"]);
  assert.match(sh, /^#!\/bin\/sh\n/);
  assert.match(sh, /exec '\/opt\/deno' 'run' '--allow-net' '\/src\/it'\\''s main.ts' "\$@"\n$/);
  const cmd = shimScript("windows", "C:\\deno.exe", ["run", "C:\\src\\main.ts"]);
  assert.match(cmd, /^@echo off\r\nC:\\deno.exe run C:\\src\\main.ts %\*\r\n/);
});

Deno.test({
  name:
    "runPlugin passes argv untouched, exactly the given env, and the exit code; ensureShim writes a runnable shim",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const out = path.join(dir, "out.txt");
      const plugin = path.join(dir, "diazo-probe");
      await Deno.writeTextFile(
        plugin,
        `#!/bin/sh\nprintf '%s\\n' "$@" > '${out}'\necho "X=$X HOME=\${HOME:-unset}" >> '${out}'\nexit 42\n`,
        { mode: 0o755 },
      );
      const code = await runPlugin(plugin, ["--help", "a b", "--output", "json"], { env: { X: "1" } });
      assert.equal(code, 42);
      assert.equal(await Deno.readTextFile(out), "--help\na b\n--output\njson\nX=1 HOME=unset\n");

      const shim = await ensureShim(path.join(dir, "bin"), "/bin/echo", ["run", "x y"]);
      const first = (await Deno.stat(shim)).mtime;
      assert.equal(await ensureShim(path.join(dir, "bin"), "/bin/echo", ["run", "x y"]), shim);
      assert.deepEqual((await Deno.stat(shim)).mtime, first, "an unchanged shim is not rewritten");
      const r = await new Deno.Command(shim, { args: ["--version"], stdout: "piped" }).output();
      assert.equal(new TextDecoder().decode(r.stdout), "run x y --version\n");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
