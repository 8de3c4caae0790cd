/** Unit: region names from user input. */
import assert from "node:assert/strict";
import type { DiazoError } from "../../src/core/errors.ts";
import { parseBucketRegion, parseDataCentre } from "../../src/aps/regions.ts";

Deno.test("regions: any case and surrounding spaces are accepted; APAC is a bucket region only", () => {
  assert.equal(parseDataCentre(" emea "), "EMEA");
  assert.equal(parseBucketRegion("apac"), "APAC");
  assert.throws(() => parseDataCentre("APAC"), (e: DiazoError) => {
    assert.equal(e.message, "unknown region 'APAC'");
    assert.equal(e.hint, "Use one of: US, EMEA, AUS, CAN, DEU, IND, JPN, GBR.");
    return true;
  });
  assert.throws(() => parseBucketRegion("EU"), /unknown region 'EU'/);
});
