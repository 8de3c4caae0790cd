/**
 * The dashboard's layout (`/_sandbox/ui`, src/sandbox/dashboard/page.ts) in Debian's headless
 * Chromium, driven over the DevTools protocol (tests/sandbox/cdp.ts), at windows 1024, 1400 and 1920
 * px wide against a sandbox with traffic on long paths: measured in the page, no table's box overlaps
 * another's or the side panel, no path cell is narrower than 20 characters of its font, a path is
 * whole or cut in the middle with an ellipsis (whole in its title), and sizes read as KiB/MiB. Each width leaves a
 * PNG of the whole page in a temp dir, or in DIAZO_DASHBOARD_SCREENSHOTS when set (for a look).
 * Without Chromium the test skips, but fails under CI=true (.ci/run installs Debian's `chromium`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CHROMIUM_PATH, evaluate, hasChromium, load, openPage, type Page, screenshot } from "./cdp.ts";
import { api, control, type SandboxAt, token, withSandbox } from "./helpers.ts";
import { bucketWithToken, objectPath, patternBytes, uploadObject } from "./object_helpers.ts";
import { makeHook } from "./world_helpers.ts";

const WIDTHS = [1024, 1400, 1920];
const HEIGHT = 900;
const IN_CI = Deno.env.get("CI") === "true";

/** An object key of about 200 characters, as deep project folders make them. */
const LONG_KEY = "projects/riverside-tower/phase-2/levels/level-03/architecture/facade/" +
  "curtain-wall-panels/revision-C/issued-for-construction/" +
  "riverside-tower-L03-facade-curtain-wall-panels-rev-C-IFC-coordinated-model.rvt";

/** Buckets, objects of 1.5 KiB and 3 MiB, misses on long paths, a hook and two faults. */
async function traffic(sb: SandboxAt): Promise<void> {
  const t = await bucketWithToken(sb, "site-survey-2026");
  await uploadObject(sb, t, "site-survey-2026", LONG_KEY, patternBytes(3 * 1024 * 1024 + 5000));
  await uploadObject(sb, t, "site-survey-2026", "notes/readme.txt", patternBytes(1536, 2));
  await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "empty-archive-bucket", policyKey: "persistent" });
  assert.equal(
    (await api(sb, "GET", `${objectPath("site-survey-2026", `${LONG_KEY}.bak`)}/details`, t)).status,
    404,
  );
  await makeHook(sb, "https://hooks.example.com/receivers/diazo/sandbox/dm-folder-added/with/a/long/path");
  const glob = "glob:/oss/v2/buckets/site-survey-2026/objects/projects%2Friverside-tower%2F**";
  assert.equal((await control(sb, "POST", "faults", { path: glob, status: 503, count: 1 })).status, 201);
  assert.equal((await api(sb, "GET", `${objectPath("site-survey-2026", LONG_KEY)}/details`, t)).status, 503);
  await control(sb, "POST", "faults", { path: "/oss/v2/buckets/empty-archive-bucket/objects", status: 429 });
  assert.equal((await api(sb, "GET", "/oss/v2/buckets", await token(sb, "bucket:read"))).status, 200);
}

/** What the page shows and where, measured in it. */
const MEASURE = `(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const canvas = document.createElement("canvas").getContext("2d");
  const charWidth = (el) => { canvas.font = getComputedStyle(el).font; return canvas.measureText("0".repeat(20)).width / 20; };
  const panel = document.getElementById("panel");
  return {
    docWidth: document.documentElement.scrollWidth,
    panel: box(panel),
    tables: [...document.querySelectorAll("table")].map((t) => ({ id: t.id, inPanel: panel.contains(t), box: box(t) })),
    paths: [...document.querySelectorAll("#requests td.path")].map((td) => {
      const s = getComputedStyle(td);
      const width = td.getBoundingClientRect().width - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      const text = document.createRange();
      text.selectNodeContents(td);
      return {
        text: td.textContent, title: td.title, overflows: text.getBoundingClientRect().width > width,
        overflow: s.textOverflow, whiteSpace: s.whiteSpace, width,
        charWidth: charWidth(td), height: td.getBoundingClientRect().height, lineHeight: parseFloat(s.lineHeight),
      };
    }),
    cutHeaders: [...document.querySelectorAll("th")].filter((th) => th.scrollWidth > th.clientWidth).map((th) => th.textContent),
    sizes: [...document.querySelectorAll("#buckets tr")].map((tr) => [tr.cells[0].textContent, tr.cells[3].textContent, tr.cells[3].title]),
  };
})()`;

/** Waits until the page has drawn at least `rows` requests from the overview. */
async function rendered(page: Page, rows: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  const ready = `document.getElementById("status").textContent === "live" &&
    document.querySelectorAll("#requests td.path").length >= ${rows}`;
  while (!(await evaluate(page, ready))) {
    if (Date.now() > deadline) throw new Error(`the dashboard drew fewer than ${rows} requests in 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Box = { left: number; top: number; right: number; bottom: number };
const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Uint8Array): [number, number] {
  const view = new DataView(png.buffer, png.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

// deno-lint-ignore no-explicit-any
function assertLayout(width: number, m: any): void {
  assert.ok(m.docWidth <= width, `${width}px: the page is ${m.docWidth}px wide (it scrolls sideways)`);
  const outside = m.tables.filter((t: { inPanel: boolean }) => !t.inPanel);
  assert.deepEqual(outside.map((t: { id: string }) => t.id), ["requests-table"]);
  for (const t of outside) {
    assert.ok(!overlaps(t.box, m.panel), `${width}px: ${t.id} ${JSON.stringify(t.box)} runs under the panel`);
  }
  for (const [i, a] of m.tables.entries()) {
    for (const b of m.tables.slice(i + 1)) {
      assert.ok(!overlaps(a.box, b.box), `${width}px: ${a.id} and ${b.id} overlap`);
    }
  }
  assert.deepEqual(m.cutHeaders, [], `${width}px: headers cut`);
  for (const p of m.paths) {
    const chars = p.width / p.charWidth;
    assert.ok(chars >= 20, `${width}px: the path cell of ${p.title} holds ${chars.toFixed(1)} characters`);
    assert.ok(p.height < 2 * p.lineHeight, `${width}px: ${p.title} wraps (${p.height}px high)`);
    assert.ok(!p.overflows, `${width}px: ${p.text} is wider than its cell`);
    assert.equal(p.whiteSpace, "nowrap");
    assert.equal(p.overflow, "ellipsis");
    if (p.text === p.title) continue;
    // Cut in the middle: its start, an ellipsis, its end.
    const [head, tail, ...more] = p.text.split("…");
    assert.deepEqual(more, [], p.text);
    assert.ok(p.title.startsWith(head) && p.title.endsWith(tail), `${p.text} is not cut from ${p.title}`);
    assert.ok(head.length >= 8 && tail.length >= 8, `${width}px: ${p.text} keeps too little of ${p.title}`);
  }
  const long = m.paths.filter((p: { title: string }) => p.title.includes(encodeURIComponent(LONG_KEY)));
  assert.ok(long.length >= 4, "the long paths are in the table");
  for (const p of long) {
    assert.notEqual(p.text, p.title, `${width}px: a path of ${p.title.length} characters is shown whole`);
    assert.ok(p.text.endsWith(p.title.slice(p.title.lastIndexOf(".rvt"))), `${p.text} lost its operation`);
  }
  assert.deepEqual(m.sizes, [
    ["empty-archive-bucket", "0 B", "0 bytes"],
    ["site-survey-2026", "3.0 MiB", `${3 * 1024 * 1024 + 5000 + 1536} bytes`],
  ]);
}

Deno.test({
  name:
    "dashboard layout: at 1024, 1400 and 1920 px no table overlaps another or the panel, paths hold 20+ characters",
  ignore: !hasChromium() && !IN_CI,
  fn: async () => {
    assert.ok(
      hasChromium(),
      `${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install -y --no-install-recommends chromium)`,
    );
    const keep = Deno.env.get("DIAZO_DASHBOARD_SCREENSHOTS");
    const dir = keep ?? await Deno.makeTempDir({ prefix: "diazo-dashboard-" });
    if (keep) await Deno.mkdir(keep, { recursive: true });
    try {
      await withSandbox(async (sb) => {
        await traffic(sb);
        const rows = (await control(sb, "GET", "requests")).json.length;
        const page = await openPage();
        try {
          for (const width of WIDTHS) {
            await load(page, `${sb.url}/_sandbox/ui`, width, HEIGHT);
            await rendered(page, rows);
            const png = await screenshot(page);
            await Deno.writeFile(join(dir, `dashboard-${width}.png`), png);
            assert.equal(pngSize(png)[0], width, "the screenshot is as wide as the window");
            assertLayout(width, await evaluate(page, MEASURE));
          }
        } finally {
          await page.close();
        }
      });
    } finally {
      if (!keep) await Deno.remove(dir, { recursive: true });
    }
  },
});
