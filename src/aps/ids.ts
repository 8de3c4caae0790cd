/**
 * Checked identifiers: a value of one of these types has been parsed once, where input entered
 * (a CLI argument, an MCP argument, a pipeline step), so services take them without checking again.
 * The brands exist only for the type checker; at run time they are plain strings.
 */
import { fieldError } from "../core/field_error.ts";

declare const brand: unique symbol;

/** A string that has passed the check named by `B`. */
export type Checked<B extends string> = string & { readonly [brand]: B };

/** An OSS bucket key: 3-128 characters of `[-_.a-z0-9]`. */
export type BucketKey = Checked<"BucketKey">;
/** An OSS object key (object name) inside a bucket. */
export type ObjectKey = Checked<"ObjectKey">;
/** A Model Derivative URN: URL-safe base64 of an object id, without padding. */
export type Urn = Checked<"Urn">;
/** A data management hub id: `b.<guid>` or `a.<id>`. */
export type HubId = Checked<"HubId">;
/** A data management project id: `b.<guid>` or `a.<id>`. */
export type DmProjectId = Checked<"DmProjectId">;
/** A construction-cloud (ACC/BIM 360) project or account id: a bare GUID, without `b.`. */
export type AccProjectId = Checked<"AccProjectId">;
/** A construction-cloud account id: a bare GUID. */
export type AccAccountId = Checked<"AccAccountId">;
/** A data management folder URN. */
export type FolderId = Checked<"FolderId">;
/** A data management item (lineage) URN. */
export type ItemId = Checked<"ItemId">;
/** A data management version URN. */
export type VersionId = Checked<"VersionId">;

const BUCKET_KEY = /^[-_.a-z0-9]{3,128}$/;

/** A bucket key, checked once where input enters; a usage error (exit 2) with a corrected example. */
export function parseBucketKey(key: string, field = "bucket_key"): BucketKey {
  if (BUCKET_KEY.test(key)) return key as BucketKey;
  const why = key.length < 3 || key.length > 128
    ? `it has ${key.length} characters (3 to 128 allowed)`
    : `it contains ${JSON.stringify([...new Set(key.replace(/[-_.a-z0-9]/g, ""))].join(""))}`;
  const shown = key.length > 80 ? `${key.slice(0, 77)}...` : key;
  throw fieldError({
    field,
    problem: `invalid bucket key '${shown}': ${why}`,
    help: `Bucket keys use 3-128 characters of lower-case letters, digits, '-', '_' and '.', e.g. ${
      key.toLowerCase().replace(/[^-_.a-z0-9]+/g, "-").replace(/^[-_.]+|[-_.]+$/g, "").padEnd(3, "0").slice(
        0,
        128,
      )
    }`,
  });
}

/** True when `key` is a well-formed bucket key (for callers that choose between forms). */
export function isBucketKey(key: string): key is BucketKey {
  return BUCKET_KEY.test(key);
}

/**
 * The longest object key accepted, in characters: as S3's 1024-byte keys, and well inside what a URL
 * can carry once percent-encoded (a 120k-character key used to be sent, retried and "Cannot reach").
 */
export const MAX_OBJECT_KEY_LENGTH = 1024;

/** An object key, checked once where input enters: not empty, at most MAX_OBJECT_KEY_LENGTH characters. */
export function parseObjectKey(key: string): ObjectKey {
  const field = "object_key";
  if (key.length > 0 && key.length <= MAX_OBJECT_KEY_LENGTH) return key as ObjectKey;
  if (key.length > 0) {
    throw fieldError({
      field,
      problem: `invalid object key '${
        key.slice(0, 40)
      }...': it has ${key.length} characters (at most ${MAX_OBJECT_KEY_LENGTH})`,
      help: `Use a shorter object key (1-${MAX_OBJECT_KEY_LENGTH} characters).`,
    });
  }
  throw fieldError({
    field,
    problem: "the object key is empty",
    help: "Name the object, e.g. model.rvt; {step} lists them.",
    next: { command: "diazo object list <bucket>", tool: "object_list" },
  });
}
