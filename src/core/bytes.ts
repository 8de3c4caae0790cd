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
