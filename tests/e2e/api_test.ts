/** e2e: `diazo api` against a sandbox — bodies, fields, every page, typed errors, foreign hosts. */
import assert from "node:assert/strict";
import path from "node:path";
import { runCli } from "../../src/front/root.ts";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { assertOneError, assertUsageError, captureIo, json, requestLog, withSandboxHome } from "./harness.ts";

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

    // BIM 360 HQ's lists are bare arrays paged by offset: 12 users of the account at 5 a page.
    assert.equal((await h.run(["auth", "extend-scopes", "--add", "account:read"])).code, 0);
    const users = `/hq/v1/accounts/${seededAccountId()}/users`;
    const hqBefore = (await log(users)).length;
    const hq = await h.run(["api", users, "--param", "limit=5", "--paginate", "--query", "[].email"]);
    assert.equal(hq.code, 0, hq.stderr);
    const everyone = await h.run([
      ..."admin user list --as app -o json --account".split(" "),
      seededAccountId(),
    ]);
    const emails = json<{ email: string }[]>(everyone).map((u) => u.email);
    assert.equal(emails.length, 12);
    assert.deepEqual(json<string[]>(hq), emails, "every page of the HQ list, in order");
    const offsets = (await log(users)).slice(hqBefore, hqBefore + 3).map((e) => e.query.offset);
    assert.deepEqual(offsets, [undefined, "5", "10"], "offset moved by each page until a short one");

    const missing = await h.run(["api", "/oss/v2/buckets/api-e2e-nope/details"]);
    assertOneError(
      missing,
      4,
      /^error: GET \/oss\/v2\/buckets\/api-e2e-nope\/details: HTTP 404 Not Found: \{/,
    );

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

Deno.test("api: a binary answer reaches stdout byte for byte, a text one as it came; --input sends a file's bytes", () =>
  withSandboxHome(async (h) => {
    const bytes = new Uint8Array(256).map((_, i) => (i * 7 + 0x80) % 256); // not UTF-8
    await Deno.writeFile(path.join(h.home.cwd, "blob.bin"), bytes);
    await Deno.writeTextFile(path.join(h.home.cwd, "note.txt"), "plain text, not JSON\n");
    assert.equal((await h.run(["bucket", "create", "--key", "api-e2e-raw"])).code, 0);
    const at = "/oss/v2/buckets/api-e2e-raw/objects";
    const put = async (file: string) => {
      const signed = await h.run(["api", `${at}/${file}/signeds3upload`, "-o", "json"]);
      const { urls, uploadKey } = json<{ urls: string[]; uploadKey: string }>(signed);
      const sent = await h.run(["api", urls[0], "-X", "PUT", "--input", file]);
      assert.equal(sent.code, 0, sent.stderr);
      const done = await h.run(["api", `${at}/${file}/signeds3upload`, "-F", `uploadKey=${uploadKey}`]);
      assert.equal(done.code, 0, done.stderr);
      return json<{ size: number }>(done).size;
    };
    assert.equal(await put("blob.bin"), 256, "--input sends the file's bytes unchanged");
    await put("note.txt");

    const url = async (file: string) =>
      json<{ url: string }>(await h.run(["api", `${at}/${file}/signeds3download`, "-o", "json"])).url;
    const chunks: Uint8Array[] = [];
    const cap = captureIo();
    const io = {
      ...cap.io,
      stdout: { write: (d: string | Uint8Array) => void chunks.push(d as Uint8Array), isTerminal: false },
    };
    assert.equal(await runCli(["api", await url("blob.bin")], io, h.env, h.home.cwd), 0, cap.stderr());
    assert.deepEqual(new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer()), bytes);

    const text = await h.run(["api", await url("note.txt")]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, "plain text, not JSON\n", "text is written as it came, not as a JSON string");
  }));

Deno.test("api: --paginate over a JSON:API list keeps every page's included resources beside the items", () =>
  withSandboxHome(async (h) => {
    type Doc = { data: { id: string; relationships?: unknown }[]; included?: { type: string; id: string }[] };
    const ok = async <T>(args: string[]): Promise<T> => {
      const r = await h.run([...args, "-o", "json"]);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      return json<T>(r);
    };
    const hub = (await ok<{ id: string }[]>(["hub", "list"]))[0].id;
    const project = (await ok<{ id: string; name: string }[]>(["project", "list", hub]))
      .find((p) => p.name === "Riverside Tower")!.id;
    const top = (await ok<{ id: string; name: string }[]>(["folder", "list", project, "--hub", hub]))
      .find((f) => f.name === "Project Files")!.id;
    const sheets = (await ok<{ id: string; name: string }[]>(["folder", "list", project, top]))
      .find((f) => f.name === "Sheets")!.id;
    const contents = `/data/v1/projects/${project}/folders/${encodeURIComponent(sheets)}/contents`;

    // One page as the platform sends it: its items' tip versions are in `included`.
    const one = await ok<Doc>(["api", contents, "--param", "page[limit]=100"]);
    assert.equal(one.data.length, 100);
    assert.equal(one.included?.length, 100);

    const all = await ok<Doc>(["api", contents, "--param", "page[limit]=100", "--paginate"]);
    assert.equal(all.data.length, 450, "every item of the five pages");
    assert.equal(all.included?.length, 450, "every page's included versions, none dropped");
    assert.ok(all.included!.every((r) => r.type === "versions"));
    assert.equal(new Set(all.included!.map((r) => r.id)).size, 450);
    assert.deepEqual(all.included!.slice(0, 100), one.included, "in page order");

    // A list whose pages include nothing stays a plain array of its items.
    const projects = await ok<unknown[]>(["api", `/project/v1/hubs/${hub}/projects`, "--paginate"]);
    assert.ok(Array.isArray(projects) && projects.length > 0);
  }));

Deno.test("api: a refusal names method, path, status and the platform's body; -i, --silent, --jq", () =>
  withSandboxHome(async (h) => {
    const missing = await h.run(["api", "/no/such", "-X", "GET"]);
    assertOneError(missing, 4, /^error: GET \/no\/such: HTTP 404 Not Found: \{"developerMessage":"[^"]+"/);
    assert.match(missing.stderr, /"errorCode":"SANDBOX-404"/, "the platform's body, as it answered");

    const included = await h.run(["api", "/no/such", "-X", "GET", "-i"]);
    assert.equal(included.code, 4);
    const [head, body] = included.stdout.split("\n\n");
    assert.match(head, /^HTTP\/1\.1 404 Not Found\nContent-Length: \d+\nContent-Type: application\/json/);
    assert.equal(JSON.parse(body).errorCode, "SANDBOX-404", "-i prints the refusal's whole body on stdout");
    assert.match(included.stderr, /^error: GET \/no\/such: HTTP 404/);

    const ok = await h.run(["api", "/oss/v2/buckets", "-i"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^HTTP\/1\.1 200 OK\n(?:[A-Z][\w-]*: .*\n)+\n\{/);
    const silent = await h.run(["api", "/oss/v2/buckets", "--silent"]);
    assert.deepEqual([silent.code, silent.stdout], [0, ""]);

    // Fields make the request a POST, and its refusal says so.
    const long = "x".repeat(900);
    const refused = await h.run([
      "api",
      "/oss/v2/buckets",
      "-f",
      `bucketKey=${long}`,
      "-f",
      "policyKey=transient",
    ]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^error: POST \/oss\/v2\/buckets: HTTP 400 Bad Request: /);

    const jq = await h.run(["api", "/oss/v2/buckets", "--jq", ".items[]"]);
    assertUsageError(jq, /diazo api has no --jq/);
    assert.match(jq.stderr, /hint: .*--query '\.items\[\]'/);
  }));
