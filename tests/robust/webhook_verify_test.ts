/**
 * `webhook verify` checks the exact bytes a receiver got, never reads a body as headers when the
 * signature is given, and takes the secret from an environment variable, never argv.
 */
import assert from "node:assert/strict";
import { signWebhookBody } from "../../src/aps/webhook_signature.ts";
import type { Io } from "../../src/command/io.ts";
import { runCli } from "../../src/front/root.ts";
import { cliEnv, makeHome } from "../e2e/harness.ts";

const SECRET = "a-hook-secret-of-32-characters-x";

/** Runs verify in process with `stdin` as raw bytes. */
async function verify(argv: string[], stdin: Uint8Array, env: Record<string, string> = {}) {
  const home = await makeHome();
  let out = "";
  let err = "";
  const dec = new TextDecoder();
  const io: Io = {
    stdout: { write: (d) => void (out += typeof d === "string" ? d : dec.decode(d)), isTerminal: false },
    stderr: { write: (d) => void (err += typeof d === "string" ? d : dec.decode(d)), isTerminal: false },
    stdin: {
      isTerminal: false,
      readText: () => Promise.resolve(dec.decode(stdin)),
      readBytes: () => Promise.resolve(stdin),
      readLine: () => Promise.resolve(null),
    },
  };
  try {
    const code = await runCli(
      ["webhook", "verify", ...argv],
      io,
      cliEnv(home, { HOOK_SECRET: SECRET, ...env }),
      home.cwd,
    );
    return { code, stdout: out, stderr: err };
  } finally {
    await home.cleanup();
  }
}

Deno.test("item 14: webhook verify hashes the exact bytes: a Latin-1 body signed over its raw bytes is valid", async () => {
  const body = new Uint8Array([
    ...new TextEncoder().encode('{"name":"caf'),
    0xe9,
    ...new TextEncoder().encode('"}'),
  ]);
  const sig = await signWebhookBody(SECRET, body);
  const r = await verify(["--secret-env", "HOOK_SECRET", "--signature", sig, "-o", "json"], body);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { valid: true, signature: sig, bytes: body.length });
  const whole = new Uint8Array([
    ...new TextEncoder().encode(`POST /cb HTTP/1.1\r\nx-adsk-signature: ${sig}\r\n\r\n`),
    ...body,
  ]);
  const viaHeaders = await verify(["--secret-env", "HOOK_SECRET", "-o", "json"], whole);
  assert.equal(viaHeaders.code, 0, viaHeaders.stderr);
});

Deno.test("item 14: with --signature, a body that starts like a header ('Note: hi') is the body, not headers", async () => {
  const body = new TextEncoder().encode("Note: hi\n\nthe rest of the payload");
  const sig = await signWebhookBody(SECRET, body);
  const r = await verify(["--secret-env", "HOOK_SECRET", "--signature", sig, "-o", "json"], body);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).bytes, body.length);
});

Deno.test("item 20: webhook verify takes the secret from --secret-env NAME; --secret (argv) is refused", async () => {
  const body = new TextEncoder().encode('{"a":1}');
  const sig = await signWebhookBody(SECRET, body);
  const argv = await verify(["--secret", SECRET, "--signature", sig], body);
  assert.equal(argv.code, 2);
  assert.match(argv.stderr, /^error: --secret would put the hook's secret in argv/);
  assert.match(argv.stderr, /\nhint: .*--secret-env WEBHOOK_SECRET/);
  const unset = await verify(["--secret-env", "NOT_SET_ANYWHERE", "--signature", sig], body);
  assert.equal(unset.code, 2);
  assert.match(unset.stderr, /^error: the environment variable NOT_SET_ANYWHERE is not set/);
  const wrong = await verify(["--secret-env", "OTHER", "--signature", sig], body, {
    OTHER: "another-secret",
  });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /Signature does not match/);
});
