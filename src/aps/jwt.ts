/** Decoding (not verifying) JSON Web Tokens, for inspection and display. */
import { DiazoError } from "../core/errors.ts";

/** A decoded JWT. */
export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

function decodePart(part: string, which: string): Record<string, unknown> {
  try {
    const b64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
    const text = new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
    const v = JSON.parse(text);
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error();
    return v;
  } catch {
    throw new DiazoError("invalid_token", {
      params: { detail: `its ${which} is not base64url-encoded JSON` },
    });
  }
}

/** Decodes a JWT's header and payload; a malformed token is the catalog's invalid_token (exit 2). */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.trim().split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)) || !parts[0] || !parts[1]) {
    throw new DiazoError("invalid_token", {
      params: { detail: `expected three base64url parts, got ${parts.length}` },
    });
  }
  return { header: decodePart(parts[0], "header"), payload: decodePart(parts[1], "payload") };
}

/** Scopes of a token payload (an array in platform tokens, a string elsewhere). */
export function jwtScopes(payload: Record<string, unknown>): string[] {
  const s = payload.scope;
  if (Array.isArray(s)) return s.map(String);
  if (typeof s === "string") return s.split(/\s+/).filter(Boolean);
  return [];
}

/** The user id a 3-legged token carries, or null (2-legged token, or not a JWT). */
export function jwtUserId(token: string): string | null {
  try {
    const id = decodeJwt(token).payload.userid;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}
