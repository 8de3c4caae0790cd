/** Units: how `diazo api` restates a refusal (method, path, status, body cut with a note) and its `-i` head. */
import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import { errorFromResponse } from "../../src/core/response_error.ts";
import { apiFailure, ERROR_BODY_LIMIT, headText, oneLineBody } from "../../src/families/api/answer.ts";

Deno.test("api refusal: method, path, status and body; a long body is cut with a note; the exit code stays", () => {
  const short = apiFailure(errorFromResponse(404, { developerMessage: "gone" }), "GET", "/a") as DiazoError;
  assert.equal(short.message, 'GET /a: HTTP 404 Not Found: {"developerMessage":"gone"}');
  assert.equal(short.exitCode, 4);
  assert.equal(short.hint, errorFromResponse(404, {}).hint);

  const long = apiFailure(errorFromResponse(409, "y".repeat(2000)), "PUT", "/b") as DiazoError;
  assert.ok(long.message.startsWith(`PUT /b: HTTP 409 Conflict: ${"y".repeat(ERROR_BODY_LIMIT)}… (cut at`));
  assert.match(long.message, /of 2000 characters; -i prints the whole answer\)$/);
  assert.equal(long.exitCode, 6);

  const network = new DiazoError("network", { params: { host: "h" } });
  assert.equal(apiFailure(network, "GET", "/c"), network, "no HTTP answer: unchanged");
});

Deno.test("api -i head: status line, sorted capitalised headers, credentials masked; bodies on one line", () => {
  const headers = new Headers({
    "x-b": "2",
    "content-type": "application/json",
    authorization: "Bearer abc",
  });
  assert.equal(
    headText(201, headers),
    "HTTP/1.1 201 Created\nAuthorization: Bearer ***\nContent-Type: application/json\nX-B: 2\n\n",
  );
  assert.equal(headText(299, undefined), "HTTP/1.1 299\n\n");
  assert.equal(oneLineBody("a\n  b\r\n"), "a b");
  assert.equal(oneLineBody(undefined), "(no body)");
});
