/** platform/path.ts computes what node:path computes, for the posix and win32 flavours alike. */
import assert from "node:assert/strict";
import path from "node:path";
import { osPath } from "../../src/platform/path.ts";

const SAMPLES = [
  "",
  ".",
  "..",
  "/",
  "//",
  "a",
  "a/",
  "a//b",
  "a/./b/../c",
  "../../x",
  "/tmp/diazo/",
  "/a/b/../../..",
  "////..",
  "config.json",
  "C:",
  "C:\\",
  "C:\\Users\\me\\AppData\\Roaming",
  "c:/x/../y",
  "\\\\server\\share",
  "\\\\server\\share\\dir\\file",
  "\\",
  "a\\b\\..\\c\\",
  "ab:",
  "x y/z",
];

Deno.test("osPath: join, dirname and basename agree with node:path (posix and win32)", () => {
  for (const [os, node] of [["linux", path.posix], ["windows", path.win32]] as const) {
    const ours = osPath(os);
    assert.equal(ours.sep, node.sep);
    for (const a of SAMPLES) {
      assert.equal(ours.dirname(a), node.dirname(a), `${os} dirname ${JSON.stringify(a)}`);
      assert.equal(ours.basename(a), node.basename(a), `${os} basename ${JSON.stringify(a)}`);
      assert.equal(ours.join(a), node.join(a), `${os} join ${JSON.stringify(a)}`);
      for (const b of ["b", "..", "tokens.json", "/abs", "", "d\\e"]) {
        assert.equal(ours.join(a, b), node.join(a, b), `${os} join ${JSON.stringify([a, b])}`);
      }
    }
  }
});
