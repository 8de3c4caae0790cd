/** core/iso_time.ts writes what Date.prototype.toISOString writes, across the whole range of a Date. */
import assert from "node:assert/strict";
import { isoTime, MAX_TIME_MS } from "../../src/core/iso_time.ts";

/** What `fn` returns, or the name of what it throws. */
function outcome(fn: () => string): string {
  try {
    return fn();
  } catch (e) {
    return (e as Error).name;
  }
}

Deno.test("isoTime is toISOString: edges, leap days, years outside 0000-9999, fractions, invalid times", () => {
  const year = (y: number) => Date.UTC(y, 0, 1);
  const times = [
    0,
    -0,
    1,
    -1,
    999.9,
    -999.9,
    0.5,
    -0.5,
    MAX_TIME_MS,
    -MAX_TIME_MS,
    MAX_TIME_MS + 0.5,
    -MAX_TIME_MS - 1,
    NaN,
    Infinity,
    -Infinity,
    1795756529052,
    Date.UTC(2024, 1, 29, 23, 59, 59, 999),
    Date.UTC(2100, 1, 28),
    Date.UTC(2000, 1, 29),
    year(0),
    year(0) - 1,
    year(-1),
    year(10000),
    year(10000) - 1,
    year(-271821),
    Date.UTC(1969, 11, 31, 23, 59, 59, 999),
    Date.UTC(1600, 2, 1),
    Date.UTC(1601, 0, 1) - 1,
  ];
  for (let i = 0; i < 20_000; i++) {
    const scale = 10 ** Math.floor(Math.random() * 16);
    times.push((Math.random() * 2 - 1) * scale * (Math.random() < 0.1 ? 1 : 1.0001));
    times.push(Math.round((Math.random() * 2 - 1) * MAX_TIME_MS));
  }
  for (const t of times) {
    assert.equal(outcome(() => isoTime(t)), outcome(() => new Date(t).toISOString()), String(t));
  }
});
