/** Service accounts: a JWT assertion signed with the account's private key (JWT-bearer grant). */
import { DiazoError } from "../core/errors.ts";
import { base64urlOf } from "../core/bytes.ts";

/** Audience of the assertion: the token endpoint. */
export const ASSERTION_AUDIENCE = "https://developer.api.autodesk.com/authentication/v2/token";

/** Reads the DER bytes of a PKCS#8 PEM private key. */
export function pemToDer(pem: string): Uint8Array {
  const m = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem);
  if (!m) {
    throw new DiazoError("usage", {
      params: {
        detail: "the key file is not a PKCS#8 PEM private key",
        hint:
          "Use the private key downloaded when the service account key was created (-----BEGIN PRIVATE KEY-----).",
      },
    });
  }
  return Uint8Array.from(atob(m[1].replace(/\s+/g, "")), (c) => c.charCodeAt(0));
}

/** Builds and signs the RS256 assertion of a service account. */
export async function signAssertion(
  p: {
    clientId: string;
    serviceAccountId: string;
    keyId?: string;
    pem: string;
    scopes: readonly string[];
    now?: number;
  },
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "pkcs8",
    pemToDer(p.pem) as BufferSource,
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const now = Math.floor((p.now ?? Date.now()) / 1000);
  const enc = (o: unknown) => base64urlOf(new TextEncoder().encode(JSON.stringify(o)));
  const header = enc({ alg: "RS256", typ: "JWT", ...(p.keyId ? { kid: p.keyId } : {}) });
  const payload = enc({
    iss: p.clientId,
    sub: p.serviceAccountId,
    aud: ASSERTION_AUDIENCE,
    exp: now + 300,
    scope: [...p.scopes],
  });
  const sig = await crypto.subtle.sign(
    "RSASSA-PKCS1-v1_5",
    key,
    new TextEncoder().encode(`${header}.${payload}`),
  );
  return `${header}.${payload}.${base64urlOf(new Uint8Array(sig))}`;
}
