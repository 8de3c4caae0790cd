/** Synthetic files: valid in each format, exactly the size asked for, deterministic by seed. */
import { concatBytes } from "../../src/core/bytes.ts";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import type { DiazoError } from "../../src/core/errors.ts";
import {
  generateModel,
  minimumSize,
  MODEL_FORMATS,
  type ModelFormat,
  parseFormat,
  parseSize,
  sha1Chunks,
} from "../../src/generate/generate.ts";
import { writeChunksAtomic } from "../../src/platform/fs_write.ts";

const NAME = /^(Beam|Column|Slab|Wall|Door|Window|Member|Stair|Railing|Footing)_\d{4,}$/;

function bytesOf(
  format: ModelFormat,
  size: number,
  extra: { seed?: number; objects?: number } = {},
): Uint8Array {
  return concatBytes([...generateModel({ format, size, ...extra }).chunks()]);
}

function textOf(format: ModelFormat, size: number, extra: { seed?: number; objects?: number } = {}): string {
  return new TextDecoder().decode(bytesOf(format, size, extra));
}

/** OBJ: every face refers to existing vertices and normals; returns the `o` names. */
function checkObj(text: string): string[] {
  let v = 0, vn = 0, faces = 0;
  const objects: string[] = [];
  let material = false;
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [kw, ...rest] = line.split(" ");
    if (kw === "v" || kw === "vn") {
      assert.equal(rest.length, 3, line);
      assert.ok(rest.every((n) => Number.isFinite(Number(n))), line);
      if (kw === "v") v++;
      else vn++;
    } else if (kw === "f") {
      assert.ok(material, "usemtl before the first face");
      faces++;
      for (const ref of rest) {
        const [vi, , ni] = ref.split("/").map(Number);
        const vAbs = vi < 0 ? v + vi + 1 : vi, nAbs = ni < 0 ? vn + ni + 1 : ni;
        assert.ok(vAbs >= 1 && vAbs <= v, `face ${line} refers to vertex ${vAbs} of ${v}`);
        assert.ok(nAbs >= 1 && nAbs <= vn, `face ${line} refers to normal ${nAbs} of ${vn}`);
      }
    } else if (kw === "o") {
      objects.push(rest.join(" "));
      material = false;
    } else if (kw === "g") {
      assert.equal(rest.join(" "), objects.at(-1));
    } else if (kw === "usemtl") {
      material = true;
    } else {
      assert.fail(`unexpected OBJ statement: ${line.slice(0, 40)}`);
    }
  }
  assert.ok(faces >= objects.length && v > 0);
  return objects;
}

/** ASCII STL: solids of facets with three vertices each; returns the solid names and facet count. */
function checkStl(text: string): { solids: string[]; facets: number } {
  const solids: string[] = [];
  let facets = 0, state = "out", vertices = 0;
  const lines = text.split("\n");
  assert.equal(lines.pop(), "", "ends with a newline");
  for (const raw of lines) {
    const w = raw.trim().split(/\s+/);
    const expect = (s: string) => assert.equal(state, s, `'${raw}' in state ${state}`);
    switch (w[0]) {
      case "solid":
        expect("out");
        solids.push(w.slice(1).join(" "));
        state = "solid";
        break;
      case "facet":
        expect("solid");
        assert.equal(w[1], "normal");
        assert.ok(w.slice(2).every((n) => Number.isFinite(Number(n))) && w.length === 5, raw);
        state = "facet";
        break;
      case "outer":
        expect("facet");
        state = "loop";
        vertices = 0;
        break;
      case "vertex":
        expect("loop");
        assert.ok(w.length === 4 && w.slice(1).every((n) => Number.isFinite(Number(n))), raw);
        vertices++;
        break;
      case "endloop":
        expect("loop");
        assert.equal(vertices, 3);
        state = "facet";
        break;
      case "endfacet":
        expect("facet");
        facets++;
        state = "solid";
        break;
      case "endsolid":
        expect("solid");
        assert.equal(w.slice(1).join(" "), solids.at(-1));
        state = "out";
        break;
      default:
        assert.fail(`unexpected STL line: ${raw.slice(0, 40)}`);
    }
  }
  assert.equal(state, "out");
  return { solids, facets };
}

/** DXF: code/value pairs, balanced sections, EOF last; every entity on a layer of the LAYER table. */
function checkDxf(text: string): string[] {
  const lines = text.split("\n");
  assert.equal(lines.pop(), "");
  assert.equal(lines.length % 2, 0, "pairs of lines");
  const pairs: [number, string][] = [];
  for (let k = 0; k < lines.length; k += 2) {
    assert.match(lines[k], /^ *\d+$/, `group code at line ${k + 1}`);
    pairs.push([Number(lines[k]), lines[k + 1]]);
  }
  assert.deepEqual(pairs.at(-1), [0, "EOF"]);
  const sections: string[] = [];
  const tableLayers: string[] = [];
  const used = new Set<string>();
  const types = new Set<string>();
  let open: string | undefined, entry: string | undefined;
  for (let k = 0; k < pairs.length; k++) {
    const [code, value] = pairs[k];
    if (code === 0 && value === "SECTION") {
      assert.equal(open, undefined, "nested SECTION");
      open = pairs[++k][1];
      sections.push(open);
    } else if (code === 0 && value === "ENDSEC") {
      assert.notEqual(open, undefined, "ENDSEC without SECTION");
      open = undefined;
    } else if (code === 0) {
      entry = value;
      if (open === "ENTITIES") types.add(value);
    } else if (code === 2 && entry === "LAYER" && open === "TABLES") {
      tableLayers.push(value);
    } else if (code === 8 && open === "ENTITIES") {
      used.add(value);
    } else if (code === 999) {
      assert.equal(sections.length, 0, "comments only before the first section");
    }
  }
  assert.equal(open, undefined, "every section closed");
  assert.deepEqual(sections, ["HEADER", "TABLES", "ENTITIES"]);
  assert.deepEqual([...used].sort(), [...tableLayers].sort());
  assert.ok(types.has("LINE") && types.has("3DFACE"), [...types].join());
  return tableLayers;
}

/** IFC: the STEP frame, unique ids, every reference defined; returns the named elements. */
function checkIfc(text: string): string[] {
  assert.ok(text.startsWith("ISO-10303-21;\nHEADER;\n"));
  assert.ok(text.endsWith("ENDSEC;\nEND-ISO-10303-21;\n"));
  const withoutComments = text.replace(/\/\*[^*]*\*\/\n/g, "");
  const [, data] = withoutComments.split("\nDATA;\n");
  assert.ok(data, "a DATA section");
  const ids = new Set<number>();
  const refs: number[] = [];
  const elements: string[] = [];
  for (const line of data.split("\n").slice(0, -3)) {
    const m = /^#(\d+)=([A-Z0-9]+)\((.*)\);$/.exec(line);
    assert.ok(m, `entity line: ${line.slice(0, 60)}`);
    const id = Number(m[1]);
    assert.ok(!ids.has(id), `id #${id} defined twice`);
    ids.add(id);
    for (const r of m[3].matchAll(/#(\d+)/g)) refs.push(Number(r[1]));
    const name = /^'[0-9A-Za-z_$]{22}',\$,'([^']*)'/.exec(m[3])?.[1];
    if (name && NAME.test(name)) elements.push(`${m[2]}:${name}`);
  }
  for (const r of refs) assert.ok(ids.has(r), `#${r} is referenced but not defined`);
  for (
    const t of [
      "IFCPROJECT",
      "IFCSITE",
      "IFCBUILDING",
      "IFCBUILDINGSTOREY",
      "IFCRELCONTAINEDINSPATIALSTRUCTURE",
    ]
  ) {
    assert.match(data, new RegExp(`=${t}\\(`), t);
  }
  return elements;
}

function groups(format: ModelFormat, text: string): string[] {
  switch (format) {
    case "obj":
      return checkObj(text);
    case "stl":
      return checkStl(text).solids;
    case "dxf":
      return checkDxf(text);
    case "ifc":
      return checkIfc(text).map((e) => e.split(":")[1]);
  }
}

Deno.test("every format is exactly the size asked for, near its minimum and far above it", () => {
  for (const format of MODEL_FORMATS) {
    const min = minimumSize(format);
    for (const size of [min, min + 1, min + 2, min + 3, min + 5, min + 97, 4096, 65_537, 1_000_000]) {
      const text = textOf(format, size);
      assert.equal(text.length, size, `${format} at ${size} bytes`);
      const names = groups(format, text);
      assert.ok(
        names.length >= 1 && names.every((n) => NAME.test(n)),
        `${format} groups: ${names.slice(0, 3)}`,
      );
    }
  }
});

Deno.test("5 MiB files: exact, valid, in 1 MiB chunks, with groups that scale with the size", () => {
  for (const format of MODEL_FORMATS) {
    const model = generateModel({ format, size: 5 * 2 ** 20 });
    const chunks = [...model.chunks()];
    assert.ok(chunks.every((c) => c.length === 2 ** 20), `${format}: five whole chunks`);
    assert.equal(chunks.length, 5);
    const names = groups(format, new TextDecoder().decode(bytesOf(format, 5 * 2 ** 20)));
    assert.equal(new Set(names).size, model.objects, `${format}: one group per object`);
    assert.ok(model.objects > 100, `${format}: ${model.objects} objects`);
  }
});

Deno.test("the kinds of element are spread over the groups and named in every format", () => {
  assert.deepEqual(checkIfc(textOf("ifc", 60_000, { objects: 3 })), [
    "IFCBEAM:Beam_0001",
    "IFCCOLUMN:Column_0002",
    "IFCSLAB:Slab_0003",
  ]);
  const { solids, facets } = checkStl(textOf("stl", 40_000, { objects: 10 }));
  assert.equal(solids.length, 10);
  assert.equal(solids[9], "Footing_0010");
  assert.ok(facets > 10 * 12, "whole boxes at this size");
  assert.deepEqual(checkDxf(textOf("dxf", 20_000, { objects: 4 })), [
    "Beam_0001",
    "Column_0002",
    "Slab_0003",
    "Wall_0004",
  ]);
  const obj = textOf("obj", 5000, { objects: 2 });
  assert.match(obj, /^o Beam_0001\ng Beam_0001\nusemtl Steel\n/m);
  assert.match(obj, /^o Column_0002\ng Column_0002\nusemtl Concrete\n/m);
});

Deno.test("--objects is honoured, and too many for the size is a usage error naming the minimum", () => {
  for (const format of MODEL_FORMATS) {
    assert.equal(groups(format, textOf(format, 200_000, { objects: 7 })).length, 7);
    const needed = minimumSize(format, 50);
    assert.equal(textOf(format, needed, { objects: 50 }).length, needed);
    assert.throws(
      () => generateModel({ format, size: needed - 1, objects: 50 }),
      (e: DiazoError) => e.exitCode === 2 && e.message.includes(`at least ${needed} bytes`),
    );
  }
});

Deno.test("below the smallest valid file is a usage error", () => {
  for (const format of MODEL_FORMATS) {
    const min = minimumSize(format);
    assert.throws(
      () => generateModel({ format, size: min - 1 }),
      (e: DiazoError) =>
        e.exitCode === 2 && e.message.includes(`smallest valid ${format} file (${min} bytes)`),
    );
  }
});

Deno.test("the same seed gives the same bytes; another seed other bytes of the same size", () => {
  const sha = (b: Uint8Array) => createHash("sha1").update(b).digest("hex");
  for (const format of MODEL_FORMATS) {
    const a = bytesOf(format, 300_000, { seed: 7 }), b = bytesOf(format, 300_000, { seed: 7 });
    const c = bytesOf(format, 300_000, { seed: 8 });
    assert.equal(sha(a), sha(b), format);
    assert.notEqual(sha(a), sha(c), format);
    assert.equal(c.length, 300_000);
    const model = generateModel({ format, size: 300_000, seed: 7 });
    const hashed = sha1Chunks(model.chunks());
    for (const _ of hashed.chunks) { /* consume */ }
    assert.equal(hashed.sha1(), sha(a), "sha1Chunks hashes what passes through");
  }
});

Deno.test("sizes: bytes, decimal and binary units, case-insensitive; anything else is a usage error", () => {
  assert.equal(parseSize("1024"), 1024);
  assert.equal(parseSize("5MiB"), 5 * 2 ** 20);
  assert.equal(parseSize("5mib"), 5 * 2 ** 20);
  assert.equal(parseSize("300MB"), 300_000_000);
  assert.equal(parseSize("1GiB"), 2 ** 30);
  assert.equal(parseSize("2 kb"), 2000);
  assert.equal(parseSize("1.5KB"), 1500);
  assert.equal(parseSize("64KiB"), 65_536);
  for (const bad of ["0", "12XB", "", "-5", "MB", "1.1KiB", "5 M", "1e3"]) {
    assert.throws(() => parseSize(bad), (e: DiazoError) => e.exitCode === 2 && e.hint.includes("KiB"), bad);
  }
  assert.throws(() => parseSize("65GiB"), (e: DiazoError) => e.exitCode === 2 && /64 GiB/.test(e.message));
  assert.equal(parseFormat("IFC"), "ifc");
  assert.throws(
    () => parseFormat("step"),
    (e: DiazoError) => e.exitCode === 2 && e.hint.includes("obj, stl, dxf, ifc"),
  );
});

function* failing(): Generator<Uint8Array> {
  yield new Uint8Array(10);
  throw new Error("disk on fire");
}

Deno.test("writeChunksAtomic: whole file or nothing; refuses to overwrite unless told", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, "m.obj");
    const n = await writeChunksAtomic(file, generateModel({ format: "obj", size: 3_000_000 }).chunks());
    assert.equal(n, 3_000_000);
    assert.equal((await Deno.stat(file)).size, 3_000_000);
    await assert.rejects(() => writeChunksAtomic(file, [new Uint8Array(1)]), Deno.errors.AlreadyExists);
    await assert.rejects(() => writeChunksAtomic(file, failing(), { overwrite: true }), /disk on fire/);
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(
      () => writeChunksAtomic(path.join(dir, "b.obj"), [new Uint8Array(1)], { signal: abort.signal }),
      (e: Error) => e.name === "AbortError",
    );
    assert.equal((await Deno.stat(file)).size, 3_000_000, "the old file is untouched");
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assert.deepEqual(names, ["m.obj"], "no temp file left behind");
    await writeChunksAtomic(file, [new Uint8Array(5)], { overwrite: true });
    assert.equal((await Deno.stat(file)).size, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
