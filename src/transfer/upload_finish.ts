/**
 * The end of a signed S3 upload: completion, and what its answer proves. A 409 means the upload was
 * already completed — usually by an earlier attempt whose answer was lost — so the stored object is
 * compared with the file (size and SHA-1) before calling it a success. An object
 * whose SHA-1 differs from the file's is deleted rather than left for later downloads to trust.
 */
import { DiazoError } from "../core/errors.ts";
import type { BucketKey, ObjectKey } from "../aps/ids.ts";
import type { Http } from "../http/http.ts";
import { completeUpload, deleteObject, getObject, type ObjectDetails } from "./oss_objects.ts";

/** An upload whose parts are all stored, and what the file's bytes are. */
export interface FinishInput {
  bucketKey: BucketKey;
  objectKey: ObjectKey;
  uploadKey: string;
  size: number;
  /** The parts' eTags in part order: the per-part checks the completion contract accepts. */
  eTags: string[];
  /** SHA-1 of the file, computed while reading it. */
  sha1: string;
  signal?: AbortSignal;
  debug?: (line: string) => void;
}

/** Completes the upload and checks the stored object against the file; throws when they differ. */
export async function finishUpload(http: Http, o: FinishInput): Promise<ObjectDetails> {
  const label = `${o.bucketKey}/${o.objectKey}`;
  let stored: ObjectDetails;
  try {
    stored = await completeUpload(
      http,
      o.bucketKey,
      o.objectKey,
      { uploadKey: o.uploadKey, size: o.size, eTags: o.eTags },
      o.signal,
    );
  } catch (e) {
    if (!(e instanceof DiazoError) || e.status !== 409) throw e;
    o.debug?.(`completion of ${label} answered 409 (already completed); comparing the stored object`);
    stored = await getObject(http, o.bucketKey, o.objectKey);
    const remoteSha1 = stored.sha1?.toLowerCase();
    if (stored.size !== o.size || (remoteSha1 !== undefined && remoteSha1 !== o.sha1)) {
      throw new DiazoError("conflict", {
        status: 409,
        cause: e,
        params: {
          detail:
            `the upload of ${label} was already completed, and the stored object differs from this file ` +
            `(${stored.size} bytes, SHA-1 ${remoteSha1 ?? "?"}; the file: ${o.size} bytes, SHA-1 ${o.sha1})`,
        },
      });
    }
    return stored;
  }
  return await checkStored(http, o, stored);
}

/** Compares a just-completed object's SHA-1 with the file's; deletes the object and throws when they differ. */
export async function checkStored(
  http: Http,
  o: Pick<FinishInput, "bucketKey" | "objectKey" | "sha1">,
  stored: ObjectDetails,
): Promise<ObjectDetails> {
  const label = `${o.bucketKey}/${o.objectKey}`;
  const remoteSha1 = (stored.sha1 ?? (await getObject(http, o.bucketKey, o.objectKey)).sha1)?.toLowerCase();
  if (remoteSha1 && remoteSha1 !== o.sha1) {
    // Never leave bytes that differ from the file where a later download would trust them.
    const removed = await deleteObject(http, o.bucketKey, o.objectKey).then(() => true, () => false);
    throw new DiazoError("integrity_mismatch", {
      params: {
        key: label,
        local: o.sha1,
        remote: `${remoteSha1} (${
          removed ? "the corrupt object was deleted" : "deleting the corrupt object failed"
        })`,
      },
    });
  }
  return stored;
}
