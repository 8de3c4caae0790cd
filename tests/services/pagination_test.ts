import assert from "node:assert/strict";
import { createHttp, type Http, type RequestSpec } from "../../src/http/http.ts";
import { type PageScheme, paginate } from "../../src/http/pagination.ts";
import { json, type Seen, withServer } from "./_server.ts";

const PAGES = 3;

/** Items of page n (0-based): two per page, numbered from 1. */
function itemsOf(n: number): { id: number }[] {
  return [{ id: 2 * n + 1 }, { id: 2 * n + 2 }];
}

/** The page a request asks for and the body that answers it, per scheme. */
const SCHEMES: Record<PageScheme, { spec: RequestSpec; answer: (url: URL, base: string) => unknown }> = {
  oss: {
    spec: { path: "/oss/v2/buckets", query: { limit: 2, region: "EMEA" } },
    answer: (url, base) => {
      const n = Number(url.searchParams.get("startAt") ?? 0);
      // The platform's next link omits the region: it must be carried over.
      const next = n + 1 < PAGES ? `${base}/oss/v2/buckets?startAt=${n + 1}&limit=2` : undefined;
      return { items: itemsOf(n), next };
    },
  },
  dm: {
    spec: { path: "/data/v1/projects/b.p/folders/f/contents" },
    answer: (url, base) => {
      const n = Number(url.searchParams.get("page[number]") ?? 0);
      const href = `${base}/data/v1/projects/b.p/folders/f/contents?page%5Bnumber%5D=${n + 1}`;
      // Both shapes of JSON:API links: an object with href, and a plain string.
      const next = n + 1 < PAGES ? (n === 0 ? { href } : href) : undefined;
      return { jsonapi: { version: "1.0" }, links: { self: { href: url.href }, next }, data: itemsOf(n) };
    },
  },
  acc: {
    spec: { path: "/construction/admin/v1/accounts/a/users", query: { limit: 2, sort: "name" } },
    answer: (url, base) => {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const n = offset / 2;
      // The first page gives nextUrl, the later ones only offset arithmetic.
      const nextUrl = n === 0 ? `${base}/construction/admin/v1/accounts/a/users?limit=2&offset=2` : undefined;
      return { pagination: { limit: 2, offset, totalResults: 2 * PAGES, nextUrl }, results: itemsOf(n) };
    },
  },
  da: {
    spec: { path: "/da/us-east/v3/activities" },
    answer: (url) => {
      const token = url.searchParams.get("page");
      const n = token ? Number(token.slice(1)) : 0;
      return { paginationToken: n + 1 < PAGES ? `t${n + 1}` : undefined, data: itemsOf(n) };
    },
  },
  webhooks: {
    spec: { path: "/webhooks/v1/hooks", query: { status: "active" } },
    answer: (url) => {
      const state = url.searchParams.get("pageState");
      const n = state ? Number(state.slice(1)) : 0;
      const next = n + 1 < PAGES ? `/webhooks/v1/hooks?pageState=s${n + 1}` : undefined;
      return { links: { next }, data: itemsOf(n) };
    },
  },
};

async function collect<T>(it: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function run(
  scheme: PageScheme,
  limit: number | undefined,
  check: (ids: number[], seen: Seen[]) => void,
): Promise<void> {
  let base = "";
  await withServer((req) => json(SCHEMES[scheme].answer(new URL(req.url), base)), async (b, seen) => {
    base = b;
    const http: Http = createHttp({ baseUrl: b, timeoutMs: 2000, maxAttempts: 1, retryBaseMs: 1 });
    const items = await collect(paginate<{ id: number }>(http, SCHEMES[scheme].spec, scheme, { limit }));
    check(items.map((i) => i.id), seen);
  });
}

for (const scheme of Object.keys(SCHEMES) as PageScheme[]) {
  Deno.test(`${scheme}: follows all three pages in order`, async () => {
    await run(scheme, undefined, (ids, seen) => {
      assert.deepEqual(ids, [1, 2, 3, 4, 5, 6]);
      assert.equal(seen.length, 3);
    });
  });

  Deno.test(`${scheme}: limit stops without fetching another page`, async () => {
    await run(scheme, 3, (ids, seen) => {
      assert.deepEqual(ids, [1, 2, 3]);
      assert.equal(seen.length, 2);
    });
    await run(scheme, 2, (ids, seen) => {
      assert.deepEqual(ids, [1, 2]);
      assert.equal(seen.length, 1);
    });
  });
}

Deno.test("next pages keep the first request's query where the link is silent", async () => {
  await run("oss", undefined, (_ids, seen) => {
    assert.deepEqual(seen.map((s) => s.url.searchParams.get("region")), ["EMEA", "EMEA", "EMEA"]);
    assert.deepEqual(seen.map((s) => s.url.searchParams.get("startAt")), [null, "1", "2"]);
  });
  await run("acc", undefined, (_ids, seen) => {
    assert.deepEqual(seen.map((s) => s.url.searchParams.get("offset")), [null, "2", "4"]);
    assert.deepEqual(seen.map((s) => s.url.searchParams.get("sort")), ["name", "name", "name"]);
  });
  await run("da", undefined, (_ids, seen) => {
    assert.deepEqual(seen.map((s) => s.url.searchParams.get("page")), [null, "t1", "t2"]);
  });
  await run("webhooks", undefined, (_ids, seen) => {
    assert.deepEqual(seen.map((s) => s.url.search), [
      "?status=active",
      "?pageState=s1&status=active",
      "?pageState=s2&status=active",
    ]);
  });
});

Deno.test("a next link that repeats ends the list instead of looping", async () => {
  await withServer((req) => {
    const url = new URL(req.url);
    const page = url.searchParams.get("startAt") ? 1 : 0;
    return json({ items: itemsOf(page), next: `${url.origin}/oss/v2/buckets?startAt=1` });
  }, async (base, seen) => {
    const http = createHttp({ baseUrl: base, timeoutMs: 2000, maxAttempts: 1, retryBaseMs: 1 });
    const ids = (await collect(paginate<{ id: number }>(http, { path: "/oss/v2/buckets" }, "oss"))).map((i) =>
      i.id
    );
    assert.deepEqual(ids, [1, 2, 3, 4]);
    assert.equal(seen.length, 2);
  });
  await withServer(
    () => json({ data: itemsOf(0), links: { next: "/webhooks/v1/hooks" } }),
    async (base, seen) => {
      const http = createHttp({ baseUrl: base, timeoutMs: 2000, maxAttempts: 1, retryBaseMs: 1 });
      const items = await collect(paginate(http, { path: "/webhooks/v1/hooks" }, "webhooks"));
      assert.equal(items.length, 2);
      assert.equal(seen.length, 1, "a link back to the first page is a repeat");
    },
  );
});

Deno.test("an empty page ends the list even with a next link", async () => {
  await withServer(() => json({ data: [], paginationToken: "more" }), async (base, seen) => {
    const http = createHttp({ baseUrl: base, timeoutMs: 2000, maxAttempts: 1, retryBaseMs: 1 });
    assert.deepEqual(await collect(paginate(http, { path: "/da/us-east/v3/workitems" }, "da")), []);
    assert.equal(seen.length, 1);
  });
});

Deno.test("a limit of zero fetches nothing and the token reaches every page", async () => {
  await withServer(
    (req) => json(SCHEMES.oss.answer(new URL(req.url), new URL(req.url).origin)),
    async (base, seen) => {
      const http = createHttp({
        baseUrl: base,
        timeoutMs: 2000,
        maxAttempts: 1,
        retryBaseMs: 1,
        token: () => Promise.resolve("tok-abcd"),
      });
      assert.deepEqual(await collect(paginate(http, SCHEMES.oss.spec, "oss", { limit: 0 })), []);
      assert.equal(seen.length, 0);
      assert.equal((await collect(paginate(http, SCHEMES.oss.spec, "oss"))).length, 6);
      assert.deepEqual(seen.map((s) => s.headers.get("authorization")), Array(3).fill("Bearer tok-abcd"));
    },
  );
});

/** Pages of `items(n)` under ever-new cursors (3 pages at most); the ids of what the list gave. */
async function listedUnderNewCursors(
  items: (n: number) => unknown[],
): Promise<{ listed: unknown[]; pages: number }> {
  let listed: unknown[] = [];
  let pages = 0;
  await withServer((req) => {
    const n = Number(new URL(req.url).searchParams.get("startAt") ?? 0);
    const next = n < 2 ? `${new URL(req.url).origin}/oss/v2/buckets?startAt=${n + 1}` : undefined;
    return json({ items: items(n), next });
  }, async (base, seen) => {
    const http = createHttp({
      baseUrl: base,
      timeoutMs: 2000,
      maxAttempts: 1,
      retryBaseMs: 1,
      notice: () => {},
    });
    listed = await collect(paginate(http, { path: "/oss/v2/buckets" }, "oss"));
    pages = seen.length;
  });
  return { listed, pages };
}

Deno.test("the page guard: a repeated page ends the list whatever names its items; different pages are listed whole", async () => {
  const body = "x".repeat(300);
  // Records with an id, with an objectKey, without either (a long JSON text, hashed), and plain strings.
  const kinds: ((n: number, i: number) => unknown)[] = [
    (n, i) => ({ id: `id-${n}-${i}`, body }),
    (n, i) => ({ objectKey: `key-${n}-${i}`, body }),
    (n, i) => ({ body: `${body}${n}-${i}${body}` }),
    (n, i) => `engine-${n}-${i}`,
  ];
  for (const kind of kinds) {
    const different = await listedUnderNewCursors((n) => [kind(n, 0), kind(n, 1)]);
    assert.equal(different.listed.length, 6, JSON.stringify(kind(0, 0)).slice(0, 40));
    const repeated = await listedUnderNewCursors(() => [kind(0, 0), kind(0, 1)]);
    assert.equal(repeated.listed.length, 2, JSON.stringify(kind(0, 0)).slice(0, 40));
    assert.equal(repeated.pages, 2, "the repeat is read once, then the list stops");
  }
  // Records whose ids differ share every other field: pages of them are different pages.
  const sameBodies = await listedUnderNewCursors((n) => [{ id: `a${n}`, body }, { id: `b${n}`, body }]);
  assert.equal(sameBodies.listed.length, 6);
});
