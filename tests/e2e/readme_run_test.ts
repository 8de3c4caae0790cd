/**
 * Every `diazo …` example of README.md runs against a sandbox, in the README's order, and exits as
 * expected (0 unless listed below with its reason). The README is read at test time. What the
 * examples stand on is made here: the files they name (a model, photos, a CSV of users), and the
 * placeholders listed in PLACEHOLDERS are substituted. A listed few are not run (SKIPPED), each
 * with its reason. A user login's browser step is the sandbox's device approval (`--auto-approve`).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { expand, readmeExamples } from "./readme_examples.ts";
import { diazo, ROOT, SANDBOX_SECRET, withSandboxHome } from "./harness.ts";

/** Examples not run, by a pattern of their text, and why. */
const SKIPPED: { pattern: RegExp; reason: string }[] = [
  { pattern: /auth login --service-account/, reason: "needs a service account's private key file" },
  { pattern: /^diazo view /, reason: "serves the viewer page until interrupted" },
  { pattern: /^diazo sandbox/, reason: "serves until interrupted (this test runs its own sandbox)" },
  {
    pattern: /^diazo serve --(read-only|tools|toolsets)/,
    reason: "a tool server answers on stdin until it closes",
  },
];

/** Examples that exit with another code than 0 by design, and why. */
const EXPECTED_EXIT: { pattern: RegExp; code: number; reason: string }[] = [];

/** Words of the README that stand for something of yours, and what they are here. */
function placeholders(sandboxUrl: string, hookUrl: string, home: string): [RegExp, string][] {
  return [
    [/^http:\/\/127\.0\.0\.1:8787$/, sandboxUrl], // the sandbox's default address: this one's
    [/^https:\/\/ci\.example\.com\/aps$/, hookUrl], // your webhook receiver: a local one
    [/^~\//, `${home}/`], // your home: the test's
    [/^examples\//, `${ROOT}/examples/`], // the repository's examples, from the test's working directory
  ];
}

/** Shell variables the README's examples use without setting them, and their values here. */
async function variables(cwd: string): Promise<Record<string, string>> {
  // $SIGNATURE: the x-adsk-signature the platform sends with received.json, signed with $SECRET.
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(SANDBOX_SECRET),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const body = await Deno.readFile(path.join(cwd, "received.json"));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, body));
  const signature = `sha1hash=${mac.toHex()}`;
  // received.http: the request a receiver got, headers and body, as `webhook verify` reads it from stdin.
  const request =
    `POST /aps HTTP/1.1\r\ncontent-type: application/json\r\nx-adsk-signature: ${signature}\r\n\r\n`;
  await Deno.writeTextFile(path.join(cwd, "received.http"), request + new TextDecoder().decode(body));
  return { SECRET: SANDBOX_SECRET, SIGNATURE: signature };
}

/** The files the examples name, made in the working directory. */
async function makeFiles(cwd: string, run: (args: string[]) => Promise<{ code: number }>): Promise<void> {
  const write = (name: string, data: string | Uint8Array) =>
    typeof data === "string"
      ? Deno.writeTextFile(path.join(cwd, name), data)
      : Deno.writeFile(path.join(cwd, name), data);
  for (const dir of ["drawings", "photos", "out", "derivatives", "results"]) {
    await Deno.mkdir(path.join(cwd, dir), { recursive: true });
  }
  const bytes = (n: number) => new Uint8Array(n).map((_, i) => (i * 31) % 251);
  await write("house.rvt", bytes(4096));
  await write("big.ifc", bytes(3 * 1024 * 1024));
  await write("tower.rvt", bytes(2048));
  await write("drawing.dwg", bytes(1024));
  await write("a.obj", "v 0 0 0\n");
  await write("b.obj", "v 1 1 1\n");
  for (const n of ["a", "b"]) await write(`drawings/${n}.dwg`, bytes(512));
  for (let i = 0; i < 3; i++) await write(`photos/p${i}.jpg`, bytes(2048));
  await write("site-photo.jpg", bytes(2048));
  await write("bucket.json", JSON.stringify({ bucketKey: "myco-api", policyKey: "transient" }));
  await write("users.csv", "email,first_name,last_name\nada@example.com,Ada,Lovelace\n");
  await write("received.json", JSON.stringify({ hook: { event: "dm.version.added" } }));
  await write("CountLines.zip", bytes(1024));
  assert.equal((await run(["generate", "obj", "--size", "64KiB", "--out", "house.obj"])).code, 0);
}

Deno.test("README: every `diazo …` example runs against a sandbox and exits as expected", () =>
  withSandboxHome(async (h) => {
    const readme = await Deno.readTextFile(path.join(ROOT, "README.md"));
    const examples = readmeExamples(readme);
    assert.ok(examples.length > 100, `found only ${examples.length} examples`);
    await makeFiles(h.home.cwd, (args) => h.run(args));
    const receiver = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response("ok"),
    );
    await fetch(`${h.sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        device_flow: true,
        auto_approve: true,
        device_interval_seconds: 1,
        job_seconds: 0,
      }),
    }).then((r) => r.body?.cancel());
    const subs = placeholders(h.sb.url, `http://127.0.0.1:${receiver.addr.port}/aps`, h.home.dir);
    const bin = path.join(h.home.dir, "bin");
    let env = { ...h.env, HOME: h.home.dir, PATH: `${bin}${path.delimiter}${h.env.PATH ?? ""}` };
    const vars = await variables(h.home.cwd);
    const failed: string[] = [];
    const skipped = new Set<(typeof SKIPPED)[number]>();
    let ran = 0;
    try {
      for (const ex of examples) {
        if ("exports" in ex) {
          env = { ...env, ...expandEnv(ex.exports, vars, subs) };
          continue;
        }
        const text = `diazo ${ex.args.join(" ")}`;
        const skip = SKIPPED.find((s) => s.pattern.test(text));
        if (skip) {
          skipped.add(skip);
          continue;
        }
        const args = ex.args.map((w) => {
          let out = expand(w, vars);
          for (const [from, to] of subs) out = out.replace(from, to);
          return out;
        });
        const stdin = ex.stdin === undefined
          ? undefined
          : "variable" in ex.stdin
          ? vars[ex.stdin.variable]
          : await Deno.readTextFile(path.join(h.home.cwd, ex.stdin.file));
        // The shell's variables are the examples' environment too (`--secret-env SECRET`).
        const run = await diazo(asUserLogin(args), {
          env: { ...env, ...vars, ...expandEnv(ex.env, vars, subs) },
          cwd: h.home.cwd,
          stdin,
        });
        ran++;
        const expected = EXPECTED_EXIT.find((e) => e.pattern.test(text))?.code ?? 0;
        if (run.code !== expected) {
          failed.push(
            `README.md:${ex.line}: ${ex.text}\n  exit ${run.code}, expected ${expected}: ${
              run.stderr.trim().split("\n").slice(-2).join(" | ")
            }`,
          );
        }
        if (ex.captures) vars[ex.captures] = run.stdout.trim().replace(/^"|"$/g, "");
        if (ex.redirect && /^[\w./-]+$/.test(ex.redirect)) {
          await Deno.writeTextFile(path.join(h.home.cwd, ex.redirect), run.stdout);
        }
      }
    } finally {
      await receiver.shutdown();
    }
    assert.deepEqual(failed, [], `${failed.length} of ${ran} README examples failed`);
    // The lists stay honest: each entry still names an example of the README.
    assert.deepEqual(SKIPPED.filter((s) => !skipped.has(s)), [], "skip entries that match no example");
  }));

/**
 * A user login whose browser step a test cannot take (`auth login`, `--no-browser`) is made as a
 * device login, which the sandbox approves at once; `--2legged`, `--device` and others run as written.
 */
function asUserLogin(args: string[]): string[] {
  if (args[0] !== "auth" || args[1] !== "login") return args;
  if (args.some((a) => a === "--2legged" || a === "--device" || a === "--service-account")) return args;
  return [...args.filter((a) => a !== "--no-browser"), "--device"];
}

function expandEnv(env: Record<string, string>, vars: Record<string, string>, subs: [RegExp, string][]) {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => {
      let out = expand(v, vars);
      for (const [from, to] of subs) out = out.replace(from, to);
      return [k, out];
    }),
  );
}
