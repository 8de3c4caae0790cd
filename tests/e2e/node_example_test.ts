/**
 * e2e: the README's official-Node-SDK example (examples/sandbox/node_sdk.mjs, shown verbatim in the
 * README) runs against a sandbox: a token, a bucket, an upload through the SDK's signed-URL
 * transfer, and the object's details with the SHA-1 of the bytes it sent. It runs under Deno (the
 * SDK packages come from deno.json's imports), which executes the same ES module Node would.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { ROOT, startTestSandbox } from "./harness.ts";

const EXAMPLE = join(ROOT, "examples/sandbox/node_sdk.mjs");

Deno.test("README: the Node SDK example is the file the test runs", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  assert.ok(
    readme.includes("```js\n" + await Deno.readTextFile(EXAMPLE) + "```"),
    "README shows the example verbatim",
  );
});

Deno.test("README: the Node SDK example runs against the sandbox", async () => {
  const sb = await startTestSandbox();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-net",
        "--allow-env",
        "--allow-read",
        "--config",
        join(ROOT, "deno.json"),
        EXAMPLE,
      ],
      env: { APS_BASE_URL: sb.url },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const sha1 = createHash("sha1").update("hello from my app").digest("hex");
    assert.equal(stdout, `hello.txt 17 ${sha1}\n`);
  } finally {
    await sb.close();
  }
});
