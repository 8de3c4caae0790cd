import assert from "node:assert/strict";
import path from "node:path";
import { DiazoError, ExitCode } from "../../src/core/errors.ts";
import {
  addPreset,
  BUILTIN_PRESETS,
  findPreset,
  listPresets,
  loadUserPresets,
  parsePresets,
  presetsPath,
  type PresetSpec,
  removePreset,
  saveUserPresets,
} from "../../src/config/presets.ts";
import { formatsFromFlags, OUTPUT_TYPES } from "../../src/aps/derivative_formats.ts";

function isCode(code: string, exit?: number) {
  return (e: unknown) =>
    e instanceof DiazoError && e.code === code && (exit === undefined || e.exitCode === exit);
}

Deno.test("built-in presets are valid job specs of the platform's output types", () => {
  for (
    const name of ["svf2", "svf2-3d", "svf", "obj", "stl-binary", "stl-ascii", "ifc", "thumbnail", "step"]
  ) {
    assert.ok(name in BUILTIN_PRESETS, `missing built-in ${name}`);
  }
  for (const [name, spec] of Object.entries(BUILTIN_PRESETS)) {
    // Each built-in passes the same validation as a user file.
    const parsed = parsePresets(JSON.stringify({ presets: { [name]: spec } }), "builtin");
    assert.deepEqual(parsed[name], spec, name);
    for (const f of spec.formats) assert.ok((OUTPUT_TYPES as readonly string[]).includes(f.type));
  }
  assert.deepEqual(BUILTIN_PRESETS["svf2-3d"].formats, [{ type: "svf2", views: ["3d"] }]);
  assert.equal(BUILTIN_PRESETS["stl-ascii"].formats[0].advanced?.format, "ascii");
});

Deno.test("formatsFromFlags: commas and repeats, views only on svf/svf2, defaults to 2d+3d", () => {
  assert.deepEqual(formatsFromFlags(["svf2,obj", "OBJ", "stl"]), [
    { type: "svf2", views: ["2d", "3d"] },
    { type: "obj" },
    { type: "stl" },
  ]);
  assert.deepEqual(formatsFromFlags(["svf"], ["3d", "3d"]), [{ type: "svf", views: ["3d"] }]);
  assert.throws(() => formatsFromFlags(["pdf"]), isCode("usage", ExitCode.usage));
  assert.throws(() => formatsFromFlags(["svf2"], ["4d"]), isCode("usage"));
  assert.throws(() => formatsFromFlags([]), isCode("usage"));
});

Deno.test("parsePresets validates types, views and advanced, naming the file and place", () => {
  const ok = parsePresets(
    JSON.stringify({
      presets: { mine: { formats: [{ type: "svf2" }, { type: "stl", advanced: { format: "ascii" } }] } },
    }),
    "/cfg/presets.json",
  );
  // svf2 without views gets the platform's required views.
  assert.deepEqual(ok.mine.formats, [{ type: "svf2", views: ["2d", "3d"] }, {
    type: "stl",
    advanced: { format: "ascii" },
  }]);

  const bad: [unknown, RegExp][] = [
    [{ presets: { x: { formats: [{ type: "pdf" }] } } }, /presets\.x\.formats\[0\]\.type/],
    [{ presets: { x: { formats: [] } } }, /presets\.x\.formats must be a non-empty array/],
    [{ presets: { x: { formats: [{ type: "obj", views: ["3d"] }] } } }, /views applies only to svf/],
    [{ presets: { x: { formats: [{ type: "svf", views: ["1d"] }] } } }, /views must be/],
    [{ presets: { x: { formats: [{ type: "svf", advanced: [] }] } } }, /advanced must be an object/],
    [{ presets: { "Bad Name": { formats: [{ type: "obj" }] } } }, /invalid preset name/],
    [{ presets: [] }, /presets must be an object/],
  ];
  for (const [value, re] of bad) {
    assert.throws(
      () => parsePresets(JSON.stringify(value), "/cfg/presets.json"),
      (e: unknown) =>
        e instanceof DiazoError && e.code === "invalid_config" && re.test(e.message) &&
        e.message.includes("/cfg/presets.json"),
      JSON.stringify(value),
    );
  }
  assert.throws(() => parsePresets("{not json", "f"), isCode("invalid_config", ExitCode.usage));
});

Deno.test("findPreset finds built-ins and user presets; an unknown name lists every preset (exit 2)", () => {
  const user: Record<string, PresetSpec> = { "my-obj": { formats: [{ type: "obj" }] } };
  assert.equal(findPreset("svf2", user).builtin, true);
  assert.equal(findPreset("my-obj", user).builtin, false);
  try {
    findPreset("nope", user);
    assert.fail("expected an error");
  } catch (e) {
    assert.ok(e instanceof DiazoError);
    assert.equal(e.code, "unknown_preset");
    assert.equal(e.exitCode, ExitCode.usage);
    assert.match(e.message, /nope/);
    assert.match(e.hint, /svf2/);
    assert.match(e.hint, /my-obj/);
  }
});

Deno.test("built-ins cannot be overwritten or deleted; user presets can, and names are checked", () => {
  const spec: PresetSpec = { formats: [{ type: "obj" }] };
  assert.throws(() => addPreset({}, "svf2", spec), isCode("usage", ExitCode.usage));
  assert.throws(() => removePreset({}, "obj"), isCode("usage", ExitCode.usage));
  assert.throws(() => addPreset({}, "Has Space", spec), isCode("usage"));
  const one = addPreset({}, "mine", spec);
  assert.deepEqual(one, { mine: spec });
  assert.throws(() => addPreset(one, "mine", spec), isCode("conflict", ExitCode.conflict));
  assert.deepEqual(addPreset(one, "mine", { formats: [{ type: "step" }] }, { replace: true }).mine.formats, [
    { type: "step" },
  ]);
  assert.deepEqual(removePreset(one, "mine"), {});
  assert.throws(() => removePreset(one, "other"), isCode("unknown_preset", ExitCode.usage));
});

Deno.test("listPresets: built-ins first, then user presets by name; a user entry cannot shadow a built-in", () => {
  const list = listPresets({
    zeta: { formats: [{ type: "obj" }] },
    alpha: { formats: [{ type: "step" }] },
    svf2: { formats: [{ type: "obj" }] },
  });
  const builtinNames = Object.keys(BUILTIN_PRESETS);
  assert.deepEqual(list.map((p) => p.name), [...builtinNames, "alpha", "zeta"]);
  assert.deepEqual(list.find((p) => p.name === "svf2")?.formats, BUILTIN_PRESETS.svf2.formats);
});

Deno.test("user presets round-trip through presets.json in the config dir", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-presets-" });
  try {
    const cfg = path.join(dir, "nested", "config");
    assert.deepEqual(await loadUserPresets(cfg), {}); // missing file: none
    const presets = { b: { description: "B", formats: [{ type: "svf2" as const, views: ["3d" as const] }] } };
    await saveUserPresets(cfg, presets);
    assert.equal(presetsPath(cfg), path.join(cfg, "presets.json"));
    const text = await Deno.readTextFile(presetsPath(cfg));
    assert.deepEqual(JSON.parse(text), { presets });
    assert.deepEqual(await loadUserPresets(cfg), presets);
    // No temp files are left behind by the atomic write.
    const names = [];
    for await (const e of Deno.readDir(cfg)) names.push(e.name);
    assert.deepEqual(names, ["presets.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
