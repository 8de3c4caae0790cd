/** The transfer bar's layout: at 80 columns (and narrower) the whole line fits, its ETA included. */
import assert from "node:assert/strict";
import { barLayout } from "../../src/command/progress.ts";

/** The bar's line at its widest: every figure at its longest. */
function widestLine(label: string, size: number, all: string): string {
  return `${label} [${"█".repeat(size)}] 100% ${all}/${all} MiB 9999.9 MiB/s eta 999h59m`;
}

Deno.test("barLayout: the line with its ETA fits 80 columns; a long label is cut before the bar is lost", () => {
  const long = "projects/2026/tower-block-a/levels/level-03/structural/model-name-rev-12.ifc";
  for (const columns of [60, 80, 100, 120]) {
    for (const label of ["house.obj", "200 files", long]) {
      const l = barLayout(label, columns, "300.0");
      const line = widestLine(l.label, l.size, "300.0");
      assert.ok(line.length <= columns - 1, `${line.length} > ${columns - 1}: ${line}`);
      assert.match(line, /eta 999h59m$/);
      if (columns >= 80) assert.ok(l.size >= 10, `a bar of ${l.size} at ${columns}`);
    }
  }
  assert.deepEqual(
    barLayout("house.obj", 120, "300.0"),
    { label: "house.obj", size: 40 },
    "room: the default bar",
  );
  assert.equal(barLayout(long, 80, "300.0").label.endsWith("…"), true);
  assert.deepEqual(barLayout(long, undefined, "300.0"), { label: long, size: 40 });
});
