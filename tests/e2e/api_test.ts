/** e2e: `diazo api` against a sandbox — bodies, fields, every page, typed errors, foreign hosts. */
import assert from "node:assert/strict";
import path from "node:path";
import { assertOneError, assertUsageError, json, requestLog, withSandboxHome } from "./harness.ts";

type LogEntry = { method: string; path: string; query: Record<string, string> };

Deno.test("api: POST --input, -f/-F fields, --paginate over 3 OSS pages and 2 DA pages, 404, foreign hosts", () =>
  withSandboxHome(async (h) => {
    const log = async (prefix: string) => (await requestLog(h.sb.url, prefix)) as unknown as LogEntry[];
    await Deno.writeTextFile(
      path.join(h.home.cwd, "bucket.json"),
      JSON.stringify({ bucketKey: "api-e2e-pages", policyKey: "transient" }),
    );
    const created = await h.run([
      "api",
      "/oss/v2/buckets",
      "--input",
      "bucket.json",
      "-H",
      "x-ads-region: US",
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(json<{ bucketKey: string }>(created).bucketKey, "api-e2e-pages");
    assert.deepEqual((await log("/oss/v2/buckets")).map((e) => e.method), ["POST"], "a body means POST");

    await Deno.writeTextFile(path.join(h.home.cwd, "key.txt"), "api-e2e-typed");
    const typed = await h.run([
      "api",
      "/oss/v2/buckets",
      "-F",
      "bucketKey=@key.txt",
      "-f",
      "policyKey=transient",
    ]);
    assert.equal(typed.code, 0, typed.stderr);
    assert.equal(json<{ bucketKey: string }>(typed).bucketKey, "api-e2e-typed");

    const piped = await h.run(["api", "/oss/v2/buckets", "--input", "-"], {
      stdin: JSON.stringify({ bucketKey: "api-e2e-stdin", policyKey: "transient" }),
    });
    assert.equal(json<{ bucketKey: string }>(piped).bucketKey, "api-e2e-stdin", "--input - reads stdin");

    await Deno.mkdir(path.join(h.home.cwd, "five"));
    for (let i = 0; i < 5; i++) {
      await Deno.writeTextFile(path.join(h.home.cwd, "five", `f${i}.txt`), `file ${i}`);
    }
    assert.equal((await h.run(["object", "upload", "api-e2e-pages", "five", "--batch"])).code, 0);

    const objects = "/oss/v2/buckets/api-e2e-pages/objects";
    const onePage = await h.run(["api", objects, "-X", "GET", "-f", "limit=2"]);
    const page = json<{ items: unknown[]; next?: string }>(onePage);
    assert.equal(page.items.length, 2);
    assert.ok(page.next, "one page, with its next link, without --paginate");
    assert.equal((await log(objects)).at(-1)?.query.limit, "2", "-f on GET is a query parameter");

    const before = (await log(objects)).length;
    const all = await h.run(["api", objects, "--param", "limit=2", "--paginate", "-o", "json"]);
    assert.equal(all.code, 0, all.stderr);
    const keys = json<{ objectKey: string }[]>(all).map((o) => o.objectKey).sort();
    assert.deepEqual(keys, ["f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt"]);
    assert.equal((await log(objects)).length - before, 3, "three pages, each read once");

    const engines = await h.run(["api", "/da/us-east/v3/engines", "--paginate", "--query", "length(@)"]);
    assert.equal(engines.stdout.trim(), "16", "DA paginationToken followed");

    const missing = await h.run(["api", "/oss/v2/buckets/api-e2e-nope/details"]);
    assertOneError(missing, 4, /^error: Not found: \/oss\/v2\/buckets\/api-e2e-nope\/details/);

    const count = (await requestLog(h.sb.url)).length;
    const foreign = await h.run(["api", "https://example.com/oss/v2/buckets"]);
    assertUsageError(foreign, /refusing to send a request to example\.com: it is not the platform's host/);
    assert.match(foreign.stderr, /hint: Pass --allow-host example\.com/);
    const other = h.sb.url.replace("127.0.0.1", "localhost");
    assertUsageError(await h.run(["api", `${other}/oss/v2/buckets`]), /refusing .* localhost:\d+/);
    assertUsageError(await h.run(["api", "/oss/v2/buckets", "-H", "no-colon"]), /-H takes 'Name: value'/);
    const noUser = await h.run(["api", "/project/v1/hubs", "--as", "user"]);
    assertOneError(noUser, 3, /Authentication required \(3-legged OAuth\)/);
    assert.equal((await requestLog(h.sb.url)).length, count, "none of these sent a request");

    // An allowed host gets the request, but never the platform's token: the sandbox refuses it.
    const allowed = await h.run(["api", `${other}/oss/v2/buckets`, "--allow-host", "localhost"]);
    assert.equal(allowed.code, 3, allowed.stderr);
    assert.equal((await requestLog(h.sb.url)).length, count + 1);
  }));
