/** e2e: an upload killed part-way resumes without re-sending stored parts; faults and expiring URLs are survived. */
import assert from "node:assert/strict";
import path from "node:path";
import { addFault, diazo, json, requestLog, spawnChild } from "./harness.ts";
import { objectFixture, randomFile } from "./object_helpers.ts";

const MiB = 1024 * 1024;
const STORAGE = "/__s3/upload/";

/** Storage PUTs in the request log from `from` on, with their part numbers. */
async function partPuts(url: string, from = 0): Promise<{ part: number; status: number }[]> {
  const log = await requestLog(url, STORAGE);
  return log.slice(from).filter((e) => e.method === "PUT").map((e) => ({
    part: Number(e.path.split("/").at(-1)),
    status: e.status,
  }));
}

/** Waits until the sandbox's request log has stopped growing (no request still being handled). */
async function settled(url: string): Promise<void> {
  let last = -1;
  for (let n = (await requestLog(url)).length; n !== last; n = (await requestLog(url)).length) {
    last = n;
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

Deno.test("resume: SIGKILL part-way, then --resume sends only the missing parts and the SHA-1 matches", async () => {
  const fx = await objectFixture("e2e-resume");
  try {
    const src = path.join(fx.home.cwd, "big.bin");
    const sha1 = await randomFile(src, 64 * MiB); // 13 parts of 5 MiB
    await addFault(fx.sb.url, { method: "PUT", path: STORAGE, delay_ms: 150 });
    const args = ["object", "upload", fx.bucket, "big.bin", "--part-size", "5", "--concurrency", "2"];
    const child = spawnChild(args, { env: fx.env, cwd: fx.home.cwd }); // a process, to be killed
    await waitFor(
      "five stored parts",
      async () => (await partPuts(fx.sb.url)).filter((p) => p.status === 200).length >= 5,
    );
    child.kill("SIGKILL");
    const status = await child.status;
    assert.notEqual(status.code, 0, "the first run was killed");
    await child.stdout.cancel();
    await child.stderr.cancel();
    // The sandbox may still be handling the killed run's last PUTs (delayed by the fault): let them
    // end before the resume, as a new process's start-up used to, or a late one could land after it.
    await settled(fx.sb.url);

    // A kill in the middle of an atomic save may also leave its hidden temp file beside the record.
    const records = [...Deno.readDirSync(path.join(fx.home.stateDir, "uploads"))]
      .filter((e) => e.name.endsWith(".json") && !e.name.startsWith("."));
    assert.equal(records.length, 1, "a resume record was kept");
    const record = JSON.parse(
      await Deno.readTextFile(path.join(fx.home.stateDir, "uploads", records[0].name)),
    ) as { parts: Record<string, string>; uploadKey: string };
    // Whether or not the kill struck mid-save, a leftover temp file of the record must not outlive the upload.
    await Deno.writeTextFile(path.join(fx.home.stateDir, "uploads", `.${records[0].name}.killed.tmp`), "{");
    const stored = Object.keys(record.parts).map(Number);
    // The record may lag the storage log by the parts in flight at the kill.
    assert.ok(stored.length >= 1 && stored.length < 13, `stored parts: ${stored}`);

    await fetch(`${fx.sb.url}/_sandbox/faults`, { method: "DELETE" }).then((r) => r.body?.cancel());
    const before = (await requestLog(fx.sb.url, STORAGE)).length;
    const r = await diazo([...args, "--resume", "--output", "json"], { env: fx.env, cwd: fx.home.cwd });
    assert.equal(r.code, 0, r.stderr);
    const out = json<{ sha1: string; partsSkipped: number; parts: number; size: number }>(r);
    assert.equal(out.sha1, sha1);
    assert.equal(out.size, 64 * MiB);
    assert.equal(out.parts, 13);
    assert.equal(out.partsSkipped, stored.length);

    const resent = (await partPuts(fx.sb.url, before)).map((p) => p.part);
    assert.deepEqual(resent.filter((p) => stored.includes(p)), [], "no stored part was sent again");
    assert.deepEqual(
      [...new Set(resent)].sort((a, b) => a - b),
      Array.from({ length: 13 }, (_, i) => i + 1).filter((p) => !stored.includes(p)),
      "every missing part was sent",
    );
    const uploads =
      (await requestLog(fx.sb.url, `/oss/v2/buckets/${fx.bucket}/objects/big.bin/signeds3upload`))
        .filter((e) => e.method === "GET");
    assert.ok(uploads.length >= 2);
    assert.deepEqual(
      [...Deno.readDirSync(path.join(fx.home.stateDir, "uploads"))],
      [],
      "the record and any temp file of it are gone",
    );

    const info = json<{ sha1: string }>(
      await diazo(["object", "info", fx.bucket, "big.bin", "--output", "json"], { env: fx.env }),
    );
    assert.equal(info.sha1, sha1, "the platform's object is the file");
  } finally {
    await fx.close();
  }
});

Deno.test("faults: ~20% of storage PUTs fail (503 or dropped) and URLs expire mid-upload; the upload completes intact", async () => {
  const fx = await objectFixture("e2e-faults");
  try {
    const src = path.join(fx.home.cwd, "big.bin");
    const sha1 = await randomFile(src, 64 * MiB);
    // One certain failure of each kind first, then about 20% at random.
    await addFault(fx.sb.url, { method: "PUT", path: STORAGE, status: 503, count: 1 });
    await addFault(fx.sb.url, { method: "PUT", path: STORAGE, drop: true, count: 1 });
    await addFault(fx.sb.url, { method: "PUT", path: STORAGE, status: 503, rate: 0.1 });
    await addFault(fx.sb.url, { method: "PUT", path: STORAGE, drop: true, rate: 0.12 });
    await addFault(fx.sb.url, { method: "PUT", path: STORAGE, delay_ms: 80 });
    const upload = diazo(
      [
        "object",
        "upload",
        fx.bucket,
        "big.bin",
        "--part-size",
        "5",
        "--concurrency",
        "2",
        "--output",
        "json",
      ],
      { env: fx.env, cwd: fx.home.cwd },
    );
    await waitFor(
      "four stored parts",
      async () => (await partPuts(fx.sb.url)).filter((p) => p.status === 200).length >= 4,
    );
    // Two hours later every URL handed out so far has expired (and so has the token).
    await fetch(`${fx.sb.url}/_sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 7200 }),
    }).then((r) => r.body?.cancel());
    const out = await upload;
    assert.equal(out.code, 0, out.stderr);
    assert.equal(json<{ sha1: string }>(out).sha1, sha1);

    const puts = await partPuts(fx.sb.url);
    const statuses = new Set(puts.map((p) => p.status));
    assert.ok(statuses.has(403), `some PUTs met an expired URL: ${JSON.stringify(puts)}`);
    assert.ok(puts.some((p) => p.status === 503), "some PUTs failed with 503");
    assert.ok(puts.some((p) => p.status === 0), "some PUTs lost their connection");
    assert.deepEqual(
      [...new Set(puts.filter((p) => p.status === 200).map((p) => p.part))].sort((a, b) => a - b),
      Array.from({ length: 13 }, (_, i) => i + 1),
    );
    const urlRequests =
      (await requestLog(fx.sb.url, `/oss/v2/buckets/${fx.bucket}/objects/big.bin/signeds3upload`))
        .filter((e) => e.method === "GET" && e.status === 200);
    assert.ok(urlRequests.length >= 2, "fresh URLs were requested after the expiry");
    const info = json<{ sha1: string; size: number }>(
      await diazo(["object", "info", fx.bucket, "big.bin", "--output", "json"], { env: fx.env }),
    );
    assert.equal(info.sha1, sha1);
    assert.equal(info.size, 64 * MiB);
  } finally {
    await fx.close();
  }
});
