/** PKCE (RFC 7636, S256) and the OAuth `state` value. */

import { base64urlOf } from "../core/bytes.ts";
import { sha256 } from "../core/sha256.ts";

/** A random code verifier of 64 URL-safe characters (43-128 allowed). */
export function codeVerifier(): string {
  return base64urlOf(crypto.getRandomValues(new Uint8Array(48)));
}

/** The S256 challenge of a verifier: base64url(sha256(verifier)). */
export function codeChallenge(verifier: string): string {
  return base64urlOf(sha256(verifier));
}

/** A random `state` of URL-safe characters (the platform allows alphanumerics, `-` and `_`). */
export function randomState(): string {
  return base64urlOf(crypto.getRandomValues(new Uint8Array(24)));
}
