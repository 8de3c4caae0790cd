/**
 * Removes secrets from text before it reaches a log, a debug trace or an error report.
 *
 * Patterns cover what the platform's traffic carries (bearer and basic credentials, JWTs, OAuth
 * fields in JSON and form bodies, signed-URL query parameters); the registry covers exact values
 * the config and auth layers know to be secret (client secret, tokens) wherever they appear.
 */

const MASK = "***";
const MIN_SECRET_LENGTH = 4;

/** Keys whose values are secret in JSON bodies and form or query strings. */
const SECRET_KEYS = [
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "code",
  "code_verifier",
  "assertion",
  "password",
  "token",
];

/** Query parameters that make a signed URL usable by anyone who sees it. */
const SIGNED_URL_KEYS = [
  "Signature",
  "X-Amz-Signature",
  "X-Amz-Credential",
  "X-Amz-Security-Token",
  "Policy",
  "Key-Pair-Id",
  "sig",
];

function alternation(words: readonly string[]): string {
  // Longest first so that `X-Amz-Signature` wins over `Signature`.
  return [...words].sort((a, b) => b.length - a.length).join("|");
}

/** `Authorization: <scheme> <credentials>` as a header line, a JSON member or a form field. */
const AUTH_HEADER = /(authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|digest|token)\s+)?([^\s"',;&]+)/gi;
/**
 * A bearer or basic credential outside an Authorization header (e.g. in an error message). It must
 * hold a digit, a capital or a base64 symbol so that prose such as "basic authentication" survives.
 */
const LOOSE_CREDENTIAL = /\b(bearer|basic)(\s+)([\w.~+/-]{8,}=*)/gi;
/** A JSON Web Token (header.payload.signature, base64url, header starting with `{"`). */
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** `"key": "value"` for a secret key (value may contain escaped quotes). */
const JSON_MEMBER = new RegExp(`("(?:${alternation(SECRET_KEYS)})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, "gi");
/** `key=value` in a form body or a query string, not part of a longer name. */
const FORM_FIELD = new RegExp(
  `(?<![\\w.-])(${alternation([...SECRET_KEYS, ...SIGNED_URL_KEYS])})=([^&\\s#"'<>]*)`,
  "gi",
);

/** Header names whose whole value is a credential. */
const SECRET_HEADERS = new Set(["cookie", "set-cookie", "x-api-key", "x-ads-token", "proxy-authorization"]);

const registry = new Set<string>();

/** Registers a value (client secret, token) to be removed from every later `redact` call. */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value === "string" && value.length >= MIN_SECRET_LENGTH) registry.add(value);
}

/** Forgets every registered value, so that a run in a process that ran others starts as a new process would. */
export function forgetSecrets(): void {
  registry.clear();
}

/** The values registered with `registerSecret`, longest first. */
export function knownSecrets(): string[] {
  return [...registry].sort((a, b) => b.length - a.length);
}

function replaceExact(text: string, secrets: readonly string[]): string {
  const variants = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    variants.add(s);
    // The same secret as it appears in a form body or a query string.
    const encoded = encodeURIComponent(s);
    if (encoded !== s) variants.add(encoded);
  }
  let out = text;
  for (const v of [...variants].sort((a, b) => b.length - a.length)) {
    if (out.includes(v)) out = out.split(v).join(MASK);
  }
  return out;
}

/**
 * Returns `text` with credentials replaced by `***` (key names and auth schemes are kept).
 * Removes the registered secrets as well as the extra `secrets` given.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = replaceExact(text, [...secrets, ...registry]);
  out = out.replace(AUTH_HEADER, (_m, prefix: string, scheme: string | undefined) => {
    return `${prefix}${scheme ? `${scheme} ` : ""}${MASK}`;
  });
  out = out.replace(LOOSE_CREDENTIAL, (m: string, scheme: string, space: string, value: string) => {
    return /[A-Z0-9+/=]/.test(value) ? `${scheme}${space}${MASK}` : m;
  });
  out = out.replace(JWT, MASK);
  out = out.replace(JSON_MEMBER, (_m, open: string, _v: string, close: string) => `${open}${MASK}${close}`);
  out = out.replace(FORM_FIELD, (_m, key: string) => `${key}=${MASK}`);
  return out;
}

/** Returns the headers as a plain object with credential values replaced by `***`. */
export function redactHeaders(
  h: Headers | Record<string, string>,
  secrets: readonly string[] = [],
): Record<string, string> {
  // Not `instanceof Headers`: naming the class makes Deno load it (wire.ts's headers are iterable too).
  const entries = Symbol.iterator in h ? [...(h as Headers)] : Object.entries(h);
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (lower === "authorization" || lower === "proxy-authorization") {
      const scheme = /^(\S+)\s+\S/.exec(value.trim())?.[1];
      out[name] = scheme ? `${scheme} ${MASK}` : MASK;
    } else if (SECRET_HEADERS.has(lower)) {
      out[name] = MASK;
    } else {
      out[name] = redact(value, secrets);
    }
  }
  return out;
}
