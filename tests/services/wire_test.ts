import assert from "node:assert/strict";
import { headerPairs, wireHeaders, wireResponse } from "../../src/http/wire.ts";

Deno.test("wire headers read as Headers do: any case, repeated names joined, set-cookie kept apart", () => {
  const h = wireHeaders([["Content-Type", "application/json"], ["X-A", "1"], ["x-a", "2"], [
    "Set-Cookie",
    "a=1; Path=/",
  ], ["set-cookie", "b=2"]]);
  const fetchLike = new Headers([["Content-Type", "application/json"], ["X-A", "1"], ["x-a", "2"], [
    "Set-Cookie",
    "a=1; Path=/",
  ], ["set-cookie", "b=2"]]);
  assert.equal(h.get("content-type"), "application/json");
  assert.equal(h.get("X-a"), "1, 2");
  assert.equal(h.get("missing"), null);
  assert.equal(h.has("SET-COOKIE"), true);
  assert.deepEqual(h.getSetCookie(), ["a=1; Path=/", "b=2"]);
  assert.deepEqual([...h], [...fetchLike], "iteration: sorted names, joined values, each cookie alone");
  assert.deepEqual([...h.keys()], [...fetchLike.keys()]);
  h.set("X-A", "3");
  assert.equal(h.get("x-a"), "3");
  h.append("x-a", "4");
  h.delete("content-type");
  assert.deepEqual([...h.entries()].filter(([k]) => k !== "set-cookie"), [["x-a", "3, 4"]]);
  const seen: string[] = [];
  h.forEach((v, k) => seen.push(`${k}=${v}`));
  assert.deepEqual(seen, ["set-cookie=a=1; Path=/", "set-cookie=b=2", "x-a=3, 4"]);
});

Deno.test("header pairs of every HeadersInit shape, names in lower case", () => {
  const want = [["accept", "a/b"], ["x-y", "z"]];
  assert.deepEqual(headerPairs({ Accept: "a/b", "X-Y": " z " }), want);
  assert.deepEqual(headerPairs([["ACCEPT", "a/b"], ["x-y", "z"]]), want);
  assert.deepEqual(headerPairs(new Headers({ accept: "a/b", "x-y": "z" })), want);
  assert.deepEqual(headerPairs(wireHeaders([["Accept", "a/b"], ["X-Y", "z"]])), want);
  assert.deepEqual(headerPairs(undefined), []);
});

Deno.test("a wire response: status, ok, and a body read once as text, JSON, bytes or a stream", async () => {
  const body = () => new TextEncoder().encode('{"a":1}');
  const at = (status: number) =>
    wireResponse({ status, statusText: "", headers: wireHeaders(), body: body(), url: "u" });
  const r = at(200);
  assert.equal(r.ok, true);
  assert.equal(r.bodyUsed, false);
  assert.deepEqual(await r.json(), { a: 1 });
  assert.equal(r.bodyUsed, true);
  await assert.rejects(r.text(), TypeError, "a body is read once");
  assert.equal(at(404).ok, false);
  assert.equal(at(199).ok, false);
  assert.equal(new TextDecoder().decode(await at(201).arrayBuffer()), '{"a":1}');
  assert.equal(await new Response(at(200).body).text(), '{"a":1}', "as a stream, for a caller that asks");
  const empty = wireResponse({
    status: 204,
    statusText: "No Content",
    headers: wireHeaders(),
    body: new Uint8Array(0),
    url: "u",
  });
  assert.equal(empty.body, null);
  assert.equal(await empty.text(), "");
});
