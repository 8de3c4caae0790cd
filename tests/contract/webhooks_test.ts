/** Contract of webhooks/webhooks.yaml: hooks (create, list in pages, read, change, delete) and secret tokens. */

import assert from "node:assert/strict";
import { expect, runPlan, type World } from "./contract.ts";

const SCOPES = "data:read data:write";
const CALLBACK = "https://receiver.invalid/aps/callback";
const FOLDER = "urn:adsk.wipprod:fs.folder:co.contract";

Deno.test("contract: webhooks.yaml", async () => {
  await runPlan<World>({
    file: "webhooks/webhooks.yaml",
    setup: async (s) => ({
      t: await s.appToken(SCOPES),
      user: await s.userToken(SCOPES),
      system: "data",
      event: "dm.version.added",
    }),
    ops: {
      "POST /webhooks/v1/tokens": async (s, w) => {
        const op = "POST /webhooks/v1/tokens";
        const created = await expect(s, w, op, 200, {
          json: { token: "contractSecretToken0123456789abcdef" },
        });
        assert.equal(created.json.status, 200);
        await expect(s, w, op, 400, { json: { token: "another0123456789abcdef0123456789" } });
        await expect(s, w, op, 400, { json: {} });
      },
      "PUT /webhooks/v1/tokens/@me": async (s, w) => {
        await expect(s, w, "PUT /webhooks/v1/tokens/@me", 204, {
          json: { token: "changed0123456789abcdef0123456789" },
        });
      },
      "POST /webhooks/v1/systems/{system}/events/{event}/hooks": async (s, w) => {
        const op = "POST /webhooks/v1/systems/{system}/events/{event}/hooks";
        const json = { callbackUrl: CALLBACK, scope: { folder: FOLDER }, hookAttribute: { ci: true } };
        const created = await expect(s, w, op, 201, { json });
        const location = created.headers.get("location") ?? "";
        assert.match(
          location,
          new RegExp(`^${s.sb.url}/webhooks/v1/systems/data/events/dm\\.version\\.added/hooks/`),
        );
        w.hook_id = location.split("/").at(-1)!;
        await expect(s, w, op, 409, { json });
        await expect(s, w, op, 400, { json: { callbackUrl: CALLBACK, scope: { workflow: "x" } } });
        await expect(s, w, op, 400, { json: { scope: { folder: FOLDER } } });
        await expect(s, w, op, 400, { json, params: { event: "dm.version.nope" } });
        // In another region it is another hook; the US list below does not show it.
        await expect(s, w, op, 201, { json, headers: { "x-ads-region": "EMEA" } });
      },
      "POST /webhooks/v1/systems/{system}/hooks": async (s, w) => {
        const op = "POST /webhooks/v1/systems/{system}/hooks";
        const a = await expect(s, w, op, 201, {
          json: { callbackUrl: CALLBACK, scope: { workflow: "contract" } },
          params: { system: "derivative" },
        });
        assert.deepEqual(a.json.hooks.map((h: { event: string }) => h.event), [
          "extraction.finished",
          "extraction.updated",
        ]);
      },
      "GET /webhooks/v1/systems/{system}/events/{event}/hooks": async (s, w) => {
        const op = "GET /webhooks/v1/systems/{system}/events/{event}/hooks";
        const a = await expect(s, w, op, 200);
        assert.deepEqual(a.json.data.map((h: { hookId: string }) => h.hookId), [w.hook_id]);
        await expect(s, w, op, 204, { query: "?status=inactive" });
        await expect(s, w, op, 204, { params: { event: "dm.folder.added" } });
        await expect(s, w, op, 400, { query: "?status=gone" });
        await expect(s, w, op, 204, { token: w.user }); // the user's hooks: none
      },
      "GET /webhooks/v1/systems/{system}/hooks": async (s, w) => {
        const op = "GET /webhooks/v1/systems/{system}/hooks";
        assert.equal((await expect(s, w, op, 200, { params: { system: "derivative" } })).json.data.length, 2);
        await expect(s, w, op, 400, { params: { system: "nope" } });
      },
      "GET /webhooks/v1/hooks": async (s, w) => {
        const op = "GET /webhooks/v1/hooks";
        await fetch(`${s.sb.url}/_sandbox/config`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ webhook_page_size: 2 }),
        })
          .then((r) => r.body?.cancel());
        const first = await expect(s, w, op, 200);
        assert.equal(first.json.data.length, 2);
        const next = new URL(first.json.links.next);
        assert.equal(next.origin, s.sb.url);
        const second = await expect(s, w, op, 200, { query: next.search });
        assert.equal(second.json.data.length, 1);
        assert.equal(second.json.links.next, undefined);
        assert.equal((await expect(s, w, op, 200, { query: "?region=EMEA" })).json.data.length, 1);
        await expect(s, w, op, 400, { query: "?pageState=%21" });
        await expect(s, w, op, 400, { query: "?region=MARS" });
      },
      "GET /webhooks/v1/app/hooks": async (s, w) => {
        const op = "GET /webhooks/v1/app/hooks";
        const a = await expect(s, w, op, 200, { query: "?sort=asc" });
        assert.equal(a.json.data.length, 2);
        await expect(s, w, op, 403, { token: w.user });
      },
      "GET /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}": async (s, w) => {
        const op = "GET /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}";
        const a = await expect(s, w, op, 200);
        assert.deepEqual([a.json.status, a.json.scope.folder, a.json.creatorType], [
          "active",
          FOLDER,
          "Application",
        ]);
        await expect(s, w, op, 404, { params: { hook_id: "00000000-0000-0000-0000-000000000000" } });
        await expect(s, w, op, 404, { params: { event: "dm.version.deleted" } });
        await expect(s, w, op, 404, { token: w.user });
      },
      "PATCH /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}": async (s, w) => {
        const op = "PATCH /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}";
        await expect(s, w, op, 200, {
          json: { status: "inactive", token: "hookSecret0123456789abcdef0123456", hookExpiry: null },
        });
        await expect(s, w, op, 400, { json: { status: "reactivated" } });
        const got = "GET /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}";
        assert.equal((await expect(s, w, got, 200)).json.status, "inactive");
      },
      "DELETE /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}": async (s, w) => {
        const op = "DELETE /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}";
        await expect(s, w, op, 204);
        await expect(s, w, op, 404);
      },
      "DELETE /webhooks/v1/tokens/@me": async (s, w) => {
        await expect(s, w, "DELETE /webhooks/v1/tokens/@me", 204);
      },
    },
  });
});
