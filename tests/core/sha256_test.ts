/** core/sha256.ts: the digest crypto.subtle gives, for text (as UTF-8) and bytes of every length up to a few blocks. */
import assert from "node:assert/strict";
import { sha256 } from "../../src/core/sha256.ts";
import { hexOf } from "../../src/core/bytes.ts";

Deno.test("sha256 gives crypto.subtle's digest", async () => {
  assert.equal(hexOf(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  for (let n = 0; n < 200; n++) {
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    assert.deepEqual(
      sha256(bytes),
      new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
      `length ${n}`,
    );
  }
  const text = "diazo token cache\nsecret é ✓";
  assert.deepEqual(
    sha256(text),
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
  );
});
