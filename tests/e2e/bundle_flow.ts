/**
 * Helper of bundle_test.ts (not a test itself): runs the bundled diazo the way the compiled binary
 * runs — with an empty Deno cache and exactly COMPILE_PERMISSIONS — through --version, --help, a
 * sandbox on port 0, the demo flow against that sandbox, and `serve` answering tools/list. It is
 * started inside one network namespace when the test can make one, so that the sandbox and its
 * clients share the loopback. Prints one JSON summary on stdout.
 *
 *   deno run -A tests/e2e/bundle_flow.ts <bundle.js> <empty DENO_DIR> <work dir>
 */
import path from "node:path";
import { COMPILE_PERMISSIONS } from "../../scripts/build.ts";

const [bundle, emptyDenoDir, work] = Deno.args;
const dec = new TextDecoder();

function env(extra: Record<string, string> = {}): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const k of ["PATH", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP"]) {
    const v = Deno.env.get(k);
    if (v !== undefined) keep[k] = v;
  }
  return {
    ...keep,
    HOME: work,
    USERPROFILE: work,
    DENO_DIR: emptyDenoDir,
    DIAZO_CONFIG_DIR: path.join(work, "config"),
    DIAZO_STATE_DIR: path.join(work, "state"),
    DIAZO_TOKEN_STORE: "file",
    NO_COLOR: "1",
    ...extra,
  };
}

const argv = (args: string[]) => ["run", ...COMPILE_PERMISSIONS, "--no-config", "--no-lock", bundle, ...args];

async function run(args: string[], extra: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: argv(args),
    env: env(extra),
    clearEnv: true,
    cwd: work,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function firstLine(
  stream: ReadableStream<Uint8Array>,
): Promise<{ line: string; rest: ReadableStreamDefaultReader<string> }> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
  }
  return { line: buf.split("\n")[0], rest: reader };
}

/** Sends JSON-RPC lines to `serve` and returns the answer to id 2 (tools/list). */
async function toolsList(): Promise<{ names: string[]; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: argv(["serve"]),
    env: env(),
    clearEnv: true,
    cwd: work,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  const send = (m: unknown) => w.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bundle-test", version: "1" },
    },
  });
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let names: string[] = [];
  const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    outer: while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.id === 2) {
          names = (msg.result?.tools ?? []).map((t: { name: string }) => t.name);
          break outer;
        }
      }
    }
  } finally {
    clearTimeout(deadline);
    await w.close().catch(() => {});
    await reader.cancel().catch(() => {});
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
  }
  await child.status;
  const stderr = dec.decode(new Uint8Array(await new Response(child.stderr).arrayBuffer()));
  return { names, stderr };
}

/** True when nothing outside can be reached (the namespace has no network). */
async function networkBlocked(): Promise<boolean> {
  try {
    await fetch("https://registry.npmjs.org/", { signal: AbortSignal.timeout(3000) });
    return false;
  } catch {
    return true;
  }
}

const summary: Record<string, unknown> = {};
summary.networkBlocked = await networkBlocked();
summary.version = await run(["--version"]);
summary.help = await run(["--help"]);

const sandbox = new Deno.Command(Deno.execPath(), {
  args: argv(["sandbox", "--port", "0"]),
  env: env(),
  clearEnv: true,
  cwd: work,
  stdout: "piped",
  stderr: "piped",
}).spawn();
try {
  const { line: url, rest } = await firstLine(sandbox.stdout);
  summary.sandboxUrl = url;
  summary.demo = await run(["demo", "-o", "json"], {
    DIAZO_BASE_URL: url,
    SVC_CLIENT_ID: "diazo-sandbox",
    SVC_CLIENT_SECRET: "diazo-sandbox-secret",
  });
  const log = await (await fetch(`${url}/_sandbox/requests`)).json() as { method: string; path: string }[];
  summary.sandboxRequests = log.map((r) => `${r.method} ${r.path}`);
  await rest.cancel();
} finally {
  try {
    sandbox.kill("SIGTERM");
  } catch { /* gone */ }
  summary.sandboxExit = (await sandbox.status).code;
  await sandbox.stderr.cancel().catch(() => {});
}

summary.serve = await toolsList();

// One command of every family (scripts/smoke-families.sh, the release smoke's list), from the bundle.
if (Deno.build.os !== "windows") {
  const smoke = new URL("../../scripts/smoke-families.sh", import.meta.url).pathname;
  const out = await new Deno.Command("bash", {
    args: [smoke, Deno.execPath(), ...argv([])],
    env: env(),
    clearEnv: true,
    cwd: work,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  summary.families = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const npmDir = path.join(emptyDenoDir, "npm");
let npmEntries: string[] = [];
try {
  npmEntries = [...Deno.readDirSync(npmDir)].map((e) => e.name);
} catch { /* never created */ }
summary.npmCacheEntries = npmEntries;
console.log(JSON.stringify(summary));
