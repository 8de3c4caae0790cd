import assert from "node:assert/strict";
import path from "node:path";
import { safeJoin } from "../../src/core/paths.ts";

const refused = (dir: string, name: string, p: typeof path = path.posix) =>
  assert.throws(() => safeJoin(dir, name, p), (e: Error) => {
    assert.match(e.message, /refusing to write/);
    return true;
  });

Deno.test("safeJoin: keys with folders land under the directory", () => {
  assert.equal(safeJoin("/out", "a/b/c.obj", path.posix), "/out/a/b/c.obj");
  assert.equal(safeJoin("/out", "./a//b.obj", path.posix), "/out/a/b.obj");
  assert.equal(safeJoin("/out", "name with spaces ü.ifc", path.posix), "/out/name with spaces ü.ifc");
  assert.equal(safeJoin("/out", "..a/b..", path.posix), "/out/..a/b..", "dots inside names are fine");
});

Deno.test("safeJoin: traversal, absolute and empty names are refused", () => {
  for (const name of ["../evil", "/abs", "a/../../b", "a/..", "..", "", "./", "x\u0000y", "a\\..\\..\\b"]) {
    refused("/out", name);
  }
});

Deno.test("safeJoin: Windows rules — drive letters, backslashes and UNC are refused", () => {
  assert.equal(safeJoin("C:\\out", "a/b.obj", path.win32), "C:\\out\\a\\b.obj");
  assert.equal(safeJoin("C:\\out", "a\\b.obj", path.win32), "C:\\out\\a\\b.obj");
  for (const name of ["C:\\evil", "c:evil", "\\\\server\\share\\x", "\\abs", "a\\..\\..\\b"]) {
    refused("C:\\out", name, path.win32);
  }
});
