/**
 * A tampered object journal (`<data-dir>/state/objects.jsonl`): a line naming a file outside
 * `<data-dir>/objects/` (an absolute path, a way up with `..`, a store id of `..`) refuses the start
 * with the line's number, where the sandbox used to serve that file. Lines name their files
 * relative to the objects directory; a journal of an earlier version (absolute paths inside it) is read.
 */
import assert from "node:assert/strict";
import { isAbsolute, join } from "node:path";
import { DiazoError } from "../../src/core/errors.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { api, token } from "../sandbox/helpers.ts";
import {
  completeUpload,
  downloadObject,
  putToUrl,
  signedUploadUrls,
  uploadObject,
} from "../sandbox/object_helpers.ts";

const SCOPES = "bucket:create bucket:read data:read data:write";

function start(dataDir: string): Promise<Sandbox> {
  return startSandbox({ port: 0, dataDir, persist: true });
}

interface Line {
  b: string;
  k: string;
  o: { storeId: string; files: string[]; fileSizes: number[]; objectKey: string; [k: string]: unknown };
}

/** A data dir with one bucket holding one object `real.txt`; its journal's lines. */
async function dataDirWithObject(parent: string): Promise<{ dir: string; lines: Line[] }> {
  const dir = join(parent, "data");
  const sb = await start(dir);
  try {
    const t = await token(sb, SCOPES);
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "journal-bucket", policyKey: "transient" }))
        .status,
      200,
    );
    await uploadObject(sb, t, "journal-bucket", "real.txt", new TextEncoder().encode("real bytes"));
  } finally {
    await sb.close();
  }
  const text = await Deno.readTextFile(join(dir, "state", "objects.jsonl"));
  return { dir, lines: text.trimEnd().split("\n").map((l) => JSON.parse(l)) };
}

async function writeJournal(dir: string, lines: Line[]): Promise<void> {
  await Deno.writeTextFile(
    join(dir, "state", "objects.jsonl"),
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
}

/** A line for `key` whose one file is `file` of `size` bytes. */
function stolen(real: Line, key: string, file: string, size: number, storeId = real.o.storeId): Line {
  return { b: real.b, k: key, o: { ...real.o, objectKey: key, storeId, files: [file], fileSizes: [size] } };
}

Deno.test("sandbox journal: lines name their files relative to <data-dir>/objects/", async () => {
  const parent = await Deno.makeTempDir({ prefix: "diazo-journal-" });
  try {
    const { lines } = await dataDirWithObject(parent);
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0].o.files, [`${lines[0].o.storeId}/1`]);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("sandbox journal: a line naming a file outside the objects dir refuses the start with its line number", async () => {
  const parent = await Deno.makeTempDir({ prefix: "diazo-journal-" });
  try {
    const { dir, lines } = await dataDirWithObject(parent);
    const secret = join(parent, "secret.txt");
    await Deno.writeTextFile(secret, "root:x:0:0:root:/root:/bin/sh\n");
    const size = (await Deno.stat(secret)).size;
    const real = lines[0];
    const cases: [Line, RegExp][] = [
      [stolen(real, "passwd", secret, size), /outside .*objects.*secret\.txt/],
      [stolen(real, "up", `${real.o.storeId}/../../../secret.txt`, size), /outside .*objects/],
      [
        stolen(real, "abs-up", join(dir, "objects", real.o.storeId, "..", "..", "..", "secret.txt"), size),
        /outside/,
      ],
      [stolen(real, "other-dir", "other/1", size), /outside/],
      [stolen(real, "store-up", "../secret.txt", size, ".."), /no valid storeId/],
    ];
    for (const [bad, message] of cases) {
      await writeJournal(dir, [real, bad]);
      let sb: Sandbox | undefined;
      const e = await start(dir).then((s) => (sb = s, undefined), (e) => e);
      if (sb) {
        // Today's sandbox would start and serve the file: show what it served, then fail.
        const served = await downloadObject(sb, await token(sb, SCOPES), "journal-bucket", bad.k).catch(
          String,
        );
        await sb.close();
        const text = served instanceof Uint8Array ? new TextDecoder().decode(served) : served;
        assert.fail(`the sandbox started on a journal naming ${bad.o.files[0]} and served: ${text}`);
      }
      assert.ok(e instanceof DiazoError, String(e));
      assert.match(e.message, /objects\.jsonl line 2: /);
      assert.match(e.message, message);
      assert.match(e.hint ?? "", /remove that line|new --data-dir/);
    }
    assert.equal(
      await Deno.readTextFile(secret),
      "root:x:0:0:root:/root:/bin/sh\n",
      "the outside file is untouched",
    );
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("sandbox journal: an earlier version's absolute paths inside the objects dir are still read", async () => {
  const parent = await Deno.makeTempDir({ prefix: "diazo-journal-" });
  try {
    const { dir, lines } = await dataDirWithObject(parent);
    const real = lines[0];
    await writeJournal(dir, [{
      ...real,
      o: {
        ...real.o,
        files: [isAbsolute(real.o.files[0]) ? real.o.files[0] : join(dir, "objects", real.o.files[0])],
      },
    }]);
    const sb = await start(dir);
    try {
      const got = await downloadObject(sb, await token(sb, SCOPES), "journal-bucket", "real.txt");
      assert.equal(new TextDecoder().decode(got), "real bytes");
    } finally {
      await sb.close();
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

/** Every object of a decoded state with a `file` field (upload parts), wherever it is. */
function partsIn(
  value: unknown,
  out: { file: string; size: number }[] = [],
): { file: string; size: number }[] {
  if (Array.isArray(value)) { for (const v of value) partsIn(v, out); }
  else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.file === "string" && typeof o.size === "number") {
      out.push(o as { file: string; size: number });
    }
    for (const v of Object.values(o)) partsIn(v, out);
  }
  return out;
}

Deno.test("sandbox journal: an upload part of the state file outside the uploads folder is dropped, never moved", async () => {
  const parent = await Deno.makeTempDir({ prefix: "diazo-journal-" });
  const dir = join(parent, "data");
  const secret = join(parent, "secret.txt");
  try {
    await Deno.writeTextFile(secret, "not the sandbox's");
    let sb = await start(dir);
    let uploadKey: string;
    try {
      const t = await token(sb, SCOPES);
      await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "journal-bucket", policyKey: "transient" });
      const up = await signedUploadUrls(sb, t, "journal-bucket", "open.bin");
      uploadKey = up.uploadKey;
      assert.equal((await putToUrl(up.urls[0], new TextEncoder().encode("part one"))).status, 200);
    } finally {
      await sb.close();
    }
    const statePath = join(dir, "state", "state.json");
    const state = JSON.parse(await Deno.readTextFile(statePath));
    const parts = partsIn(state.stores.oss.uploads);
    assert.ok(parts.length > 0, "the open session has its part");
    const size = (await Deno.stat(secret)).size;
    for (const p of parts) Object.assign(p, { file: secret, size });
    await Deno.writeTextFile(statePath, JSON.stringify(state));

    sb = await start(dir);
    try {
      const t = await token(sb, SCOPES);
      const done = await completeUpload(sb, t, "journal-bucket", "open.bin", { uploadKey });
      assert.notEqual(done.status, 200, "the upload cannot complete with a part outside its folder");
    } finally {
      await sb.close();
    }
    assert.equal(await Deno.readTextFile(secret), "not the sandbox's", "the outside file stays where it was");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
