/**
 * The dashboard (`/_sandbox/ui`): a self-contained page whose data (`/_sandbox/overview`) carries the
 * request just made with its scope; in headless Chromium (Debian's `chromium`, skipped when absent)
 * the rendered page shows that request, and a screenshot at 1280×800 is taken.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { api, call, control, token, withSandbox } from "./helpers.ts";

function chromiumPath(): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser"]) {
      try {
        if (Deno.statSync(join(dir, name)).isFile) return join(dir, name);
      } catch { /* not here */ }
    }
  }
  return undefined;
}

const CHROMIUM = chromiumPath();

async function chromium(args: string[]): Promise<string> {
  const out = await new Deno.Command(CHROMIUM!, {
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars", ...args],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(out.code, 0, "chromium ran");
  return new TextDecoder().decode(out.stdout);
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Uint8Array): [number, number] {
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
  const view = new DataView(png.buffer, png.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

async function probe(sb: { url: string }): Promise<void> {
  const t = await token(sb, "bucket:create bucket:read");
  assert.equal(
    (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "ui-probe", policyKey: "transient" })).status,
    200,
  );
  await control(sb, "POST", "faults", { path: "/oss/v2/buckets/nothing", status: 503 });
}

Deno.test("dashboard: the page needs nothing from elsewhere, and its data has the request with its scope", async () => {
  await withSandbox(async (sb) => {
    await probe(sb);
    const res = await fetch(`${sb.url}/_sandbox/ui`);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await res.text();
    assert.doesNotMatch(html, /(src|href)=["']?(https?:)?\/\//, "no external assets");
    const o = (await call(`${sb.url}/_sandbox/overview`)).json;
    const made = o.requests.find((r: { path: string; method: string }) =>
      r.method === "POST" && r.path === "/oss/v2/buckets"
    );
    assert.equal(made.status, 200);
    assert.equal(made.scope, "bucket:create bucket:read");
    assert.deepEqual(o.services.buckets.map((b: { key: string }) => b.key), ["ui-probe"]);
    assert.equal(o.faults[0].path, "/oss/v2/buckets/nothing");
    assert.ok(o.services.hubs.length > 0);
  });
});

Deno.test({
  name: "dashboard: headless Chromium renders the request just made, and a screenshot at 1280x800",
  ignore: CHROMIUM === undefined,
  fn: async () => {
    await withSandbox(async (sb) => {
      await probe(sb);
      const dom = await chromium(["--virtual-time-budget=5000", "--dump-dom", `${sb.url}/_sandbox/ui`]);
      const text = dom.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      assert.match(
        text,
        /POST \/oss\/v2\/buckets 200 bucket:create bucket:read [\d.]+ ms/,
        "the request row",
      );
      assert.match(text, /ui-probe transient 0 0 B/, "the bucket");
      assert.match(text, /f1 \* \/oss\/v2\/buckets\/nothing 503 unlimited 0 fired/, "the fault in force");
      assert.match(text, /Riverside Tower/, "the projects");
      assert.match(text, /\blive\b/);

      const dir = await Deno.makeTempDir();
      try {
        const shot = join(dir, "dashboard.png");
        const blank = join(dir, "blank.png");
        await chromium([
          "--virtual-time-budget=5000",
          "--window-size=1280,800",
          `--screenshot=${shot}`,
          `${sb.url}/_sandbox/ui`,
        ]);
        await chromium([
          "--window-size=1280,800",
          `--screenshot=${blank}`,
          "data:text/html,<title>blank</title>",
        ]);
        const png = await Deno.readFile(shot);
        assert.deepEqual(pngSize(png), [1280, 800]);
        const empty = (await Deno.readFile(blank)).length;
        assert.ok(
          png.length > empty * 3,
          `the page drew something (${png.length} bytes against ${empty} for a blank page)`,
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  },
});
