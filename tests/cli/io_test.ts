/** The width tables are fitted to: COLUMNS overrides, else the terminal's, else none. */
import assert from "node:assert/strict";
import { outputWidth, processIo, type Sink } from "../../src/command/io.ts";

function sink(columns?: number): Sink {
  return { write: () => {}, isTerminal: columns !== undefined, columns };
}

Deno.test("outputWidth: COLUMNS when a positive whole number, else the terminal's width, else none", () => {
  assert.equal(outputWidth(sink(120), {}), 120);
  assert.equal(outputWidth(sink(120), { COLUMNS: "100" }), 100, "COLUMNS overrides the terminal");
  assert.equal(outputWidth(sink(), { COLUMNS: " 72 " }), 72, "and gives a width to a pipe");
  for (const bad of ["", "0", "-5", "wide", "80.5"]) {
    assert.equal(outputWidth(sink(90), { COLUMNS: bad }), 90, bad);
  }
  assert.equal(outputWidth(sink(), {}), undefined);
});

Deno.test("processIo: stdout's columns only when it is a terminal", () => {
  const io = processIo();
  if (io.stdout.isTerminal) assert.ok((io.stdout.columns ?? 1) > 0);
  else assert.equal(io.stdout.columns, undefined);
});
