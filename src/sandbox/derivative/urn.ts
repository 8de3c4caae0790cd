/**
 * The URNs of Model Derivative: a source design's base64 URN (of an OSS object id) and the
 * `urn:adsk.viewing:fs.file:` URNs of its derivatives.
 */

import { encodeUrn } from "../../aps/urn.ts";

/** Prefix of an OSS object id. */
export const OBJECT_URN_PREFIX = "urn:adsk.objects:os.object:";

/** A decoded source URN. */
export interface SourceUrn {
  /** The URN in its canonical form: URL-safe base64 without padding. */
  urn: string;
  /** The decoded id, e.g. `urn:adsk.objects:os.object:bucket/key.obj`. */
  objectId: string;
  bucketKey: string;
  objectKey: string;
}

/** The text of a base64 URN, accepting URL-safe and standard alphabets, padded or not. */
export function decodeBase64Urn(urn: string): string | undefined {
  const trimmed = urn.trim().replace(/=+$/, "");
  if (trimmed === "" || !/^[A-Za-z0-9+/_-]+$/.test(trimmed) || trimmed.length % 4 === 1) return undefined;
  const normal = trimmed.replaceAll("+", "-").replaceAll("/", "_");
  try {
    const bytes = Uint8Array.fromBase64(normal, { alphabet: "base64url" });
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Decodes a source design URN; undefined when it is not base64 or not an OSS object id. */
export function decodeSourceUrn(urn: string): SourceUrn | undefined {
  const objectId = decodeBase64Urn(urn);
  if (!objectId?.startsWith(OBJECT_URN_PREFIX)) return undefined;
  const path = objectId.slice(OBJECT_URN_PREFIX.length);
  const slash = path.indexOf("/");
  if (slash <= 0 || slash === path.length - 1) return undefined;
  return {
    urn: encodeUrn(objectId),
    objectId,
    bucketKey: path.slice(0, slash),
    objectKey: path.slice(slash + 1),
  };
}

/** The URN key under which a manifest is kept: the canonical form when the URN decodes, else as given. */
export function manifestKey(urn: string): string {
  const text = decodeBase64Urn(urn);
  return text === undefined ? urn : encodeUrn(text);
}

/** The URN of a derivative file of a design, e.g. `urn:adsk.viewing:fs.file:<urn>/output/model.obj`. */
export function derivativeUrn(sourceUrn: string, path: string): string {
  return `urn:adsk.viewing:fs.file:${sourceUrn}/output/${path}`;
}
