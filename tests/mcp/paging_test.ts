/**
 * Every list tool pages with an opaque cursor and a truthful `has_more` against the sandbox: the pages
 * of a small `limit` hold exactly the items of the whole list, once each, over at least two pages;
 * 160 webhooks are all found by paging `webhook_list` to its end, and its third page costs at most two
 * requests; `fields` adds a field beyond the compact item on every list tool, and `total` is the
 * platform's where it gives one.
 */
import assert from "node:assert/strict";
import path from "node:path";
import type { Client } from "../../src/mcp/sdk.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { diazo, openSandboxHome, requestLog } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";
import { BIM360_PROJECT, PROJECT } from "../e2e/acc_fixture.ts";
import { CUBE_OBJ } from "../e2e/md_helpers.ts";
import { fails, ok, startServe } from "./helpers.ts";

type Item = Record<string, unknown>;

/** Every item of a list tool, page by page with `limit`; checks has_more against next_cursor on each page. */
async function pageAll(client: Client, name: string, args: Item, limit: number) {
  const items: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await ok(client, name, { ...args, limit, ...(cursor ? { cursor } : {}) });
    assert.ok(page.count <= limit, `${name}: ${page.count} > ${limit}`);
    assert.equal(page.count, page.items.length);
    assert.equal(page.has_more, page.next_cursor !== undefined, `${name}: has_more without a cursor`);
    items.push(...page.items);
    cursor = page.next_cursor;
    pages++;
    assert.ok(pages < 500, `${name}: no end`);
  } while (cursor);
  return { items, pages };
}

/** The whole list through the largest pages, and again through pages of about a third of it. */
async function checkPaging(client: Client, name: string, args: Item): Promise<number> {
  const whole = await pageAll(client, name, args, 200);
  const total = whole.items.length;
  assert.ok(total >= 2, `${name}: the sandbox gave ${total} items, too few for two pages`);
  const small = await pageAll(client, name, args, Math.max(1, Math.floor(total / 3)));
  assert.ok(small.pages >= 2, `${name}: ${small.pages} page(s)`);
  const keys = small.items.map((i) => JSON.stringify(i));
  assert.equal(new Set(keys).size, keys.length, `${name}: an item twice`);
  assert.deepEqual(
    keys,
    whole.items.map((i) => JSON.stringify(i)),
    `${name}: pages differ from the whole list`,
  );
  return total;
}

/** Where a tool's `fields` go: data management attributes, construction records, else beside the item's keys. */
function fieldsUnder(name: string): string | undefined {
  if (["hub_list", "project_list", "folder_list", "item_versions", "folder_search"].includes(name)) {
    return "attributes";
  }
  return ["rfi_list", "asset_list", "submittal_list", "checklist_list"].includes(name) ? "record" : undefined;
}

/** Lists whose records hold nothing beyond the compact item: the item is the whole record by design. */
const WHOLE = new Set([
  "translate_properties", // an object's properties are the item
  "translate_tree", // a node of the tree is the item
]);

/**
 * The lists that say how many items the whole list holds: the platform's pagination.totalResults, and the
 * derivative views the tools read whole.
 */
const TOTALED = new Set([
  "issue_list",
  "rfi_list",
  "submittal_list",
  "checklist_list",
  "admin_project_users",
  "translate_properties",
  "translate_tree",
]);

/** `fields` adds a field the compact item lacks, an unknown one is refused naming the valid ones; `total`. */
async function checkFields(client: Client, name: string, args: Item, total: number): Promise<void> {
  const under = fieldsUnder(name);
  const keysOf = (item: Item) => Object.keys(under ? (item[under] ?? {}) as Item : item);
  const compact = await ok(client, name, { ...args, limit: 2 });
  const all = await ok(client, name, { ...args, limit: 2, fields: ["*"] });
  const extra = keysOf(all.items[0]).filter((k) => !keysOf(compact.items[0]).includes(k));
  if (WHOLE.has(name)) {
    assert.deepEqual(
      extra,
      [],
      `${name}: listed as whole, yet ${extra.join(", ")} are not in the compact item`,
    );
  } else {
    assert.ok(extra.length > 0, `${name}: fields ["*"] gives nothing beyond the compact item`);
    const more = await ok(client, name, { ...args, limit: 2, fields: [extra[0]] });
    assert.ok(keysOf(more.items[0]).includes(extra[0]), `${name}: fields [${extra[0]}] is not answered`);
    assert.equal(
      keysOf(more.items[0]).length,
      keysOf(compact.items[0]).length + 1,
      `${name}: only it is added`,
    );
  }
  const bad = await fails(client, name, { ...args, limit: 2, fields: ["no_such_field"] });
  assert.match(bad.message, /^fields: unknown field 'no_such_field'/, name);
  assert.match(bad.hint, /The items' records have: \w+/, name);
  assert.equal(compact.total, TOTALED.has(name) ? total : undefined, `${name}: total`);
}

Deno.test("paging: 160 webhooks, all found by paging webhook_list, none twice; a cursor of other filters is refused", async () => {
  const h = await openSandboxHome();
  const serve = await startServe(h.env, ["--toolsets", "events"], h.home.cwd);
  try {
    const c = serve.client;
    await fetch(`${h.sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ webhook_page_size: 50 }),
    }).then((r) => r.body?.cancel());
    for (let i = 0; i < 160; i++) {
      await ok(c, "webhook_create", {
        url: `https://receiver.example/hook/${i}`,
        event: "dm.version.added",
        scope: { folder: `urn:adsk.wipprod:fs.folder:co.paging${i}` },
        confirm: true,
      });
    }
    for (const limit of [50, 200, 7]) {
      const { items, pages } = await pageAll(c, "webhook_list", {}, limit);
      const ids = new Set(items.map((h) => h.hookId));
      assert.equal(items.length, 160, `limit ${limit}`);
      assert.equal(ids.size, 160, `limit ${limit}: no duplicates`);
      assert.ok(pages >= Math.ceil(160 / limit), `limit ${limit}: ${pages} pages`);
    }
    const first = await ok(c, "webhook_list", { limit: 50 });
    assert.deepEqual([first.count, first.has_more, typeof first.next_cursor], [50, true, "string"]);
    const other = await fails(c, "webhook_list", { status: "inactive", cursor: first.next_cursor });
    assert.match(other.message, /invalid cursor/);
    // Page 3 of 60 (items 120-159 of pages of 50) resumes from the platform's own cursor: no re-reading.
    const second = await ok(c, "webhook_list", {
      limit: 60,
      cursor: (await ok(c, "webhook_list", { limit: 60 })).next_cursor,
    });
    const before = (await requestLog(h.sb.url, "/webhooks")).length;
    const third = await ok(c, "webhook_list", { limit: 60, cursor: second.next_cursor });
    const cost = (await requestLog(h.sb.url, "/webhooks")).length - before;
    assert.deepEqual([third.count, third.has_more], [40, false]);
    assert.ok(cost <= 2, `page 3 cost ${cost} requests`);
  } finally {
    await serve.close();
    await h.close();
  }
});

Deno.test("paging: every list tool pages over at least two pages of the sandbox, every item once", async () => {
  const h = await openSandboxHome({
    DIAZO_NO_BROWSER: "1",
    SVC_DA_NICKNAME: "Diazo_Paging",
    DIAZO_POLL_BASE_MS: "20",
  });
  try {
    await fetch(`${h.sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ job_seconds: 0 }),
    }).then((r) => r.body?.cancel());
    const login = await loginUser(h.env, "data:read,data:write,data:create,account:read,account:write");
    assert.equal(login.code, 0, login.stderr);
    const cli = (...args: string[]) => diazo(args, { env: h.env, cwd: h.home.cwd });
    await Deno.writeFile(path.join(h.home.cwd, "bundle.zip"), new Uint8Array(512));
    for (const id of ["PageA", "PageB", "PageC"]) {
      const r = await cli(
        "da",
        "appbundle-create",
        "--id",
        id,
        "--engine",
        "Autodesk.AutoCAD+24",
        "--package",
        "bundle.zip",
      );
      assert.equal(r.code, 0, r.stderr);
    }
    const serve = await startServe(h.env, ["--toolsets", "all"], h.home.cwd);
    const c = serve.client;
    try {
      for (const i of [1, 2, 3]) await ok(c, "bucket_create", { bucket_key: `seat-paging-${i}` });
      for (const name of ["a.obj", "b.obj", "c.obj"]) {
        await Deno.writeTextFile(path.join(h.home.cwd, name), CUBE_OBJ);
        await ok(c, "object_upload", { bucket_key: "seat-paging-1", file: name });
      }
      for (let i = 0; i < 3; i++) {
        await ok(c, "webhook_create", {
          url: `https://receiver.example/${i}`,
          event: "dm.version.added",
          scope: { folder: `urn:adsk.wipprod:fs.folder:co.p${i}` },
          confirm: true,
        });
      }
      const { urn } = await ok(c, "object_urn", { bucket_key: "seat-paging-1", object_key: "a.obj" });
      await ok(c, "translate_start", { urn, formats: ["svf2"] });
      await ok(c, "translate_status", { urn, wait_seconds: 60 });
      const hub = (await ok(c, "hub_list")).items[0].id;
      const project = (await ok(c, "project_list", { hub_id: hub })).items
        .find((p: { name: string }) => p.name.startsWith("Riverside")).id;
      const top = await ok(c, "folder_list", { hub_id: hub, project_id: project });
      const files = top.items.find((f: { name: string }) => f.name === "Project Files").id;
      await Deno.writeTextFile(path.join(h.home.cwd, "plan.dwg"), "v1");
      const up = await ok(c, "item_upload", { project_id: project, folder_id: files, file: "plan.dwg" });
      await Deno.writeTextFile(path.join(h.home.cwd, "plan.dwg"), "v2 longer");
      await ok(c, "item_upload", { project_id: project, folder_id: files, file: "plan.dwg" });
      const account = (await ok(c, "admin_account_list")).items[0].id;
      const adminProject = (await ok(c, "admin_project_list", { account_id: account })).items[0].id;

      const cases: [string, Item][] = [
        ["bucket_list", {}],
        ["object_list", { bucket_key: "seat-paging-1" }],
        ["hub_list", {}],
        ["project_list", { hub_id: hub }],
        ["folder_list", { project_id: project, folder_id: files }],
        ["item_versions", { project_id: project, item_id: up.item?.id ?? up.itemId }],
        ["issue_list", { project_id: PROJECT }],
        ["rfi_list", { project_id: PROJECT }],
        ["asset_list", { project_id: PROJECT }],
        ["submittal_list", { project_id: PROJECT }],
        ["checklist_list", { project_id: BIM360_PROJECT }],
        ["translate_properties", { urn }],
        ["translate_tree", { urn }],
        ["folder_search", { project_id: project, folder_id: files, name: "s" }],
        ["webhook_list", {}],
        ["admin_account_list", {}],
        ["admin_project_list", { account_id: account }],
        ["admin_project_users", { project_id: adminProject }],
        ["da_engine_list", {}],
        ["da_appbundle_list", {}],
        ["da_activity_list", {}],
      ];
      const listTools = ALL_TOOLS.filter((t) => "cursor" in t.input.shape).map((t) => t.name).sort();
      assert.deepEqual(cases.map(([n]) => n).sort(), listTools, "every list tool is paged here");
      for (const [name, args] of cases) await checkFields(c, name, args, await checkPaging(c, name, args));
    } finally {
      await serve.close();
    }
  } finally {
    await h.close();
  }
});
