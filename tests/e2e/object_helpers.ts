/** Shared set-up of the object e2e tests: a sandbox with a bucket, and files of known content. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { openSandboxHome, type SandboxHome } from "./harness.ts";

const MiB = 1024 * 1024;

/** A sandbox, a home, the env pointing at both, and a fresh bucket. */
export async function objectFixture(bucket = "e2e-objects"): Promise<SandboxHome & { bucket: string }> {
  const h = await openSandboxHome();
  const r = await h.run(["bucket", "create", "--key", bucket, "-o", "json"]);
  if (r.code !== 0) await h.close();
  assert.equal(r.code, 0, r.stderr);
  return { ...h, bucket };
}

/** Writes `size` pseudo-random bytes (a repeated random block) to a file and returns its SHA-1. */
export async function randomFile(file: string, size: number): Promise<string> {
  const block = new Uint8Array(Math.min(size, 1 * MiB) || 1);
  for (let i = 0; i < block.length; i += 65536) crypto.getRandomValues(block.subarray(i, i + 65536));
  const hash = createHash("sha1");
  const f = await Deno.open(file, { write: true, create: true, truncate: true });
  try {
    for (let off = 0; off < size; off += block.length) {
      const chunk = block.subarray(0, Math.min(block.length, size - off));
      chunk[0] = off & 0xff; // vary the blocks a little so parts differ
      hash.update(chunk);
      await f.write(chunk);
    }
  } finally {
    f.close();
  }
  return hash.digest("hex");
}

/** SHA-1 of a file on disk. */
export async function sha1Of(file: string): Promise<string> {
  const hash = createHash("sha1");
  for await (const chunk of (await Deno.open(file)).readable) hash.update(chunk);
  return hash.digest("hex");
}
