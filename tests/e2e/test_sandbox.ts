/**
 * A sandbox for a test, cheap to start: the sandboxes of one test file share one signing key,
 * generated once, where a new 2048-bit RSA key per sandbox would cost a few hundred ms of every test.
 * Loads the sandbox only (not the CLI), so that sandbox tests may use it too.
 */
import { generateSigningKey, type SigningKey } from "../../src/sandbox/auth/jwt.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";

let signingKey: Promise<SigningKey> | undefined;

/** A sandbox on port 0 signing with this file's shared key; `log` receives its access log. */
export async function startTestSandbox(log?: (line: string) => void): Promise<Sandbox> {
  return await startSandbox({ port: 0, log, signingKey: await (signingKey ??= generateSigningKey()) });
}
