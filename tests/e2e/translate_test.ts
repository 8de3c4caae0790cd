/** e2e: `diazo translate ...` against the sandbox's Model Derivative emulator. */
import assert from "node:assert/strict";
import path from "node:path";
import { encodeUrn } from "../../src/aps/urn.ts";
import { cliCommand, diazo, json, requestLog } from "./harness.ts";
import { CUBE_OBJ, mdFixture } from "./md_helpers.ts";

type Status = {
  status: string;
  progress: string;
  percent: number;
  objectId: string;
  outputs: { outputType: string }[];
};

Deno.test("translate start --wait: an OBJ to obj succeeds, with progress on stderr and JSON on stdout", async () => {
  const fx = await mdFixture();
  try {
    const { urn, objectId } = await fx.upload("cube.obj", CUBE_OBJ);
    const r = await diazo(["translate", "start", urn, "--format", "obj", "--wait", "-o", "json"], {
      env: fx.env,
    });
    assert.equal(r.code, 0, r.stderr);
    const out = json<Status>(r);
    assert.equal(out.status, "success");
    assert.equal(out.percent, 100);
    assert.equal(out.objectId, objectId);
    assert.ok(out.outputs.some((o) => o.outputType === "obj"), JSON.stringify(out.outputs));
    assert.match(r.stderr, /Started translating .*cube\.obj to obj/);
    assert.match(r.stderr, /succeeded/);
    const posts = (await requestLog(fx.sb.url, "/modelderivative/v2/designdata/job")).filter((e) =>
      e.method === "POST"
    );
    assert.equal(posts.length, 1);
  } finally {
    await fx.close();
  }
});

Deno.test("translate <raw urn> --formats svf2 is start's shorthand; status shows the result", async () => {
  const fx = await mdFixture();
  try {
    const { urn, objectId } = await fx.upload("dir/my cube.obj", CUBE_OBJ);
    const r = await diazo(["translate", objectId, "--formats", "svf2", "-o", "json"], { env: fx.env });
    assert.equal(r.code, 0, r.stderr);
    const started = json<{ result: string; urn: string; objectId: string }>(r);
    assert.equal(started.objectId, objectId);
    assert.equal(started.urn, urn);
    assert.match(r.stderr, /diazo translate status .* --wait/);

    const s = await diazo(["translate", "status", urn, "--wait", "-o", "json"], { env: fx.env });
    assert.equal(s.code, 0, s.stderr);
    const st = json<Status>(s);
    assert.equal(st.status, "success");
    assert.ok(st.outputs.some((o) => o.outputType === "svf2"));

    const once = await diazo(["translate", "status", urn, "-o", "json", "--query", "status"], {
      env: fx.env,
    });
    assert.equal(once.code, 0, once.stderr);
    assert.equal(json(once), "success");
  } finally {
    await fx.close();
  }
});

Deno.test("translate manifest, metadata, tree and properties (through the platform's 202)", async () => {
  const fx = await mdFixture();
  try {
    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    const t = await diazo(["translate", "start", urn, "--preset", "svf2", "--wait"], { env: fx.env });
    assert.equal(t.code, 0, t.stderr);

    const m = await diazo(["translate", "manifest", urn, "-o", "json"], { env: fx.env });
    assert.equal(m.code, 0, m.stderr);
    const manifest = json<{ type: string; status: string; derivatives: { outputType: string }[] }>(m);
    assert.equal(manifest.type, "manifest");
    assert.equal(manifest.status, "success");
    assert.ok(manifest.derivatives.some((d) => d.outputType === "svf2"));

    const v = await diazo(["translate", "metadata", urn, "-o", "json"], { env: fx.env });
    assert.equal(v.code, 0, v.stderr);
    const views = json<{ guid: string; role: string }[]>(v);
    const view3d = views.find((x) => x.role === "3d");
    assert.ok(view3d, JSON.stringify(views));

    const p = await diazo(["translate", "properties", urn, "-o", "json"], { env: fx.env });
    assert.equal(p.code, 0, p.stderr);
    const props = json<{ data: { collection: { objectid: number; name: string }[] } }>(p);
    assert.ok(props.data.collection.length > 0);
    const propCalls = await requestLog(
      fx.sb.url,
      `/modelderivative/v2/designdata/${urn}/metadata/${view3d.guid}/properties`,
    );
    assert.deepEqual(propCalls.map((c) => c.status), [202, 200], "the first read is answered 202, then 200");

    const tr = await diazo(["translate", "tree", urn, "--guid", view3d.guid, "-o", "json"], { env: fx.env });
    assert.equal(tr.code, 0, tr.stderr);
    const tree = json<{ data: { objects: unknown[] } }>(tr);
    assert.ok(tree.data.objects.length > 0);

    const one = props.data.collection[0].objectid;
    const p1 = await diazo(["translate", "props", urn, "--object-id", String(one), "-o", "json"], {
      env: fx.env,
    });
    assert.equal(p1.code, 0, p1.stderr);
    const only = json<{ data: { collection: { objectid: number }[] } }>(p1).data.collection;
    assert.ok(only.length >= 1 && only.every((o) => o.objectid === one), JSON.stringify(only));
  } finally {
    await fx.close();
  }
});

Deno.test("translate download --format obj writes every obj derivative inside the directory (--out)", async () => {
  const fx = await mdFixture();
  try {
    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    const t = await diazo(["translate", "start", urn, "--format", "obj,svf2", "--wait"], { env: fx.env });
    assert.equal(t.code, 0, t.stderr);
    for (const flag of ["--out"]) {
      const dir = path.join(fx.home.dir, `out${flag}`);
      const r = await diazo(
        ["translate", "download", urn, "--format", "obj", flag, dir, "--output", "json"],
        {
          env: fx.env,
        },
      );
      assert.equal(r.code, 0, r.stderr);
      const rows = json<{ path: string; file: string; size: number; ok: boolean; outputType: string }[]>(r);
      assert.ok(rows.length >= 1);
      for (const row of rows) {
        assert.equal(row.ok, true);
        assert.equal(row.outputType, "obj");
        const rel = path.relative(dir, row.file);
        assert.ok(!rel.startsWith("..") && !path.isAbsolute(rel), `${row.file} is outside ${dir}`);
        const info = await Deno.stat(row.file);
        assert.ok(info.isFile && info.size > 0 && info.size === row.size);
      }
      const text = await Deno.readTextFile(rows.find((x) => x.path.endsWith(".obj"))!.file);
      assert.match(text, /^v /m);
      assert.match(r.stderr, new RegExp(`Downloaded ${rows.length} of ${rows.length} derivatives`));
    }
  } finally {
    await fx.close();
  }
});

Deno.test("a corrupt design: translate start --wait exits 1 with 'Translation failed', its hint and the platform's message", async () => {
  const fx = await mdFixture();
  try {
    const garbage = new Uint8Array(4096);
    crypto.getRandomValues(garbage);
    const { urn } = await fx.upload("broken.obj", garbage);
    const r = await diazo(["translate", "start", urn, "--format", "obj", "--wait"], { env: fx.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^error: Translation failed$/m);
    assert.match(
      r.stderr,
      /^hint: Check that the format is supported and the file is complete and not corrupt/m,
    );
    assert.match(r.stderr, /^platform: .+/m, "the platform's own message is shown");
    assert.equal(r.stdout, "");
  } finally {
    await fx.close();
  }
});

Deno.test("invalid URN and unknown preset are usage errors (exit 2) before any request", async () => {
  const fx = await mdFixture();
  try {
    for (
      const args of [["translate", "start", "not-a-urn!"], ["translate", "status", "dGhpcyBpcyBub3QgYSB1cm4"]]
    ) {
      const r = await diazo(args, { env: fx.env });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^error: Invalid URN$/m);
      assert.match(r.stderr, /^hint: /m);
    }
    const urn = encodeUrn(`urn:adsk.objects:os.object:${fx.bucket}/cube.obj`);
    const p = await diazo(["translate", "start", urn, "--preset", "no-such"], { env: fx.env });
    assert.equal(p.code, 2, p.stderr);
    assert.match(p.stderr, /^error: Unknown preset 'no-such'$/m);
    assert.match(p.stderr, /^hint: Available presets: .*svf2.*stl-binary/m);
    assert.deepEqual(await requestLog(fx.sb.url, "/modelderivative"), []);
  } finally {
    await fx.close();
  }
});

Deno.test("a job pending longer than the threshold is translation_stalled (exit 5); --timeout is exit 5 too", async () => {
  // Jobs of 10^5 s stay pending for their first tenth: far longer than the test.
  const fx = await mdFixture({ jobSeconds: 100_000 });
  try {
    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    const env = { ...fx.env, DIAZO_STALL_MINUTES: "0.01" }; // 0.6 s
    // --timeout only bounds the test should stall detection break; it must not be what ends the wait.
    const r = await diazo(["translate", "start", urn, "--format", "obj", "--wait", "--timeout", "60"], {
      env,
    });
    assert.equal(r.code, 5, r.stderr);
    assert.match(r.stderr, /^error: Translation still pending after [\d.]+ minutes$/m);
    assert.match(r.stderr, /^hint: .*--force/m);

    const t = await diazo(["translate", "status", urn, "--wait", "--timeout", "1"], { env: fx.env });
    assert.equal(t.code, 5, t.stderr);
    assert.match(t.stderr, /timed out/);
  } finally {
    await fx.close();
  }
});

Deno.test("a job pending for 30 minutes of sandbox time is reported as probably failed (exit 5)", async () => {
  const fx = await mdFixture({ jobSeconds: 100_000 });
  try {
    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    assert.equal((await diazo(["translate", "start", urn, "--format", "obj"], { env: fx.env })).code, 0);
    const child = new Deno.Command(Deno.execPath(), {
      args: cliCommand(["translate", "status", urn, "--wait", "--timeout", "120"]),
      env: { ...fx.env, DIAZO_POLL_BASE_MS: "100" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const manifestReads = async () =>
      (await requestLog(fx.sb.url, "/modelderivative/v2/designdata/")).filter((e) =>
        e.path.endsWith("/manifest")
      )
        .length;
    const before = await manifestReads();
    while ((await manifestReads()) < before + 2) await new Promise((r) => setTimeout(r, 25));
    await fetch(`${fx.sb.url}/_sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 31 * 60 }),
    }).then((r) => r.body?.cancel());
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 5, stderr);
    assert.match(stderr, /^error: Translation still pending after 3\d minutes$/m);
  } finally {
    await fx.close();
  }
});

Deno.test("translate delete asks for confirmation; with --yes the manifest is gone (exit 4 after)", async () => {
  const fx = await mdFixture();
  try {
    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    assert.equal((await diazo(["translate", "start", urn, "-f", "obj", "--wait"], { env: fx.env })).code, 0);
    const refused = await diazo(["translate", "delete", urn], { env: fx.env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--yes/);
    const del = await diazo(["translate", "delete", urn, "--yes", "-o", "json"], { env: fx.env });
    assert.equal(del.code, 0, del.stderr);
    assert.equal(json<{ deleted: boolean }>(del).deleted, true);
    const after = await diazo(["translate", "manifest", urn], { env: fx.env });
    assert.equal(after.code, 4, after.stderr);
  } finally {
    await fx.close();
  }
});

Deno.test("translate formats lists the platform's output types; presets are kept in presets.json", async () => {
  const fx = await mdFixture();
  try {
    const f = await diazo(["translate", "formats", "-o", "json"], { env: fx.env });
    assert.equal(f.code, 0, f.stderr);
    const formats = json<Record<string, string[]>>(f);
    assert.ok(Array.isArray(formats.obj) && formats.obj.length > 0, JSON.stringify(formats));

    const c = await diazo([
      "translate",
      "preset",
      "create",
      "cube-3d",
      "--format",
      "svf2,obj",
      "--views",
      "3d",
    ], {
      env: fx.env,
    });
    assert.equal(c.code, 0, c.stderr);
    const saved = JSON.parse(await Deno.readTextFile(path.join(fx.home.configDir, "presets.json")));
    assert.deepEqual(saved.presets["cube-3d"].formats, [{ type: "svf2", views: ["3d"] }, { type: "obj" }]);
    const over = await diazo(["translate", "preset", "create", "svf2", "--format", "obj"], { env: fx.env });
    assert.equal(over.code, 2, over.stderr);

    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    const s = await diazo(["translate", "start", urn, "--preset", "cube-3d", "--wait", "-o", "json"], {
      env: fx.env,
    });
    assert.equal(s.code, 0, s.stderr);
    assert.deepEqual(json<Status>(s).outputs.map((o) => o.outputType).sort(), ["obj", "svf2"]);

    const d = await diazo(["translate", "preset", "delete", "cube-3d"], { env: fx.env });
    assert.equal(d.code, 0, d.stderr);
    const gone = await diazo(["translate", "preset", "show", "cube-3d"], { env: fx.env });
    assert.equal(gone.code, 2, gone.stderr);
  } finally {
    await fx.close();
  }
});
