/** Secrets split over several keychain items (macOS and Windows hold only so much in one). */
import assert from "node:assert/strict";
import type { Keychain } from "../../src/platform/keychain.ts";
import {
  chunkedKeychain,
  parsePartsHead,
  partAccount,
  splitUtf8,
} from "../../src/platform/keychain_chunks.ts";

const TRICKY = "line one\n\"double\" 'single' back\\slash\n\tünïcödé ✓ 🚀 end\n";

function memoryKeychain(): Keychain & { items: Map<string, string> } {
  const items = new Map<string, string>();
  const k = (s: string, a: string) => `${s}\u0000${a}`;
  return {
    name: "windows-credential-manager",
    items,
    get: (s, a) => Promise.resolve(items.get(k(s, a)) ?? null),
    set: (s, a, v) => Promise.resolve(void items.set(k(s, a), v)),
    delete: (s, a) => Promise.resolve(items.delete(k(s, a))),
  };
}

Deno.test("splitUtf8 keeps each piece within the byte limit and never splits a character", () => {
  const s = "a🚀é".repeat(50);
  const parts = splitUtf8(s, 7);
  assert.equal(parts.join(""), s);
  for (const p of parts) assert.ok(new TextEncoder().encode(p).length <= 7);
  assert.deepEqual(splitUtf8("", 5), [""]);
});

Deno.test("chunked keychain: short secrets are one item, long ones several, and stale parts go", async () => {
  const inner = memoryKeychain();
  const kc = chunkedKeychain(inner, 10);
  await kc.set("svc", "acct", "short");
  assert.equal(inner.items.size, 1);
  assert.equal(await kc.get("svc", "acct"), "short");

  const long = "0123456789🚀abcdefghij" + TRICKY;
  await kc.set("svc", "acct", long);
  assert.ok(inner.items.size > 3);
  for (const v of inner.items.values()) assert.ok(new TextEncoder().encode(v).length <= 10 + 40);
  assert.equal(await kc.get("svc", "acct"), long);
  assert.equal(parsePartsHead((await inner.get("svc", "acct"))!)?.count, inner.items.size);

  await kc.set("svc", "acct", "tiny");
  assert.equal(inner.items.size, 1, "parts of the longer secret are removed");
  assert.equal(await kc.get("svc", "acct"), "tiny");

  await kc.set("svc", "acct", long);
  await inner.delete("svc", partAccount("acct", 2));
  assert.equal(await kc.get("svc", "acct"), null, "an incomplete secret reads as none");

  assert.equal(await kc.delete("svc", "acct"), true);
  assert.equal(inner.items.size, 0);
  assert.equal(await kc.delete("svc", "acct"), false);
  assert.equal(await kc.get("svc", "acct"), null);
});

Deno.test("chunked keychain: a secret that looks like a header is kept verbatim", async () => {
  const kc = chunkedKeychain(memoryKeychain(), 100);
  const odd = "\u0001diazo-parts:3\nnot really";
  await kc.set("s", "a", odd);
  assert.equal(await kc.get("s", "a"), odd);
});
