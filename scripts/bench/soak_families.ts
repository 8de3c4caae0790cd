/**
 * The fault soak of the newest families (README.md "Safety"): reality-capture photo uploads against
 * a sandbox failing and dropping a quarter of the photo requests, checked photo by photo against
 * what the sandbox stored (by SHA-1); `webhook test` deliveries to a receiver that fails, drops and
 * delays, each received body checked whole, and diazo's verdict against the receiver's answer.
 * Design automation work items, their input staged and output fetched back through faulty storage. Printed, never asserted; returns false
 * when anything was lost or corrupt.
 */
import path from "node:path";
import { createHash } from "node:crypto";
import { startSandbox } from "../../src/sandbox/server.ts";
import { diazoCommand } from "./transfer.ts";
import { scratchEnv } from "../scratch_env.ts";

const PHOTOS = 60;
const PHOTO_BYTES = 256 * 1024;
const DELIVERIES = 30;
const MAX_RUNS = 8;

const sha1 = (b: Uint8Array) => createHash("sha1").update(b).digest("hex");

async function diazo(args: string[], env: Record<string, string>, cwd: string) {
  const child = diazoCommand(args, env, cwd).spawn();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Every file under `dir` whose path has `part` in it, by SHA-1 (how many of each). */
async function storedHashes(dir: string, part: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const full = path.join(d, e.name);
      if (e.isDirectory) await walk(full);
      else if (e.isFile && full.includes(part)) {
        const h = sha1(await Deno.readFile(full));
        found.set(h, (found.get(h) ?? 0) + 1);
      }
    }
  };
  await walk(dir);
  return found;
}

/** Photo uploads under faults: runs until one ends with exit 0; then what the sandbox has. */
async function soakPhotos(url: string, dataDir: string, env: Record<string, string>, home: string) {
  for (const fault of [{ status: 500, rate: 0.15 }, { drop: true, rate: 0.12 }]) {
    const res = await fetch(`${url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/photo-to-3d/v1/file", method: "POST", ...fault }),
    });
    if (!res.ok) throw new Error(`fault refused: ${await res.text()}`);
    await res.body?.cancel();
  }
  const created = await diazo(["reality-capture", "create", "--name", "soak", "-o", "json"], env, home);
  const id = JSON.parse(created.stdout).photosceneid as string;
  const dir = path.join(home, "photos");
  await Deno.mkdir(dir, { recursive: true });
  const local = new Map<string, number>();
  for (let i = 0; i < PHOTOS; i++) {
    const bytes = new Uint8Array(PHOTO_BYTES);
    for (let at = 0; at < PHOTO_BYTES; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
    await Deno.writeFile(path.join(dir, `IMG_${i}.jpg`), bytes);
    local.set(sha1(bytes), PHOTO_BYTES);
  }
  let runs = 0;
  let ok = false;
  while (!ok && runs < MAX_RUNS) {
    runs++;
    ok =
      (await diazo(["reality-capture", "upload", id, "photos", "--per-request", "5"], env, home)).code === 0;
  }
  const faults = await (await fetch(`${url}/_sandbox/faults`)).json() as { fired: number }[];
  const fired = faults.reduce((n, f) => n + f.fired, 0);
  await fetch(`${url}/_sandbox/faults`, { method: "DELETE" }).then((r) => r.body?.cancel());
  const stored = await storedHashes(dataDir, id);
  let lost = 0;
  for (const [h, size] of local) if (!stored.has(h)) lost += size;
  let corrupt = 0;
  for (const [h, n] of stored) if (!local.has(h)) corrupt += n;
  const copies = [...stored.values()].reduce((a, b) => a + b, 0);
  return {
    runs,
    ok,
    photos: PHOTOS,
    fired,
    lost,
    corrupt,
    extraCopies: copies - (PHOTOS - (lost / PHOTO_BYTES)),
  };
}

const WORK_ITEMS = 8;
const WORK_ITEM_BYTES = 2 * 1024 * 1024;

/** Posts JSON to the sandbox's control API. */
async function control(url: string, route: string, body: unknown): Promise<void> {
  const res = await fetch(`${url}/_sandbox/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox ${route}: ${await res.text()}`);
  await res.body?.cancel();
}

/**
 * Design automation work items (a local input staged in storage, the output fetched back) while
 * storage and work-item requests fail or drop 10% of the time; each output checked against its input.
 */
async function soakWorkItems(url: string, env: Record<string, string>, home: string) {
  const da = { ...env, SVC_DA_NICKNAME: "Soak", DIAZO_POLL_BASE_MS: "20" };
  await control(url, "config", { job_seconds: 0.3 });
  await Deno.writeFile(path.join(home, "bundle.zip"), new Uint8Array(4096).map((_, i) => (i * 7) & 255));
  const setup = [
    [
      "da",
      "appbundle-create",
      "--id",
      "CopyApp",
      "--engine",
      "Autodesk.AutoCAD+24",
      "--package",
      "bundle.zip",
      "--alias",
      "prod",
    ],
    [
      "da",
      "activity",
      "create",
      "--id",
      "Copy",
      "--engine",
      "Autodesk.AutoCAD+24",
      "--appbundle",
      "CopyApp+prod",
      "--command",
      "run",
      "--param",
      "input:get:input.bin",
      "--param",
      "result:put:result.bin",
      "--alias",
      "prod",
    ],
  ];
  for (const args of setup) {
    const r = await diazo(args, da, home);
    if (r.code !== 0) throw new Error(`${args.slice(0, 3).join(" ")}: ${r.stderr}`);
  }
  for (const p of ["/__s3/", "/da/us-east/v3/workitems"]) {
    await control(url, "faults", { path: p, status: 500, rate: 0.1 });
    await control(url, "faults", { path: p, drop: true, rate: 0.1 });
  }
  let done = 0;
  let lost = 0;
  let corrupt = 0;
  let runs = 0;
  for (let i = 0; i < WORK_ITEMS; i++) {
    const input = new Uint8Array(WORK_ITEM_BYTES);
    for (let at = 0; at < input.length; at += 65536) crypto.getRandomValues(input.subarray(at, at + 65536));
    await Deno.writeFile(path.join(home, `in_${i}.bin`), input);
    let ok = false;
    for (let attempt = 0; attempt < 4 && !ok; attempt++) {
      runs++;
      const args = [
        "da",
        "workitem",
        "run",
        "Copy+prod",
        "--input",
        `input=in_${i}.bin`,
        "--out",
        `result=./out_${i}.bin`,
        "--wait",
      ];
      ok = (await diazo(args, da, home)).code === 0;
    }
    if (!ok) {
      lost += input.length;
      continue;
    }
    done++;
    const out = await Deno.readFile(path.join(home, `out_${i}.bin`)).catch(() => undefined);
    if (!out) lost += input.length;
    else if (sha1(out) !== sha1(input)) corrupt++;
  }
  const faults = await (await fetch(`${url}/_sandbox/faults`)).json() as { fired: number }[];
  await fetch(`${url}/_sandbox/faults`, { method: "DELETE" }).then((r) => r.body?.cancel());
  return { items: WORK_ITEMS, done, runs, fired: faults.reduce((n, f) => n + f.fired, 0), lost, corrupt };
}

/** `webhook test` against a receiver that fails 20%, drops 10% and is late 10% of the time. */
async function soakDeliveries(env: Record<string, string>, home: string) {
  const received: { body: Uint8Array; answered: number }[] = [];
  let n = 0;
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    async (req) => {
      const body = new Uint8Array(await req.arrayBuffer());
      const roll = (n++ * 7919) % 10; // a fixed spread: 2 of 10 fail, 1 drops, 1 is late
      const answered = roll < 2 ? 500 : roll === 2 ? 0 : 200;
      received.push({ body, answered });
      if (answered === 0) throw new Error("dropped"); // Deno.serve closes the connection
      if (roll === 3) await new Promise((r) => setTimeout(r, 300));
      return new Response(answered === 200 ? "ok" : "no", { status: answered });
    },
  );
  const target = `http://127.0.0.1:${server.addr.port}/hook`;
  let passed = 0;
  let agreed = 0;
  for (let i = 0; i < DELIVERIES; i++) {
    const r = await diazo(["webhook", "test", target, "-o", "json"], { ...env }, home);
    const report = JSON.parse(r.stdout || "{}") as { ok?: boolean; status?: number };
    if (report.ok) passed++;
    const last = received.at(-1);
    if (last && (report.ok === true) === (last.answered === 200)) agreed++;
  }
  ac.abort();
  await server.finished;
  // A delivery is intact when its body is the whole sample event (a JSON envelope naming its hook).
  let corrupt = 0;
  for (const d of received) {
    try {
      const event = JSON.parse(new TextDecoder().decode(d.body));
      if (event?.hook?.event !== "dm.version.added" || event?.hook?.callbackUrl !== target) corrupt++;
    } catch {
      corrupt++;
    }
  }
  return {
    deliveries: DELIVERIES,
    received: received.length,
    passed,
    agreed,
    lost: DELIVERIES - received.length,
    corrupt,
  };
}

/** Runs the families soak and prints its figures; true when nothing was lost or corrupt. */
export async function benchSoakFamilies(): Promise<boolean> {
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-soak-families-" });
  const dataDir = path.join(home, "sandbox");
  const sb = await startSandbox({ dataDir });
  const env = { ...scratchEnv(home), DIAZO_BASE_URL: sb.url, DIAZO_RETRY_BASE_MS: "20" };
  try {
    const photos = await soakPhotos(sb.url, dataDir, env, home);
    const hooks = await soakDeliveries(env, home);
    const items = await soakWorkItems(sb.url, env, home);
    console.log("\nfault soak, newest families");
    console.log(
      `  reality-capture upload: ${photos.photos} photos of ${
        PHOTO_BYTES / 1024
      } KiB, ${photos.fired} photo requests failed or dropped by faults; ` +
        `${photos.runs} run(s) to exit 0 (${
          photos.ok ? "done" : "NOT done"
        }); ${photos.lost} bytes lost, ${photos.corrupt} corrupt, ` +
        `${photos.extraCopies} photo(s) stored twice (a resent request after a lost answer)`,
    );
    console.log(
      `  webhook test: ${hooks.deliveries} deliveries to a receiver failing 20%, dropping 10%; ${hooks.received} received, ` +
        `${hooks.lost} lost, ${hooks.corrupt} corrupt; diazo's verdict matched the receiver's answer ${hooks.agreed}/${hooks.deliveries}`,
    );
    console.log(
      `  da workitem run --wait: ${items.items} work items of ${
        WORK_ITEM_BYTES / 1048576
      } MiB, ${items.fired} storage and ` +
        `work-item requests failed or dropped by faults; ${items.done} done in ${items.runs} run(s); ${items.lost} bytes lost, ${items.corrupt} corrupt`,
    );
    return items.lost === 0 && items.corrupt === 0 && photos.ok && photos.lost === 0 &&
      photos.corrupt === 0 && hooks.lost === 0 && hooks.corrupt === 0;
  } finally {
    await sb.close();
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await benchSoakFamilies() ? 0 : 1);
