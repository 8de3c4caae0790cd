/**
 * Secure Service Accounts: creating an account with an RSA key pair (the private half is handed
 * out once as PKCS#8 PEM and never kept), and checking the JWT assertions signed with it.
 */

import { decodeJwtUnverified, verifyJwt } from "./jwt.ts";
import { nowMs, nowSeconds } from "../clock.ts";
import type { AuthStore, ServiceAccount } from "./store.ts";
import { SERVICE_ACCOUNT_EMAIL_DOMAIN } from "./users.ts";

/** `aud` an assertion must carry: the token endpoint. */
export const ASSERTION_AUDIENCE = "https://developer.api.autodesk.com/authentication/v2/token";

/** How far ahead an assertion's `exp` may lie. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 3600;

/** Names the platform accepts: 5-100 characters, alphanumerics and dashes. */
export const SERVICE_ACCOUNT_NAME = /^(?=.*[A-Za-z0-9])[A-Za-z0-9-]{5,100}$/;

/** A new service account and the one copy of its private key. */
export interface CreatedServiceAccount {
  account: ServiceAccount;
  keyId: string;
  /** PKCS#8, PEM-armoured. */
  privateKey: string;
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function accountId(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => ID_ALPHABET[b % 36]).join("");
}

function pem(label: string, der: Uint8Array): string {
  const lines = der.toBase64().match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** Creates a service account of `clientId` with one RS256 key. */
export async function createServiceAccount(
  auth: AuthStore,
  clientId: string,
  name: string,
): Promise<CreatedServiceAccount> {
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      hash: "SHA-256",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
    },
    true,
    ["sign", "verify"],
  );
  const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const keyId = crypto.randomUUID();
  let id = accountId();
  while (auth.serviceAccounts.has(id)) id = accountId();
  const account: ServiceAccount = {
    serviceAccountId: id,
    name,
    email: `${name}@${clientId}.${SERVICE_ACCOUNT_EMAIL_DOMAIN}`,
    clientId,
    createdAt: nowMs(auth.clock),
    status: "ENABLED",
    keys: [{ kid: keyId, publicKey: pair.publicKey }],
  };
  auth.serviceAccounts.set(id, account);
  return { account, keyId, privateKey: pem("PRIVATE KEY", der) };
}

/** A checked assertion: the account it speaks for and the scopes it asks for. */
export type AssertionCheck =
  | { ok: true; account: ServiceAccount; scopes: string[] }
  | { ok: false; description: string };

function fail(description: string): AssertionCheck {
  return { ok: false, description };
}

/**
 * Checks an assertion presented by `clientId`: form, `iss`, `sub` (an enabled account of that app),
 * `aud`, `exp` on the sandbox clock, `scope`, and the RS256 signature by one of the account's keys.
 */
export async function checkAssertion(
  auth: AuthStore,
  clientId: string,
  assertion: string,
): Promise<AssertionCheck> {
  const decoded = decodeJwtUnverified(assertion);
  if (!decoded) return fail("The assertion is not a well-formed JWT");
  const p = decoded.payload;
  if (p.iss !== clientId) return fail("The assertion's iss must be the client id of the calling app");
  const account = typeof p.sub === "string" ? auth.serviceAccounts.get(p.sub) : undefined;
  if (!account || account.clientId !== clientId) {
    return fail("The assertion's sub is not a service account of this app");
  }
  if (account.status !== "ENABLED") return fail("The service account is not enabled");
  const aud = Array.isArray(p.aud) ? p.aud : [p.aud];
  if (!aud.includes(ASSERTION_AUDIENCE)) return fail(`The assertion's aud must be ${ASSERTION_AUDIENCE}`);
  const now = nowSeconds(auth.clock);
  if (typeof p.exp !== "number" || !Number.isFinite(p.exp)) return fail("The assertion has no exp");
  if (p.exp <= now) return fail("The assertion has expired");
  if (p.exp > now + MAX_ASSERTION_LIFETIME_SECONDS) {
    return fail("The assertion's exp is more than one hour ahead");
  }
  const scope = p.scope;
  if (!Array.isArray(scope) || scope.length === 0 || !scope.every((s) => typeof s === "string" && s !== "")) {
    return fail("The assertion's scope must be a non-empty array of scopes");
  }
  const verified = await verifyJwt(account.keys, assertion, { kidOptional: true });
  if (!verified.ok) {
    return fail(
      verified.reason === "unknown_kid"
        ? "The assertion's kid is not a key of the service account"
        : "The assertion's signature is not valid",
    );
  }
  return { ok: true, account, scopes: [...new Set(scope as string[])] };
}
