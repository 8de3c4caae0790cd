/** e2e: `diazo view` checks the URN and the manifest, then serves a viewer page and a viewables:read token. */
import assert from "node:assert/strict";
import { encodeUrn } from "../../src/aps/urn.ts";
import { generateModel } from "../../src/generate/generate.ts";
import { cliCommand, diazo, makeHome, sandboxEnv, withSandboxHome } from "./harness.ts";
import { createBucket, sandboxConfig, sandboxToken, uploadObject } from "./md_helpers.ts";

function decodePayload(jwt: string): Record<string, unknown> {
  const part = jwt.split(".")[1];
  return JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(part, { alphabet: "base64url" })));
}

/** Reads stdout up to its first newline; the rest of the stream stays readable. */
async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  return text.split("\n")[0];
}

Deno.test("view: an invalid URN is a usage error before any request", async () => {
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, "http://127.0.0.1:9");
    const r = await diazo(["view", "not a urn!", "--no-open"], { env });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^error: Invalid URN\nhint: \S/);
  } finally {
    await home.cleanup();
  }
});

Deno.test("view: a model without a manifest is 'not translated' (exit 4) with the command that fixes it", () =>
  withSandboxHome(async ({ sb, home }) => {
    const urn = encodeUrn("urn:adsk.objects:os.object:e2e-view/never-translated.obj");
    const r = await diazo(["view", urn, "--no-open"], { env: sandboxEnv(home, sb.url) });
    assert.equal(r.code, 4, r.stderr);
    assert.equal(r.stdout, "");
    const [error, hint] = r.stderr.trimEnd().split("\n");
    assert.match(error, /^error: .*has not been translated/);
    assert.equal(hint, `hint: Translate it first: \`diazo translate start ${urn} --wait\`.`);
  }));

Deno.test("view: serves the page and a viewables:read-only token for a translated model", () =>
  withSandboxHome(async ({ sb, home }) => {
    const token = await sandboxToken(sb.url);
    await createBucket(sb.url, token, "e2e-view");
    // Tokens of 60 s are always within the CLI's renewal margin: every /token call renews.
    await sandboxConfig(sb.url, { job_seconds: 0, token_ttl_seconds: 60 });
    const size = 40_000;
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const c of generateModel({ format: "obj", size }).chunks()) {
      bytes.set(c, at);
      at += c.length;
    }
    const { urn } = await uploadObject(sb.url, token, "e2e-view", "tower.obj", bytes);
    const job = await fetch(`${sb.url}/modelderivative/v2/designdata/job`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ input: { urn }, output: { formats: [{ type: "svf2", views: ["3d"] }] } }),
    });
    assert.equal(job.status, 200, await job.text());

    const child = new Deno.Command(Deno.execPath(), {
      args: cliCommand(["view", urn, "--no-open"]),
      env: sandboxEnv(home, sb.url),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(child.stderr).text();
    let failure: unknown;
    try {
      const url = await firstLine(child.stdout);
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/, `stdout: ${url}`);

      const page = await fetch(url);
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      const html = await page.text();
      assert.ok(html.includes(urn), "the page names the URN");
      assert.match(html, /viewers\/7\.\*\/viewer3D\.min\.js/);
      assert.match(html, /env: "AutodeskProduction2", api: "streamingV2"/);

      const tokenRes = await fetch(new URL("/token", url));
      assert.equal(tokenRes.status, 200);
      assert.equal(tokenRes.headers.get("cache-control"), "no-store");
      const viewerToken = await tokenRes.json() as { access_token: string; expires_in: number };
      assert.ok(
        viewerToken.expires_in > 50 && viewerToken.expires_in <= 60,
        `expires_in ${viewerToken.expires_in}`,
      );
      assert.deepEqual(decodePayload(viewerToken.access_token).scope, ["viewables:read"]);
      assert.ok(!html.includes(viewerToken.access_token), "no token in the page");
      const renewed = await (await fetch(new URL("/token", url))).json() as { access_token: string };
      assert.notEqual(renewed.access_token, viewerToken.access_token, "a token near expiry is renewed");
      assert.deepEqual(decodePayload(renewed.access_token).scope, ["viewables:read"]);

      for (const [method, path] of [["GET", "/other"], ["GET", "/token/x"], ["POST", "/token"]]) {
        const res = await fetch(new URL(path, url), { method });
        await res.body?.cancel();
        assert.equal(res.status, 404, `${method} ${path}`);
      }
    } catch (e) {
      failure = e;
    } finally {
      child.kill("SIGTERM");
    }
    const status = await child.status;
    const log = await stderr;
    if (failure) throw new Error(`${failure}\n--- stderr of view ---\n${log}`, { cause: failure });
    assert.equal(status.code, 0, log);
    assert.doesNotMatch(log, /eyJ[\w-]{8,}\.eyJ/, "no token on stderr");
  }));

Deno.test("view --timeout stops serving by itself", () =>
  withSandboxHome(async ({ sb, home }) => {
    const token = await sandboxToken(sb.url);
    await createBucket(sb.url, token, "e2e-view");
    await sandboxConfig(sb.url, { job_seconds: 0 });
    const { urn } = await uploadObject(
      sb.url,
      token,
      "e2e-view",
      "part.stl",
      [
        ...generateModel({ format: "stl", size: 2000 }).chunks(),
      ][0],
    );
    const job = await fetch(`${sb.url}/modelderivative/v2/designdata/job`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ input: { urn }, output: { formats: [{ type: "svf2", views: ["3d"] }] } }),
    });
    await job.body?.cancel();
    const started = Date.now();
    const r = await diazo(["view", urn, "--no-open", "--timeout", "1"], { env: sandboxEnv(home, sb.url) });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^http:\/\/127\.0\.0\.1:\d+\/\n$/);
    assert.ok(Date.now() - started >= 1000, "served for the whole second");
    assert.match(r.stderr, /Viewer page stopped/);
  }));
