import assert from "node:assert/strict";
import { splitShellWords } from "../../src/extend/shell_words.ts";
import { DiazoError } from "../../src/core/errors.ts";

Deno.test("splits on blanks and keeps quoted text together", () => {
  assert.deepEqual(splitShellWords("  object  upload 'my file.obj' --bucket b "), [
    "object",
    "upload",
    "my file.obj",
    "--bucket",
    "b",
  ]);
  assert.deepEqual(splitShellWords(`a "b \\"c\\" $d" e\\ f ''`), ["a", 'b "c" $d', "e f", ""]);
  assert.deepEqual(splitShellWords(`x'y'"z"`), ["xyz"]);
  assert.deepEqual(splitShellWords(""), []);
});

Deno.test("an unterminated quote is a usage error naming what was split", () => {
  assert.throws(() => splitShellWords("a 'b", "alias x"), (e: unknown) => {
    assert.ok(e instanceof DiazoError);
    assert.equal(e.exitCode, 2);
    assert.match(e.message, /^alias x has an unterminated single quote/);
    return true;
  });
  assert.throws(() => splitShellWords('a "b'), /unterminated double quote/);
});
