/**
 * Issue 14 item 8: pipeline files have limits: a size cap (an endless input is refused without being
 * read whole; the 1 MiB cap itself is tests/robust/pipeline_flow_size_test.ts), a nesting bound (a clear
 * error, not a stack overflow), no NUL byte; and many steps validate (timed in the bench, not here).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { assertUsageError, cliEnv, makeHome } from "../e2e/harness.ts";
import { run } from "./_run.ts";

async function validate(name: string, text: string | undefined): Promise<ReturnType<typeof run>> {
  const home = await makeHome();
  try {
    const file = text === undefined ? name : path.join(home.cwd, name);
    if (text !== undefined) await Deno.writeTextFile(file, text);
    return await run(["pipeline", "validate", file], cliEnv(home), home.cwd);
  } finally {
    await home.cleanup();
  }
}

Deno.test({
  name: "pipeline validate /dev/zero: refused as a device, not a regular file, without reading it",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const before = Deno.memoryUsage().rss;
    const r = await validate("/dev/zero", undefined);
    assertUsageError(r, /^error: \/dev\/zero is a character device, not a regular file$/);
    const grown = Deno.memoryUsage().rss - before;
    assert.ok(grown < 512 * 1024 * 1024, `memory grew by ${grown} bytes`);
  },
});

Deno.test("3,000 levels of flow nesting, 900 of block nesting (what fits in 1 MiB): a clear error with the place, not a stack overflow", async () => {
  const flow = `name: x\nvariables: { a: ${"[".repeat(3000)}${
    "]".repeat(3000)
  } }\nsteps:\n  - name: a\n    command: bucket list\n`;
  let block = "name: x\nsteps:\n  - name: a\n    command: bucket list\nvariables:\n";
  for (let i = 0; i < 900; i++) block += `${"  ".repeat(i + 1)}k${i}:\n`;
  for (
    const [name, text, where] of [["flow.yaml", flow, /flow\.yaml:2:\d+:/], [
      "block.yaml",
      block,
      /block\.yaml:69:\d+:/,
    ]] as const
  ) {
    const r = await validate(name, text);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, where);
    assert.match(r.stderr, /nesting deeper than 64 levels/);
    assert.doesNotMatch(r.stderr, /call stack/);
  }
});

Deno.test("a NUL byte is refused with its line and column", async () => {
  const r = await validate("nul.yaml", "name: x\nsteps:\n  - name: a\0\n    command: bucket list\n");
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /nul\.yaml:3:12: the file contains a NUL byte/);
});

Deno.test("5,000 steps that reference earlier ones validate (in linear time: see the bench)", async () => {
  let text = "name: big\nsteps:\n";
  for (let i = 0; i < 5_000; i++) {
    text += `  - name: s${i}\n    id: s${i}\n    command: bucket list --region US${
      i > 0 ? ` --query '\${{ steps.s${i - 1}.exit_code }}'` : ""
    }\n`;
  }
  const r = await validate("big.yaml", text);
  assert.equal(r.code, 0, r.stderr.slice(0, 500));
  assert.match(r.stderr + r.stdout, /5000 step/);
});
