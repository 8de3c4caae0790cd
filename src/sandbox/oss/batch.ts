/**
 * OSS batch operations (oss.yaml): signed S3 upload URLs, upload completion and signed S3 download
 * URLs for up to 25 objects of one bucket per request. A malformed batch is refused as a whole
 * (400); otherwise the answer is 200 with one result per object key, a refused object carrying
 * `status: "error"` and the reason its single-object operation would have given.
 */

import type { RequestContext } from "../context.ts";
import { ossError, SandboxError } from "../errors.ts";
import { json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import { ownBucket } from "./buckets.ts";
import {
  checkedUserMetadata,
  completeOne,
  downloadAnswer,
  intParam,
  isRecord,
  MAX_URLS_PER_CALL,
  uploadUrls,
} from "./objects.ts";
import { findObject } from "./object_store.ts";
import { MAX_PART_NUMBER } from "./uploads.ts";

/** Most objects one batch request names (oss.yaml). */
export const MAX_BATCH_ITEMS = 25;

type Item = Record<string, unknown> & { objectKey: string };

/** The batch's `requests`, each an object with an `objectKey`; throws 400 for anything else. */
async function batchItems(req: Request): Promise<Item[]> {
  const body = await readJson(req);
  const items = isRecord(body) ? body.requests : undefined;
  if (!Array.isArray(items) || items.length === 0) {
    throw ossError(400, "The body must be a JSON object with a non-empty 'requests' list");
  }
  if (items.length > MAX_BATCH_ITEMS) {
    throw ossError(400, `A batch names at most ${MAX_BATCH_ITEMS} objects, got ${items.length}`);
  }
  if (!items.every((i) => isRecord(i) && typeof i.objectKey === "string" && i.objectKey !== "")) {
    throw ossError(400, "Every element of 'requests' needs an 'objectKey'");
  }
  return items as Item[];
}

/** Runs `one` per item: its answer, or the refusal it threw as that item's error result. */
async function perItem(
  items: Item[],
  one: (item: Item) => Promise<Record<string, unknown>> | Record<string, unknown>,
): Promise<Response> {
  const results: Record<string, unknown> = {};
  for (const item of items) {
    try {
      results[item.objectKey] = await one(item);
    } catch (e) {
      if (!(e instanceof SandboxError)) throw e;
      const f = e.fields;
      results[item.objectKey] = { status: "error", reason: "reason" in f ? f.reason : e.message };
    }
  }
  return json(200, { results });
}

/** An optional integer field of an item within bounds; throws 400 (for that item) otherwise. */
function intField(item: Item, name: string, min: number, max: number, fallback: number): number {
  const v = item[name];
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || (v as number) < min || (v as number) > max) {
    throw ossError(400, `Valid field '${name}' must be an integer between ${min} and ${max}`);
  }
  return v as number;
}

function optionalText(item: Item, name: string): string | undefined {
  const v = item[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw ossError(400, `Valid field '${name}' must be a string`);
  return v;
}

async function batchSignedS3Upload(req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  const minutes = intParam(ctx, "minutesExpiration", 1, 60, 2);
  const items = await batchItems(req);
  return perItem(items, (item) =>
    uploadUrls(ctx, bucket, {
      objectKey: item.objectKey,
      parts: intField(item, "parts", 1, MAX_URLS_PER_CALL, 1),
      firstPart: intField(item, "firstPart", 1, MAX_PART_NUMBER, 1),
      uploadKey: optionalText(item, "uploadKey"),
      minutes,
    }));
}

async function batchCompleteUpload(req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  const items = await batchItems(req);
  return perItem(items, (item) =>
    completeOne(ctx, bucket, item.objectKey, item, {
      contentType: optionalText(item, "x-ads-meta-Content-Type"),
      contentDisposition: optionalText(item, "x-ads-meta-Content-Disposition"),
      userDefinedMetadata: checkedUserMetadata(optionalText(item, "x-ads-user-defined-metadata")),
    }));
}

async function batchSignedS3Download(req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  const minutes = intParam(ctx, "minutesExpiration", 1, 60, 2);
  const items = await batchItems(req);
  return perItem(items, (item) => {
    const obj = findObject(ctx.sandbox.oss, bucket.bucketKey, item.objectKey);
    if (!obj) throw ossError(404, "Object not found");
    return downloadAnswer(ctx, obj, minutes, {
      contentType: optionalText(item, "response-content-type"),
      contentDisposition: optionalText(item, "response-content-disposition"),
    });
  });
}

const OBJECTS = "/oss/v2/buckets/:bucketKey/objects";

/** Routes of the OSS batch operations, with the scopes of each operation's `security` in oss.yaml. */
export const batchRoutes: readonly Route[] = [
  {
    method: "POST",
    pattern: `${OBJECTS}/batchsigneds3upload`,
    scopes: ["data:write", "data:create"],
    handler: batchSignedS3Upload,
  },
  {
    method: "POST",
    pattern: `${OBJECTS}/batchcompleteupload`,
    scopes: ["data:write", "data:create"],
    handler: batchCompleteUpload,
  },
  {
    method: "POST",
    pattern: `${OBJECTS}/batchsigneds3download`,
    scopes: ["data:read"],
    handler: batchSignedS3Download,
  },
];
