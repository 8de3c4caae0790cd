import assert from "node:assert/strict";
import { runShell, shellInvocation } from "../../src/platform/shell.ts";

Deno.test("shellInvocation: sh -c on POSIX, cmd /d /s /c with raw arguments on Windows", () => {
  assert.deepEqual(shellInvocation("linux", "echo hi"), {
    program: "/bin/sh",
    args: ["-c", "echo hi"],
    windowsRawArguments: false,
  });
  const win = shellInvocation("windows", 'echo "a b"');
  assert.equal(win.program, "cmd.exe");
  assert.deepEqual(win.args, ["/d", "/s", "/c", '"echo "a b""']);
  assert.equal(win.windowsRawArguments, true);
});

Deno.test({
  name: "runShell passes env, collects stdout and stderr, returns the exit code",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const chunks: Uint8Array[] = [];
    const r = await runShell('echo "out $X"; echo err >&2; exit 3', {
      env: { X: "42" },
      timeoutMs: 10_000,
      onOutput: (c) => chunks.push(c),
    });
    const text = chunks.map((c) => new TextDecoder().decode(c)).join("");
    assert.equal(r.code, 3);
    assert.equal(r.timedOut, false);
    assert.match(text, /out 42/);
    assert.match(text, /err/);
  },
});

Deno.test({
  name: "runShell's timeout kills the shell and its grandchildren promptly",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const r = await runShell("sleep 30 & sleep 30; echo never", {
      timeoutMs: 300,
      onOutput: () => {},
    });
    assert.equal(r.timedOut, true);
    assert.equal(r.code, null);
    assert.ok(r.elapsedMs < 1300, `took ${r.elapsedMs} ms`);
  },
});
