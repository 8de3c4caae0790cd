/** The sandbox's one limit/offset window of the ACC lists: a query's text and a body's numbers alike. */
import assert from "node:assert/strict";
import { limitOffset } from "../../src/sandbox/admin/common.ts";
import { SandboxError } from "../../src/sandbox/errors.ts";

Deno.test("limitOffset: defaults, text and numbers; out of bounds is the platform's 400", () => {
  assert.deepEqual(limitOffset(undefined, null, 20, 200), { limit: 20, offset: 0 });
  assert.deepEqual(limitOffset("50", "100", 20, 200), { limit: 50, offset: 100 });
  assert.deepEqual(limitOffset(10, 30, 20, 200), { limit: 10, offset: 30 }, "an RFI search body's numbers");
  for (
    const [limit, offset] of [["0", "0"], ["201", "0"], ["1e2", "0"], [2.5, 0], ["5", "-1"], ["5", ""], [
      5,
      "x",
    ]]
  ) {
    assert.throws(
      () => limitOffset(limit, offset, 20, 200),
      (e) => e instanceof SandboxError && e.status === 400,
      `${limit} ${offset}`,
    );
  }
});
