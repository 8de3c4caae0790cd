/**
 * The data dir's text form of store state: JSON with tagged values for what JSON lacks — Maps,
 * Sets, bytes and keys (exported as JWK). Promises, hashes and other live objects are left out:
 * a store's `revive` rebuilds them (src/sandbox/store.ts).
 */

type Tagged =
  | { $map: [unknown, unknown][] }
  | { $set: unknown[] }
  | { $bytes: string }
  | { $key: { jwk: JsonWebKey; algorithm: RsaHashedImportParams; usages: KeyUsage[] } };

function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

type KeyForm = Extract<Tagged, { $key: unknown }>["$key"];

/** Keys already exported: a walk stays synchronous (and fast) once every key in the state is here. */
const exported = new WeakMap<CryptoKey, KeyForm>();

async function exportKey(key: CryptoKey): Promise<void> {
  const alg = key.algorithm as RsaHashedKeyAlgorithm;
  const jwk = await crypto.subtle.exportKey("jwk", key);
  exported.set(key, { jwk, algorithm: { name: alg.name, hash: alg.hash }, usages: key.usages });
}

function encode(value: unknown, missing: CryptoKey[]): unknown {
  if (typeof value !== "object" || value === null) return typeof value === "function" ? undefined : value;
  if (value instanceof Map) {
    return { $map: [...value].map(([k, v]) => [encode(k, missing), encode(v, missing)]) } satisfies Tagged;
  }
  if (value instanceof Set) return { $set: [...value].map((v) => encode(v, missing)) } satisfies Tagged;
  if (value instanceof Uint8Array) return { $bytes: value.toBase64() } satisfies Tagged;
  if (value instanceof CryptoKey) {
    const form = exported.get(value);
    if (!form) missing.push(value);
    return form && ({ $key: form } satisfies Tagged);
  }
  if (Array.isArray(value)) return value.map((v) => encode(v, missing));
  if (!isPlain(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const k in value) {
    const e = encode((value as Record<string, unknown>)[k], missing);
    if (e !== undefined) out[k] = e;
  }
  return out;
}

/** The JSON-ready form of `value`; keys in it are exported (once each) first. */
export async function encodeState(value: unknown): Promise<unknown> {
  const missing: CryptoKey[] = [];
  const out = encode(value, missing);
  if (!missing.length) return out;
  await Promise.all(missing.map(exportKey));
  return encode(value, []);
}

/** The value `encodeState` gave the JSON-ready form of; keys are imported again. */
export async function decodeState(value: unknown): Promise<unknown> {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) out.push(await decodeState(v));
    return out;
  }
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.$map)) {
    const m = new Map();
    for (const [k, v] of o.$map as [unknown, unknown][]) m.set(await decodeState(k), await decodeState(v));
    return m;
  }
  if (Array.isArray(o.$set)) {
    const s = new Set();
    for (const v of o.$set) s.add(await decodeState(v));
    return s;
  }
  if (typeof o.$bytes === "string") return Uint8Array.fromBase64(o.$bytes);
  if (o.$key && typeof o.$key === "object") {
    const k = o.$key as KeyForm;
    return await crypto.subtle.importKey("jwk", k.jwk, k.algorithm, true, k.usages);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = await decodeState(v);
  return out;
}
