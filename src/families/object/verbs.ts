/**
 * The object verbs that read or change one object (`diazo object list|info|delete|signed-url|urn` and
 * the object_* tools): list, info, delete, signed URL and URN. Uploads are families/object/upload.ts and
 * downloads families/object/download.ts: they bring the hashing and file modules, which a list does not
 * load (its start-up stays free of `node:` modules, ARCHITECTURE.md "Start-up"). Keys arrive checked
 * (aps/ids.ts); results are returned.
 */
import type { BucketKey, ObjectKey } from "../../aps/ids.ts";
import { encodeUrn, encodeUrns, objectIdOf } from "../../aps/urn.ts";
import { usageError } from "../../core/errors.ts";
import { isoOfEpochMs } from "../../core/output_human.ts";
import {
  createSignedUrl,
  deleteObject,
  getObject,
  type ObjectDetails,
  objectsRequest,
  SIGNED_ACCESS,
} from "../../transfer/oss_objects.ts";
import { fetchPage } from "../../http/pagination.ts";
import type { OpsDeps } from "../../session/deps.ts";
import type { ListOptions, ListPage } from "../../http/list.ts";

export { SIGNED_ACCESS };

/** Adds the base64 URN and readable dates beside the platform's fields. */
export function withObjectHelpers<T extends Partial<ObjectDetails>>(o: T): T & { urn?: string } {
  return objectRow(o, o.objectId ? encodeUrn(o.objectId) : undefined);
}

/** withObjectHelpers of every object of a list, their URNs encoded at once (aps/urn.ts `encodeUrns`). */
export function withObjectHelpersAll<T extends Partial<ObjectDetails>>(
  list: readonly T[],
): (T & { urn?: string })[] {
  const urns = encodeUrns(list.map((o) => o.objectId ?? ""));
  return list.map((o, i) => objectRow(o, o.objectId ? urns[i] : undefined));
}

/**
 * An object's row: its fields, its URN, then its dates in readable form. Each date is named once, not
 * read through a table of names: destructuring such a table in a loop cost a list of 1,000 objects
 * about 6 M instructions (ARCHITECTURE.md "Start-up").
 */
function objectRow<T extends Partial<ObjectDetails>>(o: T, urn: string | undefined): T & { urn?: string } {
  const row: Record<string, unknown> = { ...o };
  if (urn !== undefined) row.urn = urn;
  const created = isoOfEpochMs(o.createdDate);
  if (created !== undefined) row.createdAt = created;
  const modified = isoOfEpochMs(o.lastModifiedDate);
  if (modified !== undefined) row.lastModifiedAt = modified;
  const accessed = isoOfEpochMs(o.lastAccessedDate);
  if (accessed !== undefined) row.lastAccessedAt = accessed;
  return row as T & { urn?: string };
}

/** An object as the verbs answer it: the platform's fields, its URN and readable dates beside them. */
export type ObjectRow = ReturnType<typeof withObjectHelpers<ObjectDetails>>;

/** A bucket's objects (optionally under `prefix`); without `limit`, every page. */
export async function runObjectList(
  opts: ListOptions & { bucketKey: BucketKey; prefix?: string },
  deps: OpsDeps,
): Promise<ListPage<ObjectRow>> {
  const page = await fetchPage<ObjectDetails>(
    await deps.http(),
    objectsRequest(opts.bucketKey, opts.prefix),
    "oss",
    { limit: opts.limit ?? Infinity, cursor: opts.cursor },
  );
  return { ...page, items: withObjectHelpersAll(page.items) };
}

/** An object's details (size, SHA-1, dates) and its URN. */
export async function runObjectInfo(
  opts: { bucketKey: BucketKey; objectKey: ObjectKey },
  deps: OpsDeps,
): Promise<ObjectRow> {
  return withObjectHelpers(await getObject(await deps.http(), opts.bucketKey, opts.objectKey));
}

/** What deleting an object did. */
export interface ObjectDeleted {
  bucketKey: string;
  objectKey: string;
  deleted: true;
}

/** Deletes an object; with `confirm`, only after a yes (undefined when the answer was no). */
export async function runObjectDelete(
  opts: { bucketKey: BucketKey; objectKey: ObjectKey; confirm?: (question: string) => Promise<boolean> },
  deps: OpsDeps,
): Promise<ObjectDeleted | undefined> {
  const { bucketKey, objectKey } = opts;
  const http = await deps.http();
  if (opts.confirm && !(await opts.confirm(`Delete ${bucketKey}/${objectKey}?`))) return undefined;
  await deleteObject(http, bucketKey, objectKey);
  return { bucketKey, objectKey, deleted: true };
}

/** A shareable signed URL and when it expires. */
export interface SignedUrlAnswer {
  signedUrl: string;
  expiration?: number;
  expiresAt?: string;
  singleUse?: boolean;
}

/** Creates a URL that reads (or writes) the object without credentials for 1-60 minutes. */
export async function runObjectSignedUrl(
  opts: {
    bucketKey: BucketKey;
    objectKey: ObjectKey;
    minutes: number;
    access: (typeof SIGNED_ACCESS)[number];
    singleUse?: boolean;
  },
  deps: OpsDeps,
): Promise<SignedUrlAnswer> {
  if (opts.minutes > 60) {
    throw usageError(`--minutes ${opts.minutes} is above 60`, "Signed URLs live 1 to 60 minutes.");
  }
  const res = await createSignedUrl(await deps.http(), opts.bucketKey, opts.objectKey, {
    minutes: opts.minutes,
    access: opts.access,
    singleUse: opts.singleUse,
  });
  const expiresAt = isoOfEpochMs(res.expiration);
  return { ...res, ...(expiresAt ? { expiresAt } : {}) };
}

/** An object's raw id and Model Derivative URN. */
export interface ObjectUrn {
  bucketKey: string;
  objectKey: string;
  objectId: string;
  urn: string;
}

/** An object's id and base64 URN, computed locally (no request; the object need not exist). */
export function runObjectUrn(opts: { bucketKey: BucketKey; objectKey: ObjectKey }): ObjectUrn {
  const objectId = objectIdOf(opts.bucketKey, opts.objectKey);
  return { bucketKey: opts.bucketKey, objectKey: opts.objectKey, objectId, urn: encodeUrn(objectId) };
}
