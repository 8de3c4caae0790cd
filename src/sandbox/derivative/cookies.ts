/**
 * CloudFront-style signed cookies for derivative downloads: a policy naming the download URL and
 * its expiry, signed with the sandbox's cookie key, handed out as three `Set-Cookie` headers.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import type { DerivativeStore } from "./store.ts";

/** Names of the three cookies. */
export const COOKIE_NAMES = {
  policy: "CloudFront-Policy",
  signature: "CloudFront-Signature",
  keyPairId: "CloudFront-Key-Pair-Id",
} as const;

/** CloudFront's URL-safe base64: `+` -> `-`, `=` -> `_`, `/` -> `~`. */
function cloudFrontBase64(bytes: Uint8Array): string {
  return bytes.toBase64().replaceAll("+", "-").replaceAll("=", "_").replaceAll("/", "~");
}

function fromCloudFrontBase64(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.fromBase64(text.replaceAll("-", "+").replaceAll("_", "=").replaceAll("~", "/"));
  } catch {
    return undefined;
  }
}

function sign(store: DerivativeStore, policy: string): string {
  return cloudFrontBase64(
    new Uint8Array(createHmac("sha256", store.cookieKey.secret).update(policy).digest()),
  );
}

/** The three `Set-Cookie` values granting `url` until `expiresMs` (sandbox clock), scoped to `path`. */
export function signedCookies(
  store: DerivativeStore,
  url: string,
  expiresMs: number,
  path: string,
): string[] {
  const policy = cloudFrontBase64(new TextEncoder().encode(JSON.stringify({
    Statement: [{
      Resource: url,
      Condition: { DateLessThan: { "AWS:EpochTime": Math.floor(expiresMs / 1000) } },
    }],
  })));
  const attrs = `Path=${path}; HttpOnly`;
  return [
    `${COOKIE_NAMES.policy}=${policy}; ${attrs}`,
    `${COOKIE_NAMES.signature}=${sign(store, policy)}; ${attrs}`,
    `${COOKIE_NAMES.keyPairId}=${store.cookieKey.id}; ${attrs}`,
  ];
}

function cookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/** Why a download was refused, or `"ok"`. */
export type CookieCheck = "ok" | "missing" | "denied" | "expired";

/** Checks the cookies of a request for `path` (the URL's path) at `nowMs` on the sandbox clock. */
export function checkCookies(
  store: DerivativeStore,
  cookieHeader: string | null,
  path: string,
  nowMs: number,
): CookieCheck {
  const jar = cookies(cookieHeader);
  const policy = jar.get(COOKIE_NAMES.policy), signature = jar.get(COOKIE_NAMES.signature);
  const keyPairId = jar.get(COOKIE_NAMES.keyPairId);
  if (!policy || !signature || !keyPairId) return "missing";
  const expected = new TextEncoder().encode(sign(store, policy));
  const given = new TextEncoder().encode(signature);
  if (
    keyPairId !== store.cookieKey.id || expected.length !== given.length || !timingSafeEqual(expected, given)
  ) {
    return "denied";
  }
  try {
    const statement = JSON.parse(new TextDecoder().decode(fromCloudFrontBase64(policy))).Statement?.[0];
    if (new URL(statement.Resource).pathname !== path) return "denied";
    const expires = statement.Condition?.DateLessThan?.["AWS:EpochTime"];
    if (typeof expires !== "number") return "denied";
    return nowMs >= expires * 1000 ? "expired" : "ok";
  } catch {
    return "denied";
  }
}
