/**
 * The Windows Credential Manager through Deno FFI on advapi32 (`CredWriteW`, `CredReadW`,
 * `CredDeleteW`, `CredFree`): generic credentials, target `service:account`, a UTF-8 blob.
 * Needs `--allow-ffi`; without it the keychain is simply unavailable.
 */
import type { Keychain } from "./keychain_types.ts";
import { KeychainUnavailable } from "./keychain_run.ts";

/** CRED_TYPE_GENERIC. */
export const CRED_TYPE_GENERIC = 1;
/** CRED_PERSIST_LOCAL_MACHINE: survives logoff, stays on this machine. */
export const CRED_PERSIST_LOCAL_MACHINE = 2;
/** CRED_MAX_CREDENTIAL_BLOB_SIZE. */
export const MAX_BLOB_BYTES = 5 * 512;
/** Byte offsets in a 64-bit CREDENTIALW. */
export const CREDENTIALW = {
  type: 4,
  targetName: 8,
  blobSize: 32,
  blob: 40,
  persist: 48,
  userName: 72,
  size: 80,
} as const;

/** The credential's target name. */
export function credentialTarget(service: string, account: string): string {
  return `${service}:${account}`;
}

/** A NUL-terminated UTF-16LE string, as LPCWSTR wants it. */
export function utf16z(s: string): Uint8Array {
  const out = new Uint8Array((s.length + 1) * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < s.length; i++) view.setUint16(i * 2, s.charCodeAt(i), true);
  return out;
}

/** A CREDENTIALW for `CredWriteW`, given the addresses of its strings and blob. */
export function encodeCredential(
  p: { target: bigint; user: bigint; blob: bigint; blobSize: number },
): Uint8Array {
  const out = new Uint8Array(CREDENTIALW.size);
  const v = new DataView(out.buffer);
  v.setUint32(CREDENTIALW.type, CRED_TYPE_GENERIC, true);
  v.setBigUint64(CREDENTIALW.targetName, p.target, true);
  v.setUint32(CREDENTIALW.blobSize, p.blobSize, true);
  v.setBigUint64(CREDENTIALW.blob, p.blob, true);
  v.setUint32(CREDENTIALW.persist, CRED_PERSIST_LOCAL_MACHINE, true);
  v.setBigUint64(CREDENTIALW.userName, p.user, true);
  return out;
}

/** The blob's size and address in a CREDENTIALW returned by `CredReadW`. */
export function decodeCredential(struct: ArrayBufferLike): { blobSize: number; blob: bigint } {
  const v = new DataView(struct);
  return { blobSize: v.getUint32(CREDENTIALW.blobSize, true), blob: v.getBigUint64(CREDENTIALW.blob, true) };
}

const NOT_FOUND = 1168;
const REASONS: Record<number, string> = {
  5: "access to the Credential Manager was denied",
  1312: "this logon session cannot keep credentials (e.g. a service or network logon)",
};

/** What a `GetLastError` code after a failed Cred* call means: "not-found", or a reason. */
export function credentialError(code: number): "not-found" | string {
  return code === NOT_FOUND ? "not-found" : REASONS[code] ?? `Credential Manager error ${code}`;
}

const ADVAPI = {
  CredWriteW: { parameters: ["buffer", "u32"], result: "i32" },
  CredReadW: { parameters: ["buffer", "u32", "u32", "buffer"], result: "i32" },
  CredDeleteW: { parameters: ["buffer", "u32", "u32"], result: "i32" },
  CredFree: { parameters: ["pointer"], result: "void" },
} as const;
const KERNEL = { GetLastError: { parameters: [], result: "u32" } } as const;

interface Libs {
  advapi: Deno.DynamicLibrary<typeof ADVAPI>["symbols"];
  lastError: () => number;
}

let libs: Libs | undefined;

function open(): Libs {
  if (libs) return libs;
  try {
    const advapi = Deno.dlopen("advapi32.dll", ADVAPI).symbols;
    const kernel = Deno.dlopen("kernel32.dll", KERNEL).symbols;
    return libs = { advapi, lastError: () => kernel.GetLastError() };
  } catch (e) {
    throw new KeychainUnavailable(`the Credential Manager cannot be reached: ${(e as Error).message}`);
  }
}

const address = (buf: Uint8Array): bigint => BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(buf)));

// Buffers whose addresses are inside a struct handed to the OS must stay reachable until the call
// returns; a module-level reference guarantees that.
const pinned = new Set<Uint8Array[]>();

function settle<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e);
  }
}

function failure(l: Libs): KeychainUnavailable | "not-found" {
  const meaning = credentialError(l.lastError());
  return meaning === "not-found" ? meaning : new KeychainUnavailable(meaning);
}

function read(target: string): string | null {
  const l = open();
  const out = new BigUint64Array(1);
  if (!l.advapi.CredReadW(utf16z(target), CRED_TYPE_GENERIC, 0, out)) {
    const f = failure(l);
    if (f === "not-found") return null;
    throw f;
  }
  const cred = Deno.UnsafePointer.create(out[0]);
  if (!cred) throw new KeychainUnavailable("CredReadW returned no credential");
  try {
    const { blob, blobSize } = decodeCredential(
      Deno.UnsafePointerView.getArrayBuffer(cred, CREDENTIALW.size),
    );
    const blobPtr = Deno.UnsafePointer.create(blob);
    const bytes = blobPtr && blobSize > 0
      ? new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(blobPtr, blobSize)).slice()
      : new Uint8Array();
    return new TextDecoder().decode(bytes);
  } finally {
    l.advapi.CredFree(cred);
  }
}

function write(target: string, account: string, secret: string): void {
  const l = open();
  const blob = new TextEncoder().encode(secret);
  if (blob.length > MAX_BLOB_BYTES) throw new KeychainUnavailable(`secret too long (${blob.length} bytes)`);
  const strings = [utf16z(target), utf16z(account), blob.length ? blob : new Uint8Array(1)];
  pinned.add(strings);
  try {
    const [t, u, b] = strings.map(address);
    if (!l.advapi.CredWriteW(encodeCredential({ target: t, user: u, blob: b, blobSize: blob.length }), 0)) {
      const f = failure(l);
      throw f === "not-found" ? new KeychainUnavailable("CredWriteW failed") : f;
    }
  } finally {
    pinned.delete(strings);
  }
}

function remove(target: string): boolean {
  const l = open();
  if (l.advapi.CredDeleteW(utf16z(target), CRED_TYPE_GENERIC, 0)) return true;
  const f = failure(l);
  if (f === "not-found") return false;
  throw f;
}

/** The Windows Credential Manager backend. */
export function windowsKeychain(): Keychain {
  return {
    name: "windows-credential-manager",
    get: (service, account) => settle(() => read(credentialTarget(service, account))),
    set: (service, account, secret) =>
      settle(() => write(credentialTarget(service, account), account, secret)),
    delete: (service, account) => settle(() => remove(credentialTarget(service, account))),
  };
}
