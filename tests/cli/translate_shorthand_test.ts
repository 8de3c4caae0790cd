/**
 * `translate <urn> ...` is `translate start <urn> ...` (families/translate/commands.ts, the `forward`
 * of command/decl.ts): its words are start's, checked by start's parser, and `translate` alone is its
 * help as a usage error. No request is made: every case fails before one.
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/front/root.ts";
import { captureIo } from "../storage/_cli.ts";

const ENV = {
  NO_COLOR: "1",
  DIAZO_NO_UPDATE_CHECK: "1",
  HOME: "/nonexistent-home",
  DIAZO_CONFIG_DIR: "/nonexistent-config",
};
const URN = "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bXktYnVja2V0L2hvdXNlLnJ2dA";

async function run(argv: string[]) {
  const cap = captureIo();
  const code = await runCli(argv, cap.io, ENV, Deno.cwd());
  return { code, out: cap.out(), err: cap.err() };
}

Deno.test("translate alone prints its help with examples on stderr and names its subcommands, exit 2", async () => {
  const r = await run(["translate"]);
  assert.equal(r.code, 2);
  assert.equal(r.out, "");
  assert.match(r.err, /^Usage: diazo translate \[options\] \[command\] \[urn\]/);
  assert.match(r.err, /Examples:\n {2}\$ diazo translate <urn> --formats svf2 --wait/);
  assert.match(r.err, /error: 'diazo translate' needs a subcommand: start, status, .*, preset\n/);
});

Deno.test("translate <urn> hands its words to start: start's options, start's errors", async () => {
  const bogus = await run(["translate", URN, "--bogus"]);
  assert.equal(bogus.code, 2);
  assert.match(bogus.err, /^error: unknown option '--bogus'$/m);
  const extra = await run(["translate", URN, "extra", "--formats", "obj"]);
  assert.equal(extra.code, 2);
  assert.match(extra.err, /^error: too many arguments for 'start'/m);
  const badUrn = await run(["translate", "not a urn", "--formats", "obj"]);
  assert.equal(badUrn.code, 2);
  assert.match(badUrn.err, /^error: Invalid URN$/m);
});

Deno.test("translate's subcommands refuse extra words; only the shorthand passes its words on", async () => {
  for (const argv of [["translate", "status", URN, "extra"], ["translate", "preset", "show", "a", "b"]]) {
    const r = await run(argv);
    assert.equal(r.code, 2, argv.join(" "));
    assert.match(r.err, /^error: too many arguments for '(status|show)'/m, argv.join(" "));
  }
});
