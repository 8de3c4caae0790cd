/**
 * A sandbox for a test, cheap to start. Every sandbox of the test run signs with one RSA key: a new
 * 2048-bit key costs 80–350 ms of CPU, and well over a hundred test files start a sandbox. The first
 * file to need the key generates it and leaves it (0600, atomically) in the temp dir for the others.
 * Loads the sandbox only (not the CLI), so that sandbox tests may use it too.
 */
import os from "node:os";
import path from "node:path";
import {
  base64UrlEncode,
  generateSigningKey,
  type PublicJwk,
  type SigningKey,
} from "../../src/sandbox/auth/jwt.ts";
import type { RequestLogEntry } from "../../src/sandbox/request_log.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";

const ALGORITHM = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

/** The key file of this user's test runs; a file someone else owns is never used. */
function keyFile(): string {
  return path.join(os.tmpdir(), `diazo-test-signing-key-${Deno.uid() ?? "user"}.json`);
}

async function readKey(file: string): Promise<SigningKey | undefined> {
  try {
    const info = await Deno.stat(file);
    if (Deno.uid() !== null && info.uid !== Deno.uid()) return undefined;
    const saved = JSON.parse(await Deno.readTextFile(file)) as { private: JsonWebKey; jwk: PublicJwk };
    const privateKey = await crypto.subtle.importKey("jwk", saved.private, ALGORITHM, true, ["sign"]);
    const publicKey = await crypto.subtle.importKey(
      "jwk",
      { ...saved.jwk, key_ops: ["verify"] },
      ALGORITHM,
      true,
      [
        "verify",
      ],
    );
    return { kid: saved.jwk.kid, privateKey, publicKey, jwk: saved.jwk };
  } catch {
    return undefined;
  }
}

async function saveKey(file: string, key: SigningKey): Promise<void> {
  const text = JSON.stringify({
    private: await crypto.subtle.exportKey("jwk", key.privateKey),
    jwk: key.jwk,
  });
  const temp = `${file}.${base64UrlEncode(crypto.getRandomValues(new Uint8Array(6)))}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    await Deno.rename(temp, file);
  } catch {
    await Deno.remove(temp).catch(() => {});
  }
}

let shared: Promise<SigningKey> | undefined;

/** The signing key every test sandbox of this user shares: read from the temp dir, generated once. */
export function testSigningKey(): Promise<SigningKey> {
  return shared ??= (async () => {
    const file = keyFile();
    const saved = await readKey(file);
    if (saved) return saved;
    const key = await generateSigningKey();
    await saveKey(file, key);
    return key;
  })();
}

/** Lines of this process already written to each contract-gate file. */
const recorded = new Map<string, Set<string>>();

/**
 * A request-log hook that appends each request to `file` for the contract gate (tests/contract/gate.ts,
 * which checks every line against the official files): method, path, status and the query
 * parameters sent more than once, one JSON line per distinct request of this process. The
 * sandbox's control API is left out.
 */
export function gateRecorder(file: string): (entry: RequestLogEntry, url: URL) => void {
  const seen = recorded.get(file) ?? new Set<string>();
  recorded.set(file, seen);
  return (entry, url) => {
    if (entry.path.startsWith("/_sandbox/")) return;
    const names = [...url.searchParams.keys()];
    const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    const line = JSON.stringify({ method: entry.method, path: entry.path, status: entry.status, repeated });
    if (seen.has(line)) return;
    seen.add(line);
    Deno.writeTextFileSync(file, line + "\n", { append: true });
  };
}

/** The hook of the file `DIAZO_CONTRACT_LOG` names (set by .ci/run), if any. */
function suiteRecorder(): ((entry: RequestLogEntry, url: URL) => void) | undefined {
  const file = Deno.env.get("DIAZO_CONTRACT_LOG");
  return file ? gateRecorder(file) : undefined;
}

/** A sandbox on port 0 signing with the shared test key; `log` receives its access log. */
export async function startTestSandbox(log?: (line: string) => void): Promise<Sandbox> {
  return await startSandbox({ port: 0, log, signingKey: await testSigningKey(), onRequest: suiteRecorder() });
}
