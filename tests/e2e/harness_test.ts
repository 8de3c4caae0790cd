/** The in-process harness behaves as a new process would: streams, standard input, secrets, clean-up. */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { knownSecrets } from "../../src/core/redact.ts";
import { captureIo, diazo, keyboard, SANDBOX_SECRET, withSandboxHome } from "./harness.ts";

Deno.test("keyboard: lines typed later are read in order; a last line without newline; then end of input", async () => {
  const kb = keyboard();
  const first = kb.stdin.readLine();
  kb.type("one\r\ntw");
  assert.equal(await first, "one");
  const second = kb.stdin.readLine();
  kb.type("o\nthree");
  assert.equal(await second, "two");
  kb.close();
  assert.equal(await kb.stdin.readLine(), "three");
  assert.equal(await kb.stdin.readLine(), null);
  assert.equal(await keyboard("all of it\n").stdin.readText(), "all of it\n");
  assert.equal(await keyboard("").stdin.readLine(), null, "no stdin reads as end of input");
});

Deno.test("captureIo: text and bytes (split inside a character) in order; stderr watched as it grows", () => {
  const seen: string[] = [];
  const cap = captureIo("", (err) => seen.push(err));
  const bytes = new TextEncoder().encode("é!");
  cap.io.stdout.write("a");
  cap.io.stdout.write(bytes.subarray(0, 1));
  cap.io.stdout.write(bytes.subarray(1));
  cap.io.stderr.write("x\n");
  cap.io.stderr.write("y\n");
  assert.equal(cap.stdout(), "aé!");
  assert.equal(cap.stderr(), "x\ny\n");
  assert.deepEqual(seen, ["x\n", "x\ny\n"]);
  assert.equal(cap.io.stdout.isTerminal, false);
});

Deno.test("a run starts without the secrets earlier runs registered, as a new process does", () =>
  withSandboxHome(async ({ run }) => {
    const first = await run(["auth", "test", "-o", "json"]);
    assert.equal(first.code, 0, first.stderr);
    assert.ok(knownSecrets().includes(SANDBOX_SECRET), "the run registered the client secret");
    const second = await run(["version", "--json"]);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(knownSecrets(), [], "forgotten before the next run");
  }));

Deno.test("withSandboxHome stops the sandbox and removes the home when the test throws", async () => {
  let url = "";
  let dir = "";
  await assert.rejects(
    withSandboxHome(async (h) => {
      url = h.sb.url;
      dir = h.home.dir;
      assert.equal((await fetch(`${url}/_sandbox/requests`).then((r) => r.json())).length, 0);
      throw new Error("the test failed");
    }),
    /the test failed/,
  );
  assert.equal(existsSync(dir), false, "the home is gone");
  await assert.rejects(fetch(`${url}/_sandbox/requests`), "the sandbox no longer answers");
});

Deno.test("an in-process run reads its own environment and working directory, never the process's", async () => {
  const r = await diazo(["version", "--json"], {
    env: { DIAZO_CONFIG_DIR: "/nowhere/config", DIAZO_STATE_DIR: "/nowhere/state" },
    cwd: "/",
  });
  assert.equal(r.code, 0, r.stderr);
  const v = JSON.parse(r.stdout);
  assert.equal(v.config_dir, "/nowhere/config");
  assert.equal(v.state_dir, "/nowhere/state");
});
