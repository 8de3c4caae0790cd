/**
 * Direct-to-S3 upload sessions. Parts stream to disk as they arrive, in any order: the next part in
 * order is hashed as it streams in, and a background chain hashes the others from disk in part
 * order as soon as each is contiguous with those before it. Completion checks the parts, awaits only
 * the hashing left and moves the part files into the object store, so that completing even a huge
 * upload copies nothing.
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { hashFile, removeQuietly, streamToFile, uploadsDir } from "./object_files.ts";
import { adoptFiles } from "./object_store.ts";
import { nowMs } from "../clock.ts";
import { ossError } from "../errors.ts";
import type { OssStore, StoredObject, UploadedPart, UploadSession } from "./store.ts";
import { randomToken } from "../auth/tokens.ts";
import { hexOf } from "../../core/bytes.ts";

/** The smallest size of every part but the last. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
/** The highest part number (S3's limit). */
export const MAX_PART_NUMBER = 10_000;
/** How long an upload session may stay open. */
export const UPLOAD_SESSION_TTL_MS = 24 * 3600 * 1000;

function freshDigest(): UploadSession["digest"] {
  return { hash: createHash("sha1"), hashed: [] };
}

function randomHex(bytes: number): string {
  return hexOf(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Opens a new upload session for an object. */
export function openUpload(oss: OssStore, bucketKey: string, objectKey: string): UploadSession {
  const uploadKey = randomToken(32);
  const session: UploadSession = {
    uploadKey,
    bucketKey,
    objectKey,
    dir: join(uploadsDir(oss), uploadKey),
    expiresMs: nowMs(oss.clock) + UPLOAD_SESSION_TTL_MS,
    state: "open",
    parts: new Map(),
    digest: freshDigest(),
    hashing: Promise.resolve(),
  };
  oss.uploads.set(uploadKey, session);
  return session;
}

/** The upload session `uploadKey`, or undefined. */
export function findUpload(oss: OssStore, uploadKey: string): UploadSession | undefined {
  return oss.uploads.get(uploadKey);
}

/** True when the session's deadline has passed on the sandbox clock. */
export function uploadExpired(oss: OssStore, session: UploadSession): boolean {
  return nowMs(oss.clock) > session.expiresMs;
}

/** Aborts an upload session: it is forgotten and its parts removed. */
export async function abortUpload(oss: OssStore, session: UploadSession): Promise<void> {
  session.state = "aborted";
  if (oss.uploads.get(session.uploadKey) === session) oss.uploads.delete(session.uploadKey);
  await removeQuietly(session.dir);
}

/** Aborts the upload sessions of a bucket. */
export async function abortBucketUploads(oss: OssStore, bucketKey: string): Promise<void> {
  const doomed = [...oss.uploads.values()].filter((s) => s.bucketKey === bucketKey);
  await Promise.all(doomed.map((s) => abortUpload(oss, s)));
}

/** Hashes the parts that continue the digest in order, starting over if a hashed part was replaced. */
async function hashReadyParts(session: UploadSession): Promise<void> {
  if (session.digest.hashed.some((p, i) => session.parts.get(i + 1) !== p)) session.digest = freshDigest();
  for (;;) {
    const digest = session.digest;
    const n = digest.hashed.length + 1;
    const part = session.parts.get(n);
    if (!part || session.inline === n || session.state === "aborted" || session.state === "completed") return;
    await hashFile(digest.hash, part.file);
    if (session.parts.get(n) !== part) session.digest = freshDigest();
    else digest.hashed.push(part);
  }
}

function scheduleHashing(session: UploadSession): void {
  session.hashing = session.hashing
    .then(() => hashReadyParts(session))
    .catch(() => {
      session.digest = freshDigest(); // a part file vanished under the reader: start over next pass
    });
}

/**
 * Streams one part of an upload to disk (replacing an earlier upload of that part) and starts
 * hashing what it makes contiguous; undefined when the session closed meanwhile.
 */
export async function storePart(
  oss: OssStore,
  session: UploadSession,
  partNumber: number,
  body: ReadableStream<Uint8Array> | null,
): Promise<UploadedPart | undefined> {
  if (sessionClosed(oss, session)) return undefined; // and its folder, removed, stays so
  await Deno.mkdir(session.dir, { recursive: true });
  const file = join(session.dir, `${partNumber}.${randomHex(6)}`);
  // The next part in order goes into the digest as it streams in: hashing it from disk afterwards
  // would read every byte a second time, on the thread that also receives the other parts.
  const digest = session.digest;
  const inline = session.inline === undefined && digest.hashed.length === partNumber - 1 &&
    !session.parts.has(partNumber);
  if (inline) session.inline = partNumber;
  let size: number;
  try {
    size = await streamToFile(file, body, inline ? (chunk) => digest.hash.update(chunk) : undefined);
  } catch (e) {
    if (inline && session.digest === digest) session.digest = freshDigest(); // it holds part of a part
    // Completed or aborted meanwhile, its folder removed under this part: the session is closed.
    if (sessionClosed(oss, session)) return await dropLatePart(session, file);
    throw e;
  } finally {
    if (inline && session.inline === partNumber) session.inline = undefined;
  }
  if (sessionClosed(oss, session)) return await dropLatePart(session, file);
  const part = { file, size, eTag: `"${randomHex(16)}"` };
  const old = session.parts.get(partNumber);
  session.parts.set(partNumber, part);
  // Still the digest of parts 1..partNumber-1 (a replaced earlier part makes a fresh one): this part joins it.
  if (inline && session.digest === digest) digest.hashed.push(part);
  scheduleHashing(session);
  if (old) await removeQuietly(old.file);
  return part;
}

/**
 * Removes a part that arrived for a closed session, and the session's folder once the session is
 * over: the part's own start may have made the folder again after the session removed it.
 */
async function dropLatePart(session: UploadSession, file: string): Promise<undefined> {
  await removeQuietly(file);
  if (session.state === "aborted" || session.state === "completed") await removeQuietly(session.dir);
  return undefined;
}

function sessionClosed(oss: OssStore, session: UploadSession): boolean {
  return session.state !== "open" || oss.uploads.get(session.uploadKey) !== session;
}

function unquoted(eTag: string): string {
  return eTag.replace(/^(W\/)?"|"$/g, "");
}

/** What is wrong with completing the session as it stands, or undefined. */
function completionProblem(session: UploadSession, expect: { size?: number; eTags?: string[] }) {
  const count = session.parts.size === 0 ? 0 : Math.max(...session.parts.keys());
  if (count === 0) return "No part has been uploaded for this uploadKey";
  for (let n = 1; n <= count; n++) {
    if (!session.parts.has(n)) return `Part ${n} has not been uploaded (status Pending)`;
  }
  let total = 0;
  for (let n = 1; n <= count; n++) {
    const part = session.parts.get(n)!;
    if (n < count && part.size < MIN_PART_SIZE) {
      return `Part ${n} is ${part.size} bytes: every part but the last must be at least ${MIN_PART_SIZE} bytes (status TooSmall)`;
    }
    total += part.size;
  }
  if (expect.eTags !== undefined) {
    if (expect.eTags.length !== count) {
      return `'eTags' lists ${expect.eTags.length} parts but ${count} were uploaded`;
    }
    for (let n = 1; n <= count; n++) {
      if (unquoted(expect.eTags[n - 1]) !== unquoted(session.parts.get(n)!.eTag)) {
        return `The eTag of part ${n} does not match the uploaded part (status Unexpected)`;
      }
    }
  }
  if (expect.size !== undefined && expect.size !== total) {
    return `'size' is ${expect.size} but ${total} bytes were uploaded`;
  }
  return undefined;
}

/**
 * Completes an open session into its object: checks the parts (1..N present, all but the last at
 * least 5 MiB, `size`/`eTags` when given), awaits the rest of the background SHA-1 and moves the
 * part files into the object. A problem throws OSS's 400 refusal and leaves the session open.
 */
export async function completeUpload(
  oss: OssStore,
  session: UploadSession,
  expect: { size?: number; eTags?: string[] },
  meta: { contentType?: string; contentDisposition?: string; userDefinedMetadata?: string },
): Promise<StoredObject> {
  session.state = "completing"; // from here on parts are frozen: late PUTs are turned away
  const problem = completionProblem(session, expect);
  if (problem) {
    session.state = "open";
    throw ossError(400, problem);
  }
  const parts = Array.from({ length: session.parts.size }, (_, i) => session.parts.get(i + 1)!);
  if (session.inline !== undefined) {
    // A part still streaming in has begun to go into the digest, and it is not among the parts
    // completed (a late part after the last, or a copy of a part another copy of which has ended):
    // the digest starts over from the part files.
    session.inline = undefined;
    session.digest = freshDigest();
  }
  scheduleHashing(session);
  await session.hashing;
  const { hash, hashed } = session.digest;
  if (hashed.length !== parts.length || hashed.some((p, i) => p !== parts[i])) {
    session.state = "open";
    throw new Error("the parts of the upload could not be read back");
  }
  let obj: StoredObject;
  try {
    obj = await adoptFiles(oss, {
      bucketKey: session.bucketKey,
      objectKey: session.objectKey,
      sha1: hash.digest("hex"),
      ...meta,
      files: parts.map((p) => ({ path: p.file, size: p.size })),
    });
  } catch (e) {
    await abortUpload(oss, session); // its digest is spent and its parts half moved: it cannot go on
    throw e;
  }
  session.state = "completed";
  session.parts.clear();
  await removeQuietly(session.dir);
  return obj;
}
