/** Byte-array helpers shared by the HTTP transport and the sandbox's file builders. */

/** The bytes of `parts`, in order, in one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Bytes as lower-case hexadecimal, two digits each. */
export function hexOf(bytes: Uint8Array | ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Bytes as a string of as many code units, each 0–255 (an "isomorphic decode"): how fetch shows
 * header values, which are bytes, not UTF-8 text.
 */
export function byteStringOf(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.length; at += 8192) {
    text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  }
  return text;
}

/** Bytes in unpadded base64url (RFC 4648 §5): URL-safe random tokens, cursors, PKCE values. */
export function base64urlOf(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}
