/** PKCE (RFC 7636, S256) and the OAuth `state` value. */

import { base64urlOf } from "../core/bytes.ts";

/** A random code verifier of 64 URL-safe characters (43-128 allowed). */
export function codeVerifier(): string {
  return base64urlOf(crypto.getRandomValues(new Uint8Array(48)));
}

/** The S256 challenge of a verifier: base64url(sha256(verifier)). */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64urlOf(new Uint8Array(digest));
}

/** A random `state` of URL-safe characters (the platform allows alphanumerics, `-` and `_`). */
export function randomState(): string {
  return base64urlOf(crypto.getRandomValues(new Uint8Array(24)));
}
