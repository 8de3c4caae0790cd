/**
 * The storage behind data management versions: the `wip.dm.prod` bucket (an app that writes to a
 * project may use it), and the bytes of the seeded versions, made when first asked for (a file of
 * the size the version reports, the same bytes in every sandbox) so that downloading a seeded item
 * works in the demo world.
 */
import { createHash } from "node:crypto";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { findObject, putObject } from "../oss/object_store.ts";
import { DM_STORAGE_BUCKET, type DmVersion } from "./world.ts";

/** Who owns the storage bucket: no app, so it never shows in an app's bucket list. */
const STORAGE_OWNER = "autodesk-data-management";

/** Gives the caller's app write access to the storage bucket (made on first use). */
export function grantStorage(ctx: RequestContext): void {
  const buckets = ctx.sandbox.oss.buckets;
  let bucket = buckets.get(DM_STORAGE_BUCKET);
  if (!bucket) {
    bucket = {
      bucketKey: DM_STORAGE_BUCKET,
      bucketOwner: STORAGE_OWNER,
      createdDate: nowMs(ctx.sandbox.clock),
      policyKey: "persistent",
      region: "US",
      permissions: [],
    };
    buckets.set(DM_STORAGE_BUCKET, bucket);
  }
  const app = ctx.clientId ?? "";
  if (!bucket.permissions.some((p) => p.authId === app)) {
    bucket.permissions.push({ authId: app, access: "full" });
  }
}

const BLOCK = 64 * 1024;

/** `size` bytes drawn from `seed`: a 64 KiB block of SHA-256 output, each repeat marked with its index. */
function seededBytes(seed: string, size: number): ReadableStream<Uint8Array> {
  const block = new Uint8Array(BLOCK);
  let digest = createHash("sha256").update(seed).digest();
  for (let at = 0; at < BLOCK; at += digest.length) {
    block.set(digest.subarray(0, Math.min(digest.length, BLOCK - at)), at);
    digest = createHash("sha256").update(digest).digest();
  }
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const chunk = block.slice(0, Math.min(BLOCK, size - sent));
      if (chunk.length >= 4) new DataView(chunk.buffer).setUint32(0, sent / BLOCK); // no two blocks alike
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

/** The seeded version whose storage is the object `objectKey` of the storage bucket, if any. */
function seededVersionAt(ctx: RequestContext, objectKey: string): DmVersion | undefined {
  const id = `urn:adsk.objects:os.object:${DM_STORAGE_BUCKET}/${objectKey}`;
  for (const v of ctx.sandbox.dm.world.versions.values()) if (v.storageId === id) return v;
  return undefined;
}

/**
 * Before OSS looks for an object of the storage bucket: a seeded version's object that has no
 * bytes yet gets them (and the caller's app access to the bucket, as a write would give it).
 */
export async function materializeSeeded(
  ctx: RequestContext,
  bucketKey: string,
  objectKey: string,
): Promise<void> {
  if (bucketKey !== DM_STORAGE_BUCKET || findObject(ctx.sandbox.oss, bucketKey, objectKey)) return;
  const version = seededVersionAt(ctx, objectKey);
  if (!version) return;
  grantStorage(ctx);
  await putObject(
    ctx.sandbox.oss,
    bucketKey,
    objectKey,
    seededBytes(version.storageId, version.storageSize),
    version.mimeType,
  );
}
