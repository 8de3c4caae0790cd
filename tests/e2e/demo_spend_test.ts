/**
 * e2e: `diazo demo` on a platform that may charge an account (README.md, "demo"): it asks first, needs
 * `--yes` without a terminal, and deletes its bucket however the run ends (a closed output pipe,
 * SIGTERM). The platform is a sandbox on port 0 reached with an app of its own, as real credentials look:
 * the demo cannot tell it from the real platform.
 */
import assert from "node:assert/strict";
import {
  cliCommand,
  cliEnv,
  diazo,
  json,
  keyboard,
  makeHome,
  runProcess,
  spawnChild,
  startTestSandbox,
  type TestHome,
} from "./harness.ts";
import type { Sandbox } from "../../src/sandbox/server.ts";

/** A sandbox, a home, and the environment of an app registered at the sandbox under a real-looking id. */
async function paidPlatform(): Promise<{ sb: Sandbox; home: TestHome; env: Record<string, string> }> {
  const sb = await startTestSandbox();
  const home = await makeHome();
  const id = "Qw3rTy8uIoP1aSdF6gHjK2lZx9cVbN0m";
  const secret = "s3cr3tV4lu3X9z";
  const res = await fetch(`${sb.url}/_sandbox/apps`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: id, client_secret: secret }),
  });
  assert.ok(res.ok, await res.text());
  const env = cliEnv(home, { DIAZO_BASE_URL: sb.url, SVC_CLIENT_ID: id, SVC_CLIENT_SECRET: secret });
  return { sb, home, env };
}

/** The buckets the sandbox holds, asked through the CLI. */
async function buckets(env: Record<string, string>): Promise<string[]> {
  const r = await diazo(["bucket", "list", "-o", "json"], { env });
  assert.equal(r.code, 0, r.stderr);
  return json<{ bucketKey: string }[]>(r).map((b) => b.bucketKey);
}

/** Reads the child's stderr until a line matches `until`; returns what was read and the open reader. */
async function readUntil(child: Deno.ChildProcess, until: RegExp) {
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!until.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stderr ended before ${until}:\n${seen}`);
    seen += value;
  }
  return { seen, reader };
}

Deno.test("demo on a platform that is not a sandbox, without a terminal: exit 2 at once, no bucket created", async () => {
  const { sb, home, env } = await paidPlatform();
  try {
    const r = await runProcess(Deno.execPath(), cliCommand(["demo"]), { env, cwd: home.cwd });
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 2, r.stderr);
    assert.match(lines[0], /^error: .*bucket.*12 MiB.*translations/);
    assert.match(lines[1], /^hint: .*--yes.*diazo demo --sandbox/);
    const asked = (await (await fetch(`${sb.url}/_sandbox/requests`)).json()) as { path: string }[];
    assert.deepEqual(asked.filter((q) => !q.path.startsWith("/_sandbox")), [], "the demo asked nothing");
    assert.deepEqual(await buckets(env), []);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("demo with CI set and a terminal still needs --yes; the prompt's No creates nothing", async () => {
  const { sb, home, env } = await paidPlatform();
  try {
    const ci = await diazo(["demo"], { env: { ...env, CI: "true" }, stdin: keyboard("y\n", true) });
    assert.equal(ci.code, 2, ci.stderr);
    assert.match(ci.stderr, /^hint: .*--yes/m);
    const no = await diazo(["demo"], { env, stdin: keyboard("\n", true) });
    assert.equal(no.code, 1, no.stderr);
    assert.match(no.stderr, /uses your account and may cost.*\n.*\[y\/N\] /);
    assert.match(no.stderr, /Cancelled; nothing was created\./);
    assert.deepEqual(await buckets(env), []);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("demo --yes whose output pipe closes mid-run deletes its bucket and exits 141", async () => {
  const { sb, home, env } = await paidPlatform();
  try {
    const child = spawnChild(["demo", "--yes"], { env, cwd: home.cwd });
    child.stdout.pipeTo(new WritableStream()).catch(() => {});
    // The bucket exists once the upload starts; then the reader goes away, as `| head` would.
    const { seen, reader } = await readUntil(child, /\[4\/8\] Upload it/);
    const made = seen.match(/ok {2}(diazo-demo-\S+) \(transient\)/)?.[1];
    assert.ok(made, seen);
    assert.deepEqual(await buckets(env), [made], "the bucket exists while the demo runs");
    await reader.cancel();
    const status = await child.status;
    assert.equal(status.code, 141);
    assert.deepEqual(await buckets(env), [], "the demo deleted its bucket");
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

for (
  const [signal, code, end] of [["SIGTERM", 143, /Terminated\.\n$/], [
    "SIGINT",
    130,
    /error: Interrupted\n/,
  ]] as const
) {
  Deno.test(`demo --yes stopped by ${signal} deletes its bucket and exits ${code}`, {
    ignore: Deno.build.os === "windows",
  }, async () => {
    const { sb, home, env } = await paidPlatform();
    try {
      const child = spawnChild(["demo", "--yes"], { env, cwd: home.cwd });
      child.stdout.pipeTo(new WritableStream()).catch(() => {});
      const { reader } = await readUntil(child, /\[4\/8\] Upload it/);
      child.kill(signal);
      let rest = "";
      for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value;
      const status = await child.status;
      assert.equal(status.code, code, rest);
      assert.match(rest, /Stopped early: deleted bucket diazo-demo-\S+\.\n/);
      assert.match(rest, end);
      assert.deepEqual(await buckets(env), []);
    } finally {
      await home.cleanup();
      await sb.close();
    }
  });
}
