import assert from "node:assert/strict";
import path from "node:path";
import type { DiazoError } from "../../src/core/errors.ts";
import { safeJoin, windowsNameProblem } from "../../src/core/paths.ts";

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

Deno.test("safeJoin: names Windows cannot give a file are a usage error naming the key and --out, on Windows only", () => {
  for (
    const name of [
      "q?.txt",
      "a<b>.txt",
      "CON",
      "con.txt",
      "dir/NUL",
      "LPT1.log",
      "ab:c",
      'say "hi"',
      "x|y",
      "st*r",
      "trail.",
      "space ",
    ]
  ) {
    assert.throws(() => safeJoin("C:\\out", name, path.win32), (e: DiazoError) => {
      assert.equal(e.exitCode, 2, name);
      assert.ok(e.message.startsWith(`'${name}' cannot be a file name on Windows: `), e.message);
      assert.match(e.hint, /--out <file>/);
      return true;
    });
  }
  // The same keys are ordinary file names on POSIX: the rules are the injected OS's, not the host's.
  assert.equal(safeJoin("/out", "q?.txt", path.posix), "/out/q?.txt");
  assert.equal(safeJoin("/out", "a<b>.txt", path.posix), "/out/a<b>.txt");
  assert.equal(safeJoin("/out", "CON", path.posix), "/out/CON");
  // Names that only look alike stay valid on Windows.
  assert.equal(safeJoin("C:\\out", "CONSOLE.txt", path.win32), "C:\\out\\CONSOLE.txt");
  assert.equal(safeJoin("C:\\out", "com10", path.win32), "C:\\out\\com10");
  assert.equal(safeJoin("C:\\out", ".hidden", path.win32), "C:\\out\\.hidden");
});

Deno.test("windowsNameProblem: the reason names the character or the name", () => {
  assert.equal(windowsNameProblem("q?.txt"), "it contains '?'");
  assert.equal(windowsNameProblem("aux.tar.gz"), "'aux.tar.gz' is a reserved device name");
  assert.equal(windowsNameProblem("x."), "'x.' ends with a dot or a space");
  assert.equal(windowsNameProblem("plain name ü.ifc"), undefined);
});
