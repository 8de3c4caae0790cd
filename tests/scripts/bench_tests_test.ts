/** The test-suite benchmark reads deno test's summary line, passing or failing. */
import assert from "node:assert/strict";
import { parseSummary } from "../../scripts/bench/tests.ts";

Deno.test("bench tests: the summary's counts, whether the suite passed or failed", () => {
  assert.deepEqual(
    parseSummary("x ... ok (2ms)\n\nok | 590 passed (2 steps) | 0 failed | 4 ignored (41s)\n"),
    {
      passed: 590,
      failed: 0,
      ignored: 4,
    },
  );
  assert.deepEqual(
    parseSummary("FAILED | 577 passed (2 steps) | 3 failed | 4 ignored (1m36s)\n\nerror: Test failed\n"),
    { passed: 577, failed: 3, ignored: 4 },
  );
  assert.deepEqual(parseSummary("ok | 12 passed | 0 failed (1s)"), { passed: 12, failed: 0, ignored: 0 });
  assert.equal(parseSummary("error: Module not found"), undefined);
});
