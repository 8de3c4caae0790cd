/** The demo's first line says truly why it uses an in-process sandbox. */
import assert from "node:assert/strict";
import { demoPlatformLine } from "../../src/families/demo/commands.ts";

Deno.test("demo --sandbox with credentials configured does not claim there are none", () => {
  assert.equal(
    demoPlatformLine(true, true),
    "--sandbox (your credentials are not used): running against an in-process sandbox (no account, no network needed).",
  );
  assert.match(demoPlatformLine(true, false), /^--sandbox: /);
  assert.match(demoPlatformLine(false, false), /^No credentials configured: /);
  assert.doesNotMatch(demoPlatformLine(true, true), /No credentials/);
});
