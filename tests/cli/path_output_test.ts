import assert from "node:assert/strict";
import { pathOutputArgs } from "../../src/cli/argv.ts";

Deno.test("-o names a path after download/generate commands, the format everywhere else", () => {
  assert.deepEqual(pathOutputArgs(["object", "download", "b", "k", "-o", "dir/"]), [
    "object",
    "download",
    "b",
    "k",
    "--out",
    "dir/",
  ]);
  assert.deepEqual(pathOutputArgs(["-o", "json", "object", "download", "b", "k", "-o", "x"]), [
    "-o",
    "json",
    "object",
    "download",
    "b",
    "k",
    "--out",
    "x",
  ], "a -o before the command word stays the global format flag");
  assert.deepEqual(pathOutputArgs(["generate", "obj", "--size", "1MB", "-o", "m.obj"]).at(-2), "--out");
  assert.deepEqual(pathOutputArgs(["translate", "download", "U", "-o", "d"]).at(-2), "--out");
  assert.deepEqual(pathOutputArgs(["object", "list", "b", "-o", "json"]), [
    "object",
    "list",
    "b",
    "-o",
    "json",
  ]);
  assert.deepEqual(pathOutputArgs(["translate", "status", "U", "-o", "json"]).at(-2), "-o");
  assert.deepEqual(pathOutputArgs(["object", "download", "b", "--", "-o"]), [
    "object",
    "download",
    "b",
    "--",
    "-o",
  ]);
});
