/**
 * The suite's groups (tests/suite/groups.ts) leave no test file out: every `_test.ts` file is in exactly
 * one group, every group has its module, and no module names a group that does not exist.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { groupFiles, SOLO, testFiles } from "../suite/groups.ts";

const TESTS = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");

Deno.test("suite: every test file is in exactly one group, and every group has its module", () => {
  const files = testFiles(TESTS);
  assert.ok(files.length > 150, `found only ${files.length} test files`);
  const groups = groupFiles(files);
  const grouped = [...groups.values()].flat();
  assert.deepEqual([...grouped].sort(), files, "each test file once");
  for (const solo of SOLO) assert.ok(files.includes(solo), `${solo} (a solo group) exists`);
  const modules = [...Deno.readDirSync(`${TESTS}/suite`)]
    .filter((e) => e.name.endsWith(".suite.ts"))
    .map((e) => e.name.replace(/\.suite\.ts$/, ""))
    .sort();
  assert.deepEqual(modules, [...groups.keys()].sort(), "one tests/suite/<group>.suite.ts per group");
  for (const [name, members] of groups) assert.ok(members.length > 0, `${name} is not empty`);
});

Deno.test("suite: a new file joins a group of its area, and a new area lands in the unit groups", () => {
  const files = [...testFiles(TESTS), "e2e/zz_new_test.ts", "brand_new_area/x_test.ts"];
  const groups = groupFiles(files);
  const home = (f: string) => [...groups].find(([, members]) => members.includes(f))?.[0];
  assert.match(home("e2e/zz_new_test.ts") ?? "", /^e2e-\d$/);
  assert.match(home("brand_new_area/x_test.ts") ?? "", /^units-\d$/);
});
