/** Paging for the tool server: `fetchPage` cursors (services/pagination.ts) and size-capped list answers. */
import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import type { Http, RequestSpec } from "../../src/http/http.ts";
import { fetchPage } from "../../src/http/pagination.ts";
import { listAnswer } from "../../src/mcp/result.ts";

const BASE = "http://platform.test";

/** An OSS-style list of `total` items, `size` a page, answering from memory and counting requests. */
function fakeHttp(total: number, size: number): Http & { paths: string[] } {
  const paths: string[] = [];
  return {
    baseUrl: BASE,
    paths,
    request<T>(spec: RequestSpec) {
      const url = new URL(spec.path, BASE);
      for (const [k, v] of Object.entries(spec.query ?? {})) {
        if (v !== undefined) url.searchParams.set(k, String(v));
      }
      paths.push(url.pathname + url.search);
      const start = Number(url.searchParams.get("startAt") ?? 0);
      const items = Array.from(
        { length: Math.max(0, Math.min(size, total - start)) },
        (_, i) => ({ n: start + i }),
      );
      const next = start + size < total ? `${BASE}/oss/v2/buckets?startAt=${start + size}` : undefined;
      return Promise.resolve({
        status: 200,
        headers: new Headers(),
        data: { items, next } as T,
        url: url.toString(),
        attempts: 1,
      });
    },
  };
}

const SPEC: RequestSpec = { path: "/oss/v2/buckets", query: { region: "US", limit: 4 } };

Deno.test("fetchPage: limit across pages, cursors resume mid-page and at page starts, every item once", async () => {
  const http = fakeHttp(10, 4);
  const seen: number[] = [];
  let cursor: string | undefined;
  const counts: number[] = [];
  do {
    const page = await fetchPage<{ n: number }>(http, SPEC, "oss", { limit: 3, cursor });
    seen.push(...page.items.map((i) => i.n));
    counts.push(page.items.length);
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(counts, [3, 3, 3, 1]);
  // The region of the first request is carried to the pages its next links name.
  assert.ok(http.paths.every((p) => p.includes("region=US")), http.paths.join(" "));
});

Deno.test("fetchPage: cursorAfter(n) resumes after the first n items returned", async () => {
  const http = fakeHttp(10, 4);
  const page = await fetchPage<{ n: number }>(http, SPEC, "oss", { limit: 6 });
  assert.deepEqual(page.items.map((i) => i.n), [0, 1, 2, 3, 4, 5]);
  const after = await fetchPage<{ n: number }>(http, SPEC, "oss", { limit: 2, cursor: page.cursorAfter(2) });
  assert.deepEqual(after.items.map((i) => i.n), [2, 3]);
  const last = await fetchPage<{ n: number }>(http, SPEC, "oss", { limit: 20, cursor: page.cursorAfter(5) });
  assert.deepEqual(last.items.map((i) => i.n), [5, 6, 7, 8, 9]);
  assert.equal(last.nextCursor, undefined);
});

Deno.test("fetchPage: a cursor of another endpoint or host, or garbage, is a usage error before any request", async () => {
  const http = fakeHttp(10, 4);
  const forge = (p: string) =>
    btoa(JSON.stringify({ p, q: {}, s: 0 })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  for (
    const cursor of [
      forge("/oss/v2/buckets/other/objects"),
      forge("http://evil.test/oss/v2/buckets"),
      "%%%",
      forge(""),
    ]
  ) {
    await assert.rejects(
      fetchPage(http, SPEC, "oss", { limit: 3, cursor }),
      (e: unknown) => e instanceof DiazoError && e.code === "usage" && e.message === "invalid cursor",
    );
  }
  assert.deepEqual(http.paths, []);
});

Deno.test("listAnswer: items beyond the size budget are left to the cursor, at least one is kept", () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ i, pad: "x".repeat(100) }));
  const cursors: number[] = [];
  const page = { nextCursor: "END", cursorAfter: (n: number) => (cursors.push(n), `after-${n}`) };
  const capped = listAnswer(page, items, 400); // each item is 118 characters of JSON
  assert.equal(capped.count, 3);
  assert.deepEqual(capped.items.map((x) => x.i), [0, 1, 2]);
  assert.deepEqual([capped.has_more, capped.next_cursor, capped.truncated], [true, "after-3", true]);
  const whole = listAnswer(page, items);
  assert.deepEqual([whole.count, whole.next_cursor, whole.truncated], [10, "END", undefined]);
  assert.equal(listAnswer(page, [{ big: "y".repeat(1000) }], 10).count, 1);
  // What goes over the wire (the kernel's own record of the page, a symbol, never does).
  assert.deepEqual(
    JSON.parse(JSON.stringify(listAnswer({ nextCursor: undefined, cursorAfter: () => undefined }, []))),
    {
      items: [],
      count: 0,
      has_more: false,
    },
  );
  const counted = listAnswer({ nextCursor: undefined, cursorAfter: () => undefined, total: 57 }, [{ i: 1 }]);
  assert.equal(counted.total, 57, "the platform's total is answered");
});
