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
import { gzipBomb } from "../../tests/robust/_bomb.ts";
import { put, spawnDiazo, startRaw } from "../../tests/robust/_raw_server.ts";

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

/**
 * A gzip body of zeros inflating to 2 GiB (13.5 MB, made by hand: tests/robust/_bomb.ts) on a JSON
 * answer, an error answer, a work item's report and through `api`, and an endless chunk-size line:
 * peak RSS of each run beside the cap it must stay within twice of.
 */
async function benchBombs(): Promise<void> {
  const bomb = gzipBomb(2 * 1024 * MiB);
  const line = new TextEncoder().encode("f".repeat(64 * 1024));
  const answer = (status: number, headers: string, body: Uint8Array) => async (conn: Deno.Conn) => {
    if (
      await put(
        conn,
        `HTTP/1.1 ${status} X\r\n${headers}content-length: ${body.length}\r\nconnection: close\r\n\r\n`,
      )
    ) {
      await put(conn, body);
    }
  };
  const gz = "content-type: application/json\r\ncontent-encoding: gzip\r\n";
  const s = startRaw((hit, conn) => {
    const t = hit.target;
    if (t.startsWith(DA)) {
      const json = new TextEncoder().encode(
        JSON.stringify({ id: "hostile01", status: "failedInstructions", reportUrl: `${s.url}/report` }),
      );
      return answer(200, "content-type: application/json\r\n", json)(conn);
    }
    if (t.startsWith("/oss/v2/buckets?region=US")) return answer(200, gz, bomb.body)(conn);
    if (t.startsWith("/oss/v2/buckets?region=EMEA")) return answer(500, gz, bomb.body)(conn);
    if (t.startsWith("/report") || t.startsWith("/big")) return answer(200, gz, bomb.body)(conn);
    if (t.startsWith("/oss/v2/buckets?region=APAC")) {
      return (async () => {
        if (!await put(conn, "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")) return;
        for (const end = performance.now() + 120_000; performance.now() < end;) {
          if (!await put(conn, line)) return;
        }
      })();
    }
    return undefined;
  });
  console.log(
    `\nhostile bodies (a ${(bomb.body.length / 1e6).toFixed(1)} MB gzip inflating to 2 GiB; peak RSS, cap)`,
  );
  const runs: [string, string[], string][] = [
    ["bomb on a JSON answer (bucket list)", ["bucket", "list", "--region", "US"], "cap 256 MiB"],
    [
      "bomb on an error answer (HTTP 500)",
      ["bucket", "list", "--region", "EMEA", "--timeout", "10"],
      "cap 64 KiB",
    ],
    ["bomb as a work item's report", ["da", "workitem", "get", "hostile01"], "cap 1 MiB"],
    ["bomb through api (streamed)", ["api", "/big"], "streamed, no cap"],
    [
      "endless chunk-size line, --timeout 5",
      ["bucket", "list", "--region", "APAC", "--timeout", "5"],
      "≤ 100 MB",
    ],
  ];
  try {
    for (const [name, args, cap] of runs) {
      const r = await spawnDiazo(args, s.url);
      const line = r.stderr.split("\n").find((l) => l.startsWith("error:")) ?? "";
      console.log(
        `  ${name}: exit ${r.code}, peak ${r.peakMiB.toFixed(0)} MiB (${cap}), ${r.seconds.toFixed(1)} s, ` +
          `${(r.stdoutBytes / MiB).toFixed(0)} MiB out ${line.slice(0, 90)}`,
      );
    }
  } finally {
    s.close();
  }
}

/** Prints the four runs, then the hostile bodies. */
export async function benchHostile(): Promise<void> {
  await benchBombs();
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
