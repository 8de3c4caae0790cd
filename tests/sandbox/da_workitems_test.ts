/**
 * The Design Automation emulator's handlers in process: a work item through pending/inprogress to
 * its end, `workitem.completed` published on the event bus once (success and failure), the report
 * behind its signed URL, aliases and versions of activities, and health.
 */
import assert from "node:assert/strict";
import { testSigningKey } from "../e2e/test_sandbox.ts";
import { createSandboxContext, type RequestContext, type SandboxContext } from "../../src/sandbox/context.ts";
import { daRoutes } from "../../src/sandbox/da/routes.ts";
import { SandboxError } from "../../src/sandbox/errors.ts";
import type { SandboxEvent } from "../../src/sandbox/events.ts";

const BASE = "http://sandbox.test";

async function call(
  sb: SandboxContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const url = new URL(BASE + path);
  for (const route of daRoutes) {
    if (route.method !== method) continue;
    const pat = route.pattern.split("/");
    const parts = url.pathname.split("/");
    if (pat.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (
      !pat.every((p, i) =>
        p.startsWith(":") ? (params[p.slice(1)] = decodeURIComponent(parts[i])) : p === parts[i]
      )
    ) {
      continue;
    }
    const ctx: RequestContext = { sandbox: sb, url, baseUrl: BASE, params, clientId: "app_one" };
    const req = new Request(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    try {
      const res = await route.handler(req, ctx);
      const text = await res.text();
      const type = res.headers.get("content-type") ?? "";
      return { status: res.status, body: type.includes("json") && text ? JSON.parse(text) : text };
    } catch (e) {
      if (e instanceof SandboxError) return { status: e.status, body: e.fields };
      throw e;
    }
  }
  throw new Error(`no route for ${method} ${path}`);
}

Deno.test("da sandbox: work items end, publish workitem.completed once, and serve their report", async () => {
  const sb = createSandboxContext([await testSigningKey()], "");
  const events: SandboxEvent[] = [];
  let announced: () => void = () => {};
  sb.events.subscribe((e) => {
    events.push(e);
    announced();
  });
  const v3 = "/da/us-east/v3";
  const act = await call(sb, "POST", `${v3}/activities`, {
    id: "Echo",
    engine: "Autodesk.Revit+2024",
    commandLine: "echo",
    parameters: { msg: { verb: "read" } },
  });
  assert.equal(act.status, 200, JSON.stringify(act.body));
  assert.equal((act.body as { id: string }).id, "app_one.Echo");
  assert.equal(
    (await call(sb, "POST", `${v3}/activities/Echo/aliases`, { id: "prod", version: 1 })).status,
    200,
  );
  const missingAlias = await call(sb, "PATCH", `${v3}/activities/Echo/aliases/beta`, { version: 1 });
  assert.deepEqual(missingAlias, {
    status: 404,
    body: { service: "da", diagnostic: "Cannot modify alias that does not exist." },
  });
  assert.equal(
    (await call(sb, "POST", `${v3}/activities/Echo/versions`, {
      engine: "Autodesk.Revit+2024",
      commandLine: ["echo"],
      parameters: { msg: { verb: "read" } },
    })).status,
    200,
  );
  assert.deepEqual((await call(sb, "GET", `${v3}/activities/Echo/versions`)).body, {
    paginationToken: null,
    data: [1, 2],
  });

  sb.settings.jobSeconds = 0;
  for (const [value, expected] of [["hello", "success"], ["please DIAZO_FAIL", "failedInstructions"]]) {
    const ended = new Promise<void>((resolve) => (announced = resolve));
    const started = await call(sb, "POST", `${v3}/workitems`, {
      activityId: "app_one.Echo+prod",
      arguments: { msg: { value } },
    });
    const wi = started.body as { id: string; status: string };
    assert.equal(wi.status, "pending");
    await ended;
    const event = events.at(-1)!;
    assert.equal(event.system, "autodesk.da");
    assert.equal(event.event, "workitem.completed");
    assert.equal(event.clientId, "app_one");
    assert.deepEqual([event.payload.id, event.payload.status], [wi.id, expected]);
    const got = (await call(sb, "GET", `${v3}/workitems/${wi.id}`)).body as {
      status: string;
      reportUrl: string;
    };
    assert.equal(got.status, expected);
    assert.equal(events.filter((e) => e.payload.id === wi.id).length, 1, "published once");
    const report = await call(sb, "GET", new URL(got.reportUrl).pathname + new URL(got.reportUrl).search);
    assert.match(String(report.body), new RegExp(`Finished: ${expected}`));
    const forged = await call(sb, "GET", new URL(got.reportUrl).pathname + "?X-Amz-Signature=nope");
    assert.equal(forged.status, 403);
  }
  const unknown = await call(sb, "POST", `${v3}/workitems`, { activityId: "app_one.Echo", arguments: {} });
  assert.equal(unknown.status, 400);
  const badArg = await call(sb, "POST", `${v3}/workitems`, {
    activityId: "app_one.Echo+prod",
    arguments: { nope: { value: 1 } },
  });
  assert.equal(badArg.status, 400);

  assert.equal((await call(sb, "DELETE", `${v3}/forgeapps/me`)).status, 200);
  assert.deepEqual((await call(sb, "GET", `${v3}/activities`)).body, {
    paginationToken: null,
    data: ["AutoCAD.PlotToPDF+prod", "AutoCAD.PlotToPDF+test"],
  }, "deleting the app's data leaves only the shared activities");

  assert.deepEqual((await call(sb, "GET", `${v3}/health/AutoCAD`)).body, { Status: "Fully Operational" });
  assert.equal((await call(sb, "GET", `${v3}/health/maya`)).status, 404);
  assert.deepEqual(
    daRoutes.find((r) => r.pattern.endsWith("/health/:engine"))?.scopes,
    [],
    "health needs no token",
  );
});
