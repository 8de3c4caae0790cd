/** aps/base_url.ts: the platform address without user name and password; queries and fragments named. */
import assert from "node:assert/strict";
import { addressShapeProblem, platformAddress } from "../../src/aps/base_url.ts";

Deno.test("platformAddress drops a user name and password and trailing slashes, keeps the rest", () => {
  assert.deepEqual(platformAddress("https://developer.api.autodesk.com/"), {
    address: "https://developer.api.autodesk.com",
  });
  assert.deepEqual(platformAddress("http://u:p@w@127.0.0.1:8787/base//"), {
    address: "http://127.0.0.1:8787/base",
    userinfo: "u:p@w",
  });
  // An @ after the host is part of the path, not a user name.
  assert.deepEqual(platformAddress("http://127.0.0.1:8787/a@b"), { address: "http://127.0.0.1:8787/a@b" });
  assert.deepEqual(platformAddress("not a url"), { address: "not a url" });
});

Deno.test("addressShapeProblem names a query or a fragment, nothing else", () => {
  assert.equal(addressShapeProblem("http://127.0.0.1:1/?x=1"), "it has a query (?...)");
  assert.equal(addressShapeProblem("http://127.0.0.1:1#top"), "it has a fragment (#...)");
  assert.equal(addressShapeProblem("https://developer.api.autodesk.com"), undefined);
});
