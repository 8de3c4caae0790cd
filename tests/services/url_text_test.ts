/**
 * services/url_text.ts gives what `URL` gives, for URLs read as text and for those it hands to `URL`:
 * thousands of addresses built from the pieces that `URL` rewrites (case, default ports, IPv4 forms,
 * punycode, dot segments, characters it escapes) and from plain ones.
 */
import assert from "node:assert/strict";
import { normalUrl, queryNames, sortedQueryUrl, urlParts, withQuery } from "../../src/http/url_text.ts";

const SCHEMES = ["http", "https", "HTTP", "Https", "ftp"];
const HOSTS = [
  "example.com",
  "developer.api.autodesk.com",
  "127.0.0.1",
  "localhost",
  "EXAMPLE.com",
  "127.1",
  "0x7f.0.0.1",
  "256.1.1.1",
  "1.2.3.04",
  "a..b",
  "a-.b",
  "-a.b",
  "a.b-c.d",
  "xn--nxasmq6b.com",
  "xn--zz",
  "[::1]",
  "local_host",
  "",
  "exa mple",
  "user@host",
  "h.123",
  "h.0x1",
];
const PORTS = ["", ":80", ":443", ":8080", ":65535", ":65536", ":0", ":08", ":"];
const PATH_PIECES = [
  "/",
  "oss",
  "v2",
  "buckets",
  "a-b_c.d~e",
  ".",
  "..",
  "%2e",
  "%2E%2e",
  "%zz",
  "%41",
  " ",
  "\\",
  "#",
  "'",
  "^",
  "é",
  "@",
  "!$&()*+,;=:",
  "{",
  "`",
  "\t",
  "|",
];
const QUERY_PIECES = [
  "a=1",
  "b=x.y",
  "c=",
  "flag",
  "d=%20",
  "e=a+b",
  "f='",
  "g=é",
  "h=1&h=2",
  "?",
  "=",
  "i=/?",
  "page%5Blimit%5D=200",
  "filter%5Btype%5D=items",
  "j=a%2Bb",
  "k=%C3%A9",
  "l=%c3%a9",
  "m=%E9",
  "n=%41",
  "o=%7E",
  "p=~",
  "q=*",
];
const VALUES = [
  "US",
  "EMEA",
  "100",
  "",
  "a b",
  "x/y",
  "é",
  "a+b",
  "*-._",
  "=&",
  "'",
  "!~()",
  "[x]",
  "%41",
  "\u{1F600}",
  "\uD800",
  "a,b",
];

/** A small deterministic random source (xorshift), so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

function addresses(n: number): string[] {
  const r = random(0x5eed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const out = [
    "https://developer.api.autodesk.com/oss/v2/buckets",
    "http://127.0.0.1:8080/x?region=US",
    "http://127.0.0.1:8080/x?",
    "https://example.com?",
    "http://example.com:/x",
    "http://0.0.0.0:65535/",
  ];
  for (let i = 0; i < n; i++) {
    // Half of them from the first pieces of each list only: the well-formed addresses of every day.
    const few = <T>(xs: readonly T[], k: number) => (i % 2 ? xs : xs.slice(0, k));
    const segments = Array.from({ length: Math.floor(r() * 4) }, () => `/${pick(few(PATH_PIECES, 5))}`).join(
      "",
    );
    const path = r() < 0.1 ? "" : segments || "/";
    const pairs = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(few(QUERY_PIECES, 3)));
    const query = r() < 0.5 ? "" : `?${pairs.join("&")}`;
    out.push(`${pick(few(SCHEMES, 2))}://${pick(few(HOSTS, 4))}${pick(few(PORTS, 4))}${path}${query}`);
  }
  return out;
}

const FIELDS = ["href", "protocol", "host", "hostname", "port", "origin", "pathname", "search"] as const;

/** What `fn` returns or throws, for comparing two ways of doing one thing. */
function outcome<T>(fn: () => T): { ok: T } | { error: string } {
  try {
    return { ok: fn() };
  } catch (e) {
    return { error: (e as Error).constructor.name };
  }
}

Deno.test("urlParts and normalUrl give what URL gives, and throw where it throws", () => {
  let plain = 0;
  for (const text of addresses(6000)) {
    const want = outcome(() => {
      const u = new URL(text);
      return Object.fromEntries(FIELDS.map((f) => [f, u[f]]));
    });
    const got = outcome(() => {
      const u = urlParts(text);
      return Object.fromEntries(FIELDS.map((f) => [f, u[f]]));
    });
    assert.deepEqual(got, want, text);
    assert.deepEqual(outcome(() => normalUrl(text)), outcome(() => new URL(text).href), text);
    if ("ok" in want && !(urlParts(text) instanceof URL)) plain++;
  }
  // The text path is taken, not only URL's: most well-formed addresses are read as text.
  assert.ok(plain > 500, `only ${plain} addresses were read as text`);
});

Deno.test("withQuery sets parameters as URLSearchParams.set does; sortedQueryUrl sorts as sort() does", () => {
  const r = random(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  for (const text of addresses(3000)) {
    const query: Record<string, string | number | boolean | undefined> = {};
    for (let i = Math.floor(r() * 4); i > 0; i--) {
      query[pick(["region", "limit", "startAt", "a b", "x", "page[limit]", "filter[type]", "é", "\uDC00"])] =
        pick([...VALUES, 42, true, undefined]);
    }
    const want = outcome(() => {
      const u = new URL(text);
      for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
      return u.toString();
    });
    assert.deepEqual(outcome(() => withQuery(text, query)), want, `${text} ${JSON.stringify(query)}`);
    const sorted = outcome(() => {
      const u = new URL(text);
      u.searchParams.sort();
      return u.toString();
    });
    assert.deepEqual(outcome(() => sortedQueryUrl(text)), sorted, text);
  }
  assert.equal(
    withQuery("https://developer.api.autodesk.com/oss/v2/buckets", {
      region: "US",
      limit: 100,
      x: undefined,
    }),
    "https://developer.api.autodesk.com/oss/v2/buckets?region=US&limit=100",
  );
  assert.equal(sortedQueryUrl("http://127.0.0.1:9/p?b=2&a=1&b=1"), "http://127.0.0.1:9/p?a=1&b=2&b=1");
  // Bracketed names (JSON:API's page[limit], filter[type]) are written as URLSearchParams escapes them.
  assert.equal(
    withQuery("http://127.0.0.1:9/data/v1/x", { "page[limit]": 200, "filter[type]": "items" }),
    "http://127.0.0.1:9/data/v1/x?page%5Blimit%5D=200&filter%5Btype%5D=items",
  );
});

Deno.test("queryNames gives the names URL's searchParams has, and throws where URL throws", () => {
  const extra = [
    "http://127.0.0.1:9/p?startAt=obj-0098.txt&limit=100",
    "http://127.0.0.1:9/p?a&&b=1&a=2&=x",
    "http://127.0.0.1:9/p?page%5Bnumber%5D=2&x=1",
    "http://127.0.0.1:9/p?a+b=1",
  ];
  for (const text of [...extra, ...addresses(3000)]) {
    const want = outcome(() => [...new Set(new URL(text).searchParams.keys())]);
    assert.deepEqual(outcome(() => [...queryNames(text)]), want, text);
  }
  assert.deepEqual([...queryNames(extra[0])], ["startAt", "limit"]);
  assert.deepEqual([...queryNames(extra[2])], ["page[number]", "x"]);
});
