/** The `<bucketKey>` argument the bucket and object commands share (command/decl.ts), with what its tools say of it. */
import { parseBucketKey } from "../../aps/ids.ts";
import type { ArgumentDecl } from "../../command/decl.ts";

/** What a tool's bucket key says to a model (mcp/derive.ts). */
export const BUCKET_KEY_TEXT =
  "Bucket key: 3-128 characters of lower-case letters, digits, '-', '_' and '.', e.g. myco-models.";

/** The `<bucketKey>` argument of bucket and object commands. */
export const BUCKET_ARG: ArgumentDecl = {
  spec: "<bucketKey>",
  description: "the bucket key",
  parse: parseBucketKey,
  complete: "bucket",
  toolDescription: BUCKET_KEY_TEXT,
};
