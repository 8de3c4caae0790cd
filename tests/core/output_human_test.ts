/** Readable sizes and times of table cells, told from a fixed clock; values that do not fit stay raw. */
import assert from "node:assert/strict";
import {
  humanBytes,
  humanTime,
  humanValue,
  instantOf,
  isByteField,
  isDateField,
  isoOfEpochMs,
} from "../../src/core/output_human.ts";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

Deno.test("humanBytes: whole bytes under 1 KiB, then binary units with one decimal", () => {
  assert.equal(humanBytes(0), "0 B");
  assert.equal(humanBytes(1023), "1023 B");
  assert.equal(humanBytes(1024), "1.0 KiB");
  assert.equal(humanBytes(1536), "1.5 KiB");
  assert.equal(humanBytes(64 * 1024 * 1024), "64.0 MiB");
  assert.equal(humanBytes(5 * 1024 ** 3 + 1), "5.0 GiB");
  assert.equal(humanBytes(3 * 1024 ** 4), "3.0 TiB");
});

Deno.test("humanBytes: a count just under the next unit reads in that unit, never '1024.0'", () => {
  assert.equal(humanBytes(1024 * 1024 - 1), "1.0 MiB");
  assert.equal(humanBytes(1023.9 * 1024), "1023.9 KiB");
});

Deno.test("humanTime: past and future, singular and plural, from a fixed clock", () => {
  assert.equal(humanTime(NOW - 3 * MIN, NOW), "3 minutes ago");
  assert.equal(humanTime(NOW - 1 * MIN - 59_000, NOW), "1 minute ago");
  assert.equal(humanTime(NOW + 2 * HOUR + 5 * MIN, NOW), "in 2 hours");
  assert.equal(humanTime(NOW - 1 * HOUR, NOW), "1 hour ago");
  assert.equal(humanTime(NOW - 40_000, NOW), "40 seconds ago");
  assert.equal(humanTime(NOW - 2_000, NOW), "just now");
  assert.equal(humanTime(NOW + 2_000, NOW), "just now");
  assert.equal(humanTime(NOW - 29 * DAY, NOW), "29 days ago");
  assert.equal(humanTime(NOW + 1 * DAY, NOW), "in 1 day");
});

Deno.test("humanTime: 30 days away or more, the UTC date", () => {
  assert.equal(humanTime(NOW - 30 * DAY, NOW), "2026-01-30");
  assert.equal(humanTime(Date.parse("2024-07-04T23:59:00Z"), NOW), "2024-07-04");
  assert.equal(humanTime(NOW + 400 * DAY, NOW), "2027-04-05");
});

Deno.test("fields are recognised by name: byte counts and instants", () => {
  for (const n of ["size", "length", "bytes", "objectSize", "storageSize", "partSize", "totalBytes"]) {
    assert.ok(isByteField(n), n);
  }
  for (const n of ["sha1", "pageSize", "Size", "objectKey", "count"]) assert.ok(!isByteField(n), n);
  for (
    const n of [
      "createdDate",
      "lastModified",
      "lastModifiedDate",
      "createdAt",
      "createTime",
      "expiration",
      "expires_at",
    ]
  ) assert.ok(isDateField(n), n);
  for (const n of ["name", "dateFormat", "status", "size"]) assert.ok(!isDateField(n), n);
});

Deno.test("instantOf: epoch milliseconds and ISO date-times only", () => {
  assert.equal(instantOf(NOW), NOW);
  assert.equal(instantOf("2026-03-01T12:00:00Z"), NOW);
  assert.equal(instantOf("2026-03-01T13:00:00.000+01:00"), NOW);
  for (
    const v of [
      "yesterday",
      "2026-03-01",
      "",
      null,
      undefined,
      {},
      [],
      NaN,
      Infinity,
      1e20,
      1_700_000_000,
      true,
    ]
  ) {
    assert.equal(instantOf(v), undefined, String(v));
  }
});

Deno.test("humanValue: readable where name and value agree, the raw value otherwise", () => {
  assert.equal(humanValue("size", 67108864, NOW), "64.0 MiB");
  assert.equal(humanValue("createdDate", NOW - 3 * MIN, NOW), "3 minutes ago");
  assert.equal(humanValue("createdAt", new Date(NOW + 2 * HOUR).toISOString(), NOW), "in 2 hours");
  assert.equal(humanValue("sha1", 67108864, NOW), 67108864, "not a byte field");
  assert.equal(humanValue("size", "12 MB", NOW), "12 MB");
  assert.equal(humanValue("size", -1, NOW), -1);
  assert.equal(humanValue("size", 1.5, NOW), 1.5);
  // Issue 13 item 5: a date field holding something else is shown as it came, never thrown on.
  for (const v of ["yesterday", null, { when: "soon" }, 1e20, -1e20, NaN, 1_700_000_000]) {
    assert.deepEqual(humanValue("createdDate", v, NOW), v);
  }
});

Deno.test("isoOfEpochMs: the ISO text of an epoch-ms field, undefined for anything a Date cannot hold", () => {
  assert.equal(isoOfEpochMs(NOW), "2026-03-01T12:00:00.000Z");
  assert.equal(isoOfEpochMs(0), "1970-01-01T00:00:00.000Z");
  for (const v of [1e20, NaN, Infinity, "2026-03-01T12:00:00Z", null, undefined, {}]) {
    assert.equal(isoOfEpochMs(v), undefined, String(v));
  }
});
