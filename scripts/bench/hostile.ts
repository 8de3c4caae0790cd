/**
 * Peak memory of diazo against a hostile local server (README.md "Safety"): a failed work item whose
 * report is 3 GB, a `webhook test` receiver answering 8 GB, `api` of a 600 MB answer (its bytes
 * checked by SHA-1 on stdout), a 100 MB `--from-file` body (refused before any request). The bodies
 * are generated as they are read, never written to disk. Peak RSS from `/usr/bin/time` (or VmHWM
 * sampled). Printed, never asserted. BENCH_HOSTILE_SCALE=0.1 runs each at a tenth of the size.
 */
import path from "node:path";
import { createHash } from "node:crypto";
import { COMPILE_PERMISSIONS } from "../build.ts";
import { endless, endlessSha1, type Hostile, startHostile } from "../../tests/robust/_hostile.ts";
import { peakRss } from "./transfer.ts";
import { scratchEnv } from "../scratch_env.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const MiB = 1024 * 1024;
const GB = 1000 * 1000 * 1000;
const DA = "/da/us-east/v3/workitems/hostile01";

/** One diazo run under `/usr/bin/time`: exit code, stdout hashed and counted, stderr, peak MiB. */
async function measured(args: string[], env: Record<string, string>, cwd: string) {
  const argv = [
    "run",
    ...COMPILE_PERMISSIONS,
    "--config",
    path.join(ROOT, "deno.json"),
    path.join(ROOT, "src/main.ts"),
    ...args,
  ];
  const timed = await Deno.stat("/usr/bin/time").then(() => true, () => false);
  const child = new Deno.Command(timed ? "/usr/bin/time" : Deno.execPath(), {
    args: timed ? ["-f", "diazo-peak-kb %M", Deno.execPath(), ...argv] : argv,
    env,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let sampled = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      sampled = Math.max(sampled, (await peakRss(child.pid)) ?? 0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const hash = createHash("sha1");
  let bytes = 0;
  const started = performance.now();
  const [, errText, status] = await Promise.all([
    (async () => {
      for await (const chunk of child.stdout) {
        hash.update(chunk);
        bytes += chunk.length;
      }
    })(),
    new Response(child.stderr).text(),
    child.status,
  ]);
  done = true;
  await sampler;
  const kb = /diazo-peak-kb (\d+)/.exec(errText)?.[1];
  return {
    code: status.code,
    seconds: (performance.now() - started) / 1000,
    sha1: hash.digest("hex"),
    bytes,
    stderr: errText.replace(/diazo-peak-kb \d+\n?/, "").trim(),
    peakMiB: kb ? Number(kb) / 1024 : sampled,
  };
}

/** Prints the four runs. */
export async function benchHostile(): Promise<void> {
  const scale = Number(Deno.env.get("BENCH_HOSTILE_SCALE") ?? "1") || 1;
  const size = {
    report: Math.round(3 * GB * scale),
    receiver: Math.round(8 * GB * scale),
    api: Math.round(600 * 1000 * 1000 * scale),
  };
  const h: Hostile = startHostile((req, url, h) => {
    if (url.pathname === DA) {
      return Response.json({ id: "hostile01", status: "failedInstructions", reportUrl: `${h.url}/report` });
    }
    if (url.pathname === "/report") return new Response(endless(h, size.report));
    if (url.pathname === "/hook") {
      return req.body!.cancel().then(() => new Response(endless(h, size.receiver)));
    }
    if (url.pathname === "/big") {
      return new Response(endless(h, size.api), { headers: { "content-type": "text/plain" } });
    }
    return undefined;
  });
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-hostile-" });
  const env = { ...scratchEnv(home), DIAZO_BASE_URL: h.url };
  const cwd = path.join(home, "work");
  await Deno.mkdir(cwd, { recursive: true });
  console.log(`\nhostile server (peak RSS of each diazo process; scale ${scale})`);
  try {
    let sent = h.sent();
    const report = await measured(["da", "workitem", "get", "hostile01"], env, cwd);
    console.log(
      `  work-item report of ${(size.report / GB).toFixed(1)} GB: exit ${report.code}, peak ${
        report.peakMiB.toFixed(0)
      } MiB, ` +
        `${((h.sent() - sent) / MiB).toFixed(1)} MiB read of it, ${report.seconds.toFixed(1)} s, cut note: ${
          /report cut at 1 MiB/.test(report.stderr + report.sha1) || report.stderr.includes("cut")
        }`,
    );
    sent = h.sent();
    const hook = await measured(["webhook", "test", `${h.url}/hook`, "-o", "json"], env, cwd);
    console.log(
      `  webhook test, receiver answering ${(size.receiver / GB).toFixed(1)} GB: exit ${hook.code}, peak ${
        hook.peakMiB.toFixed(0)
      } MiB, ` +
        `${((h.sent() - sent) / MiB).toFixed(1)} MiB read, ${hook.seconds.toFixed(1)} s`,
    );
    const api = await measured(["api", "/big"], env, cwd);
    const intact = api.bytes === size.api && api.sha1 === await endlessSha1(size.api);
    console.log(
      `  api of a ${(size.api / 1e6).toFixed(0)} MB answer: exit ${api.code}, peak ${
        api.peakMiB.toFixed(0)
      } MiB, ` +
        `${api.bytes} bytes on stdout, SHA-1 ${intact ? "intact" : "DIFFERS"}, ${api.seconds.toFixed(1)} s`,
    );
    const body = path.join(cwd, "issue.json");
    await Deno.writeFile(body, new Uint8Array(0));
    await Deno.truncate(body, 100 * 1000 * 1000); // sparse: nothing written to disk
    const hits = h.hits.length;
    const from = await measured(
      ["issue", "create", "--project", "b.00000000-0000-0000-0000-000000000001", "--from-file", "issue.json"],
      env,
      cwd,
    );
    console.log(
      `  --from-file of 100 MB: exit ${from.code}, peak ${from.peakMiB.toFixed(0)} MiB, ${
        from.seconds.toFixed(2)
      } s, ` +
        `${h.hits.length - hits} request(s) sent: ${from.stderr.split("\n")[0]}`,
    );
  } finally {
    await h.close();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchHostile();
