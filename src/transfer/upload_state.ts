/**
 * Resume records of multipart uploads, kept in the state dir so that `object upload --resume`
 * continues an interrupted upload with the same `uploadKey` and skips the parts already stored.
 */
import path from "node:path";
import { createHash } from "node:crypto";
import { readTextIfExists } from "../platform/fs.ts";
import { removeAtomicLeftovers, writeFileAtomic } from "../platform/fs_write.ts";

/** What identifies one upload: the same file (size, mtime) to the same object on the same platform. */
export interface UploadIdentity {
  baseUrl: string;
  bucketKey: string;
  objectKey: string;
  size: number;
  mtimeMs: number;
}

/** A resume record. */
export interface UploadRecord extends UploadIdentity {
  file: string;
  partSize: number;
  uploadKey: string;
  /** eTag of every part stored so far, by part number (1-based). */
  parts: Record<string, string>;
  updatedAt: string;
}

/** The file holding the record of `id`. */
export function recordPath(stateDir: string, id: UploadIdentity): string {
  const digest = createHash("sha256")
    .update([id.baseUrl, id.bucketKey, id.objectKey, id.size, id.mtimeMs].join("\n"))
    .digest("hex")
    .slice(0, 32);
  return path.join(stateDir, "uploads", `${digest}.json`);
}

/** The record of an earlier upload of the same file and object, if one is kept and matches. */
export async function readRecord(stateDir: string, id: UploadIdentity): Promise<UploadRecord | undefined> {
  const text = await readTextIfExists(recordPath(stateDir, id));
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as UploadRecord;
    const same = r.baseUrl === id.baseUrl && r.bucketKey === id.bucketKey && r.objectKey === id.objectKey &&
      r.size === id.size && r.mtimeMs === id.mtimeMs;
    return same && typeof r.uploadKey === "string" && r.parts && typeof r.parts === "object" ? r : undefined;
  } catch {
    return undefined; // a damaged record only costs re-sending the parts
  }
}

/** Saves a record (atomically: a crash leaves the previous or the new one). */
export async function writeRecord(stateDir: string, record: UploadRecord): Promise<void> {
  await writeFileAtomic(recordPath(stateDir, record), JSON.stringify(record), 0o600);
}

/** Forgets a record, with any temp file a killed save of it left behind. */
export async function deleteRecord(stateDir: string, id: UploadIdentity): Promise<void> {
  const file = recordPath(stateDir, id);
  await Deno.remove(file).catch(() => {});
  await removeAtomicLeftovers(file);
}
