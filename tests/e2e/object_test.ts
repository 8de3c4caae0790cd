/** e2e: uploads and downloads of every size, listing across pages, batches, traversal guards. */
import assert from "node:assert/strict";
import path from "node:path";
import { createHash } from "node:crypto";
import { diazo, json, requestLog, type TestHome } from "./harness.ts";
import { objectFixture, randomFile, sha1Of } from "./object_helpers.ts";

const MiB = 1024 * 1024;

function file(home: TestHome, name: string): string {
  return path.join(home.cwd, name);
}

Deno.test("upload and download 1 byte, 5 MiB and 64 MiB: SHA-1 equal end to end, parts as expected", async () => {
  const fx = await objectFixture();
  try {
    for (
      const [name, size, parts] of [["one.bin", 1, 1], ["five.bin", 5 * MiB, 1], [
        "big.bin",
        64 * MiB,
        8,
      ]] as const
    ) {
      const src = file(fx.home, name);
      const sha1 = await randomFile(src, size);
      const up = await diazo(["object", "upload", fx.bucket, src, "-o", "json"], { env: fx.env });
      assert.equal(up.code, 0, up.stderr);
      const out = json<Record<string, unknown>>(up);
      assert.equal(out.sha1, sha1, name);
      assert.equal(out.size, size);
      assert.equal(out.objectKey, name);
      assert.equal(out.parts, parts, `${name} in ${parts} part(s) of 8 MiB`);
      assert.equal(out.objectId, `urn:adsk.objects:os.object:${fx.bucket}/${name}`);
      assert.equal(atob(String(out.urn).replace(/-/g, "+").replace(/_/g, "/")), out.objectId);

      const dir = path.join(fx.home.dir, `down-${name}`);
      const down = await diazo([
        "object",
        "download",
        fx.bucket,
        name,
        "--out",
        `${dir}/`,
        "--output",
        "json",
      ], {
        env: fx.env,
      });
      assert.equal(down.code, 0, down.stderr);
      const got = json<Record<string, unknown>>(down);
      assert.equal(got.file, path.join(dir, name));
      assert.equal(got.sha1, sha1);
      assert.equal(await sha1Of(path.join(dir, name)), sha1, `${name}: the bytes on disk match`);
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [name], "no temp file left behind");
    }
  } finally {
    await fx.close();
  }
});

Deno.test("a generated 300 MiB model: multipart upload and download keep its SHA-1", async () => {
  const fx = await objectFixture();
  try {
    const gen = await diazo(
      ["generate", "obj", "--size", "300MiB", "--out", "model.obj", "--output", "json"],
      {
        env: fx.env,
        cwd: fx.home.cwd,
      },
    );
    assert.equal(gen.code, 0, gen.stderr);
    const generated = json<{ sha1: string; size: number }>(gen);
    assert.equal(generated.size, 300 * MiB);
    const up = await diazo([
      "object",
      "upload",
      fx.bucket,
      "model.obj",
      "--part-size",
      "16",
      "--output",
      "json",
    ], {
      env: fx.env,
      cwd: fx.home.cwd,
    });
    assert.equal(up.code, 0, up.stderr);
    const out = json<{ sha1: string; parts: number; size: number }>(up);
    assert.equal(out.sha1, generated.sha1);
    assert.equal(out.parts, 19, "300 MiB in 16 MiB parts");
    const puts = await requestLog(fx.sb.url, "/__s3/upload/");
    assert.equal(puts.filter((e) => e.method === "PUT" && e.status === 200).length, 19);
    const down = await diazo([
      "object",
      "download",
      fx.bucket,
      "model.obj",
      "--out",
      "copy.obj",
      "--output",
      "json",
    ], {
      env: fx.env,
      cwd: fx.home.cwd,
    });
    assert.equal(down.code, 0, down.stderr);
    assert.equal(await sha1Of(path.join(fx.home.cwd, "copy.obj")), generated.sha1);
  } finally {
    await fx.close();
  }
});

Deno.test("batch: a missing file fails alone, sets the exit code and the others are uploaded", async () => {
  const fx = await objectFixture();
  try {
    await Deno.writeTextFile(file(fx.home, "a.txt"), "a");
    await Deno.writeTextFile(file(fx.home, "b.txt"), "b");
    const r = await diazo([
      "object",
      "upload",
      fx.bucket,
      "a.txt",
      "missing.txt",
      "b.txt",
      "--batch",
      "--output",
      "json",
    ], {
      env: fx.env,
      cwd: fx.home.cwd,
    });
    assert.equal(r.code, 2, "File not found is a usage error (exit 2)");
    const outcomes = json<{ file: string; status: string; error?: string }[]>(r);
    assert.deepEqual(outcomes.map((o) => [o.file, o.status]), [["a.txt", "ok"], ["b.txt", "ok"], [
      "missing.txt",
      "failed",
    ]]);
    assert.equal(outcomes[2].error, "File not found: missing.txt");
    const list = json<{ objectKey: string }[]>(
      await diazo(["object", "list", fx.bucket, "--output", "json"], { env: fx.env }),
    );
    assert.deepEqual(list.map((o) => o.objectKey), ["a.txt", "b.txt"]);
  } finally {
    await fx.close();
  }
});

Deno.test("download never writes outside -o, whatever the key", async () => {
  const fx = await objectFixture();
  try {
    await Deno.writeTextFile(file(fx.home, "payload"), "evil bytes");
    const evilKeys = ["../evil", "/abs", "a/../../b", "..\\win"];
    for (const key of evilKeys) {
      const up = await diazo(["object", "upload", fx.bucket, "payload", "--key", key], {
        env: fx.env,
        cwd: fx.home.cwd,
      });
      assert.equal(up.code, 0, `${key}: ${up.stderr}`);
    }
    const target = path.join(fx.home.dir, "target", "inner");
    await Deno.mkdir(target, { recursive: true });
    const before = JSON.stringify(await tree(fx.home.dir));
    for (const key of evilKeys) {
      const r = await diazo(["object", "download", fx.bucket, key, "--out", target], {
        env: fx.env,
        cwd: fx.home.cwd,
      });
      assert.equal(r.code, 2, `${key}: ${r.stderr}`);
      assert.match(r.stderr, /^error: refusing to write/m);
      assert.match(r.stderr, /^hint: /m);
    }
    // Also with the default target (the working directory).
    const r = await diazo(["object", "download", fx.bucket, "../evil"], { env: fx.env, cwd: target });
    assert.equal(r.code, 2);
    assert.equal(JSON.stringify(await tree(fx.home.dir)), before, "nothing was written anywhere");
    // Naming the file explicitly is the way to fetch such an object.
    const ok = await diazo(
      ["object", "download", fx.bucket, "../evil", "--out", path.join(target, "evil.bin")],
      {
        env: fx.env,
      },
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(await Deno.readTextFile(path.join(target, "evil.bin")), "evil bytes");
  } finally {
    await fx.close();
  }
});

async function tree(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(path.join(dir, rel))) {
    const child = path.join(rel, e.name);
    out.push(child);
    if (e.isDirectory) out.push(...await tree(dir, child));
  }
  return out.sort();
}

Deno.test("bad input: missing file, capital bucket key, tiny part size, directory without --batch", async () => {
  const fx = await objectFixture();
  try {
    const cases: [string[], number, RegExp][] = [
      [["object", "upload", fx.bucket, "nope.obj"], 2, /^error: File not found: nope\.obj$/m],
      [["object", "upload", "MyBucket", "nope.obj"], 2, /^error: invalid bucket key 'MyBucket'/m],
      [["object", "list", "Bad_Key"], 2, /^error: invalid bucket key/m],
      [
        ["object", "upload", fx.bucket, "x", "--part-size", "1"],
        2,
        /^error: --part-size 1 is outside 5-512 MiB$/m,
      ],
      [["object", "upload", fx.bucket, "."], 2, /^error: \. is a directory$/m],
      [["object", "download", fx.bucket, "absent.bin"], 4, /^error: Object not found: absent\.bin$/m],
      [["object", "signed-url", fx.bucket, "x", "--minutes", "90"], 2, /above 60/],
    ];
    await Deno.writeTextFile(file(fx.home, "x"), "x");
    for (const [args, code, message] of cases) {
      const r = await diazo(args, { env: fx.env, cwd: fx.home.cwd });
      assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(" "));
      assert.match(r.stderr, /^hint: \S/m, args.join(" "));
      assert.doesNotMatch(r.stderr, / {4}at /, "no stack trace");
    }
  } finally {
    await fx.close();
  }
});

Deno.test("object info, urn, signed-url and delete; bucket delete reports the objects it held", async () => {
  const fx = await objectFixture();
  try {
    const sha1 = await randomFile(file(fx.home, "m.obj"), 1000);
    assert.equal(
      (await diazo(["object", "upload", fx.bucket, "m.obj", "--key", "dir/m.obj"], {
        env: fx.env,
        cwd: fx.home.cwd,
      })).code,
      0,
    );
    const info = json<Record<string, unknown>>(
      await diazo(["object", "info", fx.bucket, "dir/m.obj", "--output", "json"], { env: fx.env }),
    );
    assert.equal(info.sha1, sha1);
    assert.equal(info.size, 1000);
    assert.equal(typeof info.createdAt, "string");
    const urn = json<{ urn: string; objectId: string }>(
      await diazo(["object", "urn", fx.bucket, "dir/m.obj", "--output", "json"], { env: fx.env }),
    );
    assert.equal(urn.urn, info.urn);
    const signed = json<{ signedUrl: string }>(
      await diazo(["object", "signed-url", fx.bucket, "dir/m.obj", "--minutes", "5", "--output", "json"], {
        env: fx.env,
      }),
    );
    const body = new Uint8Array(await (await fetch(signed.signedUrl)).arrayBuffer());
    assert.equal(
      createHash("sha1").update(body).digest("hex"),
      sha1,
      "the signed URL serves the object without credentials",
    );

    const noYes = await diazo(["object", "delete", fx.bucket, "dir/m.obj"], { env: fx.env });
    assert.equal(noYes.code, 2, "non-interactive without --yes is a usage error, never a silent no-op");
    assert.match(noYes.stderr, /--yes/);
    const bucketNoYes = await diazo(["bucket", "delete", fx.bucket], { env: fx.env });
    assert.equal(bucketNoYes.code, 2);
    assert.match(bucketNoYes.stderr, /is not empty: 1 object/);
    const del = await diazo(["bucket", "delete", fx.bucket, "--yes", "--output", "json"], { env: fx.env });
    assert.equal(del.code, 0, del.stderr);
    assert.equal(json<{ objectsDeleted: number }>(del).objectsDeleted, 1);
    const gone = await diazo(["object", "info", fx.bucket, "dir/m.obj"], { env: fx.env });
    assert.equal(gone.code, 4);
  } finally {
    await fx.close();
  }
});

Deno.test("oss list is bucket list", async () => {
  const fx = await objectFixture("e2e-oss-alias");
  try {
    const a = await diazo(["oss", "list", "--region", "US", "--output", "json"], { env: fx.env });
    const b = await diazo(["bucket", "list", "--region", "US", "--output", "json"], { env: fx.env });
    assert.equal(a.code, 0, a.stderr);
    assert.deepEqual(json(a), json(b));
    assert.deepEqual(json<{ bucketKey: string }[]>(a).map((x) => x.bucketKey), ["e2e-oss-alias"]);
  } finally {
    await fx.close();
  }
});

Deno.test("object download --out - writes the object to the run's stdout (in process too), the summary to stderr", async () => {
  const fx = await objectFixture();
  try {
    await Deno.writeTextFile(file(fx.home, "m.obj"), "o model\nv 1 2 3\n");
    assert.equal((await fx.run(["object", "upload", fx.bucket, "m.obj"])).code, 0);
    const r = await fx.run(["object", "download", fx.bucket, "m.obj", "--out", "-"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "o model\nv 1 2 3\n");
    assert.doesNotMatch(r.stderr, /^\{/m, "no JSON summary mixed into the data");
  } finally {
    await fx.close();
  }
});
