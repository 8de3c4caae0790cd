/**
 * The signature of a webhook callback: `x-adsk-signature: sha1hash=<hex>`, the
 * lower-case hex HMAC-SHA1 of the exact body bytes keyed with the hook's (or the app's) secret.
 * The sandbox signs with it; `webhook test` signs and `webhook verify` checks with it.
 */
import { hexOf } from "../core/bytes.ts";

/** The header that carries the signature. */
export const SIGNATURE_HEADER = "x-adsk-signature";

/** The header that carries the delivery's id. */
export const DELIVERY_ID_HEADER = "x-adsk-delivery-id";

/** The prefix of the header's value. */
export const SIGNATURE_PREFIX = "sha1hash=";

const encoder = new TextEncoder();

function bytesOf(body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof body === "string" ? encoder.encode(body) : new Uint8Array(body);
}

/** The header value for `body` signed with `secret`: `sha1hash=` and the hex HMAC-SHA1. */
export async function signWebhookBody(secret: string, body: string | Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    {
      name: "HMAC",
      hash: "SHA-1",
    },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, bytesOf(body)));
  return SIGNATURE_PREFIX + hexOf(mac);
}

/**
 * True when `signature` (with or without the `sha1hash=` prefix, any hex case) is the signature of
 * `body` with `secret`; compared in constant time.
 */
export async function verifyWebhookBody(
  secret: string,
  body: string | Uint8Array,
  signature: string,
): Promise<boolean> {
  const expected = await signWebhookBody(secret, body);
  const trimmed = signature.trim().toLowerCase();
  const given = trimmed.startsWith(SIGNATURE_PREFIX) ? trimmed : SIGNATURE_PREFIX + trimmed;
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}
