/** The rule that picks a hub or project by its name (src/families/dm/names.ts `matchName`). */
import assert from "node:assert/strict";
import { matchName, type Named } from "../../src/families/dm/names.ts";

const P = (name: string, n: number): Named => ({ id: `b.0000000${n}-0000-4000-8000-000000000000`, name });
const ALL = [
  P("Riverside Tower", 1),
  P("Riverside Annex", 2),
  P("Harbor Bridge", 3),
  P("Harbor Bridge Retrofit", 4),
];

Deno.test("names: an exact name (any case) wins, else the one name a prefix begins", () => {
  assert.deepEqual(
    matchName("harbor bridge", ALL),
    { kind: "one", match: ALL[2] },
    "exact beats a longer name",
  );
  assert.deepEqual(matchName("  RIVERSIDE T ", ALL), { kind: "one", match: ALL[0] }, "trimmed, any case");
  assert.deepEqual(matchName("Harbor Bridge R", ALL), { kind: "one", match: ALL[3] });
});

Deno.test("names: a prefix of several names lists them; no match offers the closest name", () => {
  const many = matchName("riverside", ALL);
  assert.equal(many.kind, "many");
  assert.deepEqual(many.kind === "many" && many.matches.map((m) => m.name), [
    "Riverside Tower",
    "Riverside Annex",
  ]);
  const same = matchName("Twin", [P("Twin", 1), P("twin", 2)]);
  assert.equal(same.kind, "many", "two projects of the same name are ambiguous");
  assert.deepEqual(matchName("Rivreside Tower", ALL), { kind: "none", close: "Riverside Tower" });
  assert.deepEqual(matchName("harbr", ALL), { kind: "none", close: "Harbor Bridge" }, "a misspelt start");
  assert.deepEqual(matchName("Canal", ALL), { kind: "none", close: undefined });
  assert.deepEqual(matchName(" ", ALL), { kind: "none", close: undefined }, "an empty name matches nothing");
});
