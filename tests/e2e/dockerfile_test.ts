/**
 * e2e: the repository's Dockerfile, its command lines run outside a container. Its ENTRYPOINT (the
 * binary swapped for the CLI, the volume for a temp dir, the port for a free one) serves a sandbox
 * that keeps its state across a restart, and its HEALTHCHECK command is exit 0 against it and exit 1
 * once it is gone. The image's shape (small base, non-root user, volume) is read from the file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { api, call, control, token } from "../sandbox/helpers.ts";
import { cliEnv, diazo, makeHome, ROOT, spawnSandboxProcess } from "./harness.ts";

const DOCKERFILE = await Deno.readTextFile(join(ROOT, "Dockerfile"));
const BINARY = "/usr/local/bin/diazo";

/** The JSON array of an instruction (`ENTRYPOINT [...]`, `HEALTHCHECK ... CMD [...]`), continuations joined. */
function execForm(instruction: RegExp): string[] {
  const text = DOCKERFILE.replace(/\\\n\s*/g, " ");
  const m = new RegExp(instruction.source + String.raw`.*?(\[.*\])\s*$`, "m").exec(text);
  assert.ok(m, `the Dockerfile has ${instruction.source}`);
  const args: string[] = JSON.parse(m[1]);
  assert.equal(args[0], BINARY);
  return args.slice(1);
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("Dockerfile: a small base, a non-root user, /data as a volume, a health check", () => {
  const stages = [...DOCKERFILE.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
  assert.match(stages.at(-1)!, /^gcr\.io\/distroless\/cc-debian12/);
  const user = /^USER\s+(\S+)/m.exec(DOCKERFILE)?.[1] ?? "root";
  assert.ok(!/^(0|root)(:|$)/.test(user), `runs as ${user}`);
  assert.match(DOCKERFILE, /^VOLUME \/data$/m);
  assert.deepEqual(execForm(/^ENTRYPOINT/).slice(-2), ["--data-dir", "/data"]);
  assert.ok(execForm(/^HEALTHCHECK/).includes("--check-health"));
});

Deno.test("Dockerfile: its ENTRYPOINT serves and keeps state, its HEALTHCHECK follows", async () => {
  const home = await makeHome();
  const port = String(freePort());
  const swap = (args: string[]) =>
    args.map((a) => a === "/data" ? join(home.dir, "data") : a === "8787" ? port : a);
  const entry = swap(execForm(/^ENTRYPOINT/));
  const health = swap(execForm(/^HEALTHCHECK/));
  // Bound beyond loopback, its control API asks for a token: given here as a container's env would.
  const controlToken = { DIAZO_SANDBOX_TOKEN: "dockerfile-test-token" };
  const bearer = { authorization: `Bearer ${controlToken.DIAZO_SANDBOX_TOKEN}` };
  let running = await spawnSandboxProcess(home, entry, controlToken);
  try {
    assert.equal(running.url, `http://127.0.0.1:${port}`);
    const ok = await diazo(health, { env: cliEnv(home), cwd: home.dir });
    assert.equal(ok.code, 0, ok.stderr);
    const sb = { url: running.url };
    const t = await token(sb, "bucket:create bucket:read");
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "in-volume", policyKey: "transient" }))
        .status,
      200,
    );
    running.child.kill("SIGTERM");
    assert.equal((await running.child.status).code, 0);

    running = await spawnSandboxProcess(home, entry, controlToken);
    assert.equal((await control({ url: running.url }, "GET", "state")).status, 401, "no token, no state");
    const buckets = (await call(`${running.url}/_sandbox/state`, { headers: bearer })).json.buckets;
    assert.deepEqual(buckets.map((b: { bucketKey: string }) => b.bucketKey), ["in-volume"]);
    running.child.kill("SIGTERM");
    await running.child.status;

    const down = await diazo(health, { env: cliEnv(home), cwd: home.dir });
    assert.equal(down.code, 1);
    assert.match(
      down.stderr,
      /^error: no healthy sandbox at http:\/\/127\.0\.0\.1:\d+\/_sandbox\/health\nhint: /,
    );
  } finally {
    try {
      running.child.kill("SIGKILL");
    } catch { /* gone */ }
    await running.child.status;
    await home.cleanup();
  }
});
