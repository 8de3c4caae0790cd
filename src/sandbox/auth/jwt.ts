/**
 * RS256 JSON Web Tokens with WebCrypto: one signing key per sandbox run, its JWKS, sign and verify.
 */
import { base64urlOf } from "../../core/bytes.ts";

const ALGORITHM = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A public key as published in the JWKS. */
export interface PublicJwk {
  kid: string;
  kty: "RSA";
  use: "sig";
  alg: "RS256";
  n: string;
  e: string;
}

/** The sandbox's RSA key pair and its key id. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: PublicJwk;
}

/** A decoded, signature-checked token. */
export interface VerifiedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** Why a token failed verification. */
export type JwtFailure = "malformed" | "unknown_kid" | "bad_signature";

/** Encodes bytes or text as unpadded base64url. */
export function base64UrlEncode(data: Uint8Array | string): string {
  return base64urlOf(typeof data === "string" ? encoder.encode(data) : data);
}

/** Decodes unpadded base64url, or returns undefined when it is not base64url. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    return Uint8Array.fromBase64(text, { alphabet: "base64url" });
  } catch {
    return undefined;
  }
}

/** Generates a 2048-bit RS256 key pair; its `kid` is the RFC 7638 thumbprint of the public key. */
export async function generateSigningKey(): Promise<SigningKey> {
  const pair = await crypto.subtle.generateKey(
    { ...ALGORITHM, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ["sign", "verify"],
  );
  const exported = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const n = exported.n ?? "";
  const e = exported.e ?? "";
  // RFC 7638: members in lexicographic order, no whitespace.
  const thumbprint = await crypto.subtle.digest(
    "SHA-256",
    encoder.encode(JSON.stringify({ e, kty: "RSA", n })),
  );
  const kid = base64UrlEncode(new Uint8Array(thumbprint));
  return {
    kid,
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    jwk: { kid, kty: "RSA", use: "sig", alg: "RS256", n, e },
  };
}

/** Signs `payload` as a compact RS256 JWT; `header` adds fields beside `alg` and `kid`. */
export async function signJwt(
  key: SigningKey,
  payload: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const head = base64UrlEncode(JSON.stringify({ alg: "RS256", kid: key.kid, ...header }));
  const body = base64UrlEncode(JSON.stringify(payload));
  const signature = await crypto.subtle.sign(ALGORITHM, key.privateKey, encoder.encode(`${head}.${body}`));
  return `${head}.${body}.${base64UrlEncode(new Uint8Array(signature))}`;
}

function parseObject(part: string): Record<string, unknown> | undefined {
  const bytes = base64UrlDecode(part);
  if (!bytes) return undefined;
  try {
    const value = JSON.parse(decoder.decode(bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a compact JWT's header and payload without checking its signature; undefined when malformed. */
export function decodeJwtUnverified(token: string): VerifiedJwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const header = parseObject(parts[0]);
  const payload = parseObject(parts[1]);
  return header && payload ? { header, payload } : undefined;
}

/** A public key that can verify tokens, named by its key id. */
export interface VerifyingKey {
  kid: string;
  publicKey: CryptoKey;
}

/**
 * Checks a compact JWT's form, key id and RS256 signature against `keys` (claims are not checked).
 * With `kidOptional`, a header without `kid` is tried against every key.
 */
export async function verifyJwt(
  keys: readonly VerifyingKey[],
  token: string,
  opts: { kidOptional?: boolean } = {},
): Promise<{ ok: true; jwt: VerifiedJwt } | { ok: false; reason: JwtFailure }> {
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => p === "")) return { ok: false, reason: "malformed" };
  const header = parseObject(parts[0]);
  const payload = parseObject(parts[1]);
  const signature = base64UrlDecode(parts[2]);
  if (!header || !payload || !signature || header.alg !== "RS256") return { ok: false, reason: "malformed" };
  const candidates = header.kid === undefined && opts.kidOptional
    ? keys
    : keys.filter((k) => k.kid === header.kid);
  if (candidates.length === 0) return { ok: false, reason: "unknown_kid" };
  const signed = encoder.encode(`${parts[0]}.${parts[1]}`);
  for (const key of candidates) {
    if (await crypto.subtle.verify(ALGORITHM, key.publicKey, signature, signed)) {
      return { ok: true, jwt: { header, payload } };
    }
  }
  return { ok: false, reason: "bad_signature" };
}

/** The JWKS document publishing `keys`. */
export function jwks(keys: readonly SigningKey[]): { keys: PublicJwk[] } {
  return { keys: keys.map((k) => ({ ...k.jwk })) };
}
