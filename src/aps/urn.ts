/**
 * Object ids and Model Derivative URNs: a raw `urn:<nid>:<rest>` and its URL-safe
 * base64 form without padding, which the Model Derivative API takes in its paths and bodies.
 */
import { CATALOG, DiazoError } from "../core/errors.ts";
import { fieldError } from "../core/field_error.ts";
import type { Urn } from "./ids.ts";

/**
 * The longest URN accepted (raw or base64), in characters: an OSS object id of the longest bucket
 * and object keys, base64-encoded, stays well below it.
 */
export const MAX_URN_LENGTH = 4096;

/** Prefix of the object id of an OSS object. */
const OSS_OBJECT_PREFIX = "urn:adsk.objects:os.object:";

/** A raw URN: `urn:`, a namespace id, `:`, then at least one more character. */
const RAW_URN = /^urn:[A-Za-z0-9][A-Za-z0-9.\-]*:\S/;

/** Control characters never belong in a URN (a key with a newline is a pasting mistake). */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Standard or URL-safe base64, padded or not. */
const BASE64 = /^[A-Za-z0-9+/\-_]+={0,2}$/;

/** objectId of an OSS object. */
export function objectIdOf(bucketKey: string, objectKey: string): string {
  return `${OSS_OBJECT_PREFIX}${bucketKey}/${objectKey}`;
}

/** URL-safe base64 without padding, as the Model Derivative API wants. */
export function encodeUrn(raw: string): Urn {
  return encodeUrns([raw])[0];
}

/** The base64 form, unpadded: a group of three bytes is four characters, a last one or two are two or three. */
const BASE64URL = { alphabet: "base64url", omitPadding: true } as const;

/**
 * encodeUrn of every id at once, in order. A list of 1,000 objects encodes 1,000 ids: their UTF-8 bytes
 * are laid end to end, each id starting on a group of three bytes (NUL bytes between them), and
 * encoded by one `toBase64`; an id's form is then the first characters of its groups, since a zero
 * byte after a last byte or two changes none of the characters those alone give. One `btoa` per id
 * cost such a list millions of instructions (ARCHITECTURE.md "Start-up" gives what this saves).
 */
export function encodeUrns(raws: readonly string[]): Urn[] {
  let text = "";
  const lengths: number[] = [];
  for (const raw of raws) {
    text += raw;
    lengths.push(raw.length);
    text += FILL[raw.length % 3];
  }
  // Byte offsets are string offsets only when every character is one byte.
  if (!ASCII.test(text)) {
    return raws.map((raw) => new TextEncoder().encode(raw).toBase64(BASE64URL) as Urn);
  }
  const all = new TextEncoder().encode(text).toBase64(BASE64URL);
  const urns: Urn[] = [];
  let at = 0;
  for (const length of lengths) {
    urns.push(all.slice(at, at + Math.ceil((length * 4) / 3)) as Urn);
    at += Math.ceil(length / 3) * 4;
  }
  return urns;
}

/** The NUL bytes that bring an id of length n to a group of three, by n % 3. */
const FILL = ["", "\0\0", "\0"];

/** Text of code points below 128 only. */
// deno-lint-ignore no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;

/** A URN parsed from input: the base64 form, the raw object id, and the bucket and key of an OSS object. */
export interface ParsedUrn {
  urn: Urn;
  objectId: string;
  bucketKey?: string;
  objectKey?: string;
}

/** Accepts a raw `urn:...` or base64 (standard or URL-safe, padded or not); throws DiazoError("invalid_urn") otherwise. */
export function parseUrn(input: string): ParsedUrn {
  const field = "urn";
  const text = input.trim();
  if (text.length > MAX_URN_LENGTH) {
    throw fieldError({
      field,
      problem: `invalid URN '${
        text.slice(0, 40)
      }...': it has ${text.length} characters (at most ${MAX_URN_LENGTH})`,
      help: CATALOG.invalid_urn.hint,
    });
  }
  const objectId = RAW_URN.test(text) ? text : decodeBase64Urn(text);
  if (objectId === undefined || !RAW_URN.test(objectId) || CONTROL.test(objectId)) {
    const problem = CATALOG.invalid_urn.message;
    throw new DiazoError("invalid_urn", {
      params: { input: text },
      field: { field, problem, help: CATALOG.invalid_urn.hint },
    });
  }
  const result: ParsedUrn = {
    urn: encodeUrn(objectId),
    objectId,
  };
  if (objectId.startsWith(OSS_OBJECT_PREFIX)) {
    const rest = objectId.slice(OSS_OBJECT_PREFIX.length);
    const slash = rest.indexOf("/");
    if (slash > 0 && slash < rest.length - 1) {
      result.bucketKey = rest.slice(0, slash);
      result.objectKey = rest.slice(slash + 1);
    }
  }
  return result;
}

/** Decodes base64 of either alphabet to UTF-8 text, or undefined when it is not valid base64 of UTF-8. */
function decodeBase64Urn(text: string): string | undefined {
  if (!BASE64.test(text) || text.length % 4 === 1) return undefined;
  const standard = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  const padded = standard + "=".repeat((4 - (standard.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
