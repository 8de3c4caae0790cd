/** ops/dm.ts: one page from a cursor or every page, the login choice, and top folders by type. */
import assert from "node:assert/strict";
import { dmFolderId, dmHubId, dmProjectId } from "../../src/aps/dm_ids.ts";
import { isDiazoError } from "../../src/core/errors.ts";
import { runFolderList, runHubList, runProjectList } from "../../src/families/dm/verbs.ts";
import { requestLog } from "../e2e/harness.ts";
import { withOpsDeps } from "./helpers.ts";

Deno.test("ops dm: a folder's contents page by cursor to the same items as the whole list", async () => {
  await withOpsDeps(async ({ deps }) => {
    const hub = dmHubId((await runHubList({}, deps)).items[0].id);
    const projects = await runProjectList({ hub }, deps);
    const project = dmProjectId(projects.items.find((p) => p.attributes.name === "Riverside Tower")!.id);
    const top = await runFolderList({ hub, project }, deps);
    const files = top.items.find((f) => f.attributes.name === "Project Files")!;
    const contents = await runFolderList({ project, folder: dmFolderId(files.id) }, deps);
    const sheets = dmFolderId(contents.items.find((f) => f.attributes.name === "Sheets")!.id);

    const all = await runFolderList({ project, folder: sheets }, deps);
    assert.equal(all.items.length, 450, "without a limit every page is followed");
    assert.equal(all.nextCursor, undefined);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await runFolderList({ project, folder: sheets, limit: 170, cursor }, deps);
      assert.ok(page.items.length <= 170);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.deepEqual(seen, all.items.map((r) => r.id));

    const limited = await runFolderList({ project, folder: sheets, limit: 5 }, deps);
    assert.equal(limited.items.length, 5);
    assert.ok(limited.nextCursor, "a limited list says where it goes on");
  });
});

Deno.test("ops dm: items only of the top folders is nothing, without a request; folders are all of them", async () => {
  await withOpsDeps(async ({ deps, sb }) => {
    const hub = dmHubId((await runHubList({}, deps)).items[0].id);
    const project = dmProjectId((await runProjectList({ hub, limit: 1 }, deps)).items[0].id);
    const folders = await runFolderList({ hub, project, type: "folders" }, deps);
    assert.ok(folders.items.length > 0);
    assert.ok(folders.items.every((f) => f.type === "folders"));
    const before = (await requestLog(sb.url)).length;
    const items = await runFolderList({ hub, project, type: "items" }, deps);
    assert.deepEqual(items.items, []);
    assert.equal((await requestLog(sb.url)).length, before);
    assert.equal(items.nextCursor, undefined);
  });
});

Deno.test("ops dm: auto uses the app's login when the profile has no user login; user without one fails", async () => {
  await withOpsDeps(async ({ deps }) => {
    const hubs = await runHubList({ as: "auto" }, deps);
    assert.ok(hubs.items.every((h) => h.id.startsWith("b.")), "the app sees no personal hubs");
    await assert.rejects(
      () => runHubList({ as: "user" }, deps),
      (e) => isDiazoError(e) && e.exitCode === 3,
    );
  });
});

Deno.test("ops dm: a project of an unknown hub is 'Not found' with the caller's remedy when it gives one", async () => {
  await withOpsDeps(async ({ deps }) => {
    const hub = dmHubId("b.00000000-0000-4000-8000-000000000000");
    await assert.rejects(
      () => runProjectList({ hub, hint: "Ask hub_list." }, deps),
      (e) => isDiazoError(e) && e.exitCode === 4 && e.hint === "Ask hub_list.",
    );
    await assert.rejects(
      () => runProjectList({ hub }, deps),
      (e) => isDiazoError(e) && /diazo hub list/.test(e.hint),
    );
  });
});
