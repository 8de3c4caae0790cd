import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import {
  accountProjectsRequest,
  createAccountProject,
  projectUsersRequest,
} from "../../src/families/admin/api.ts";
import { listAccountUsers } from "../../src/families/admin/api_hq.ts";
import { accId } from "../../src/aps/dm_ids.ts";
import { checkDaName, checkEngineId, describeId, parseQualifiedId } from "../../src/aps/da_ids.ts";
import type { Http, RequestSpec } from "../../src/http/http.ts";

const GUID = "c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69";

/** An Http that records requests and answers each with `answer(spec)`. */
function fakeHttp(answer: (spec: RequestSpec) => unknown): Http & { sent: RequestSpec[] } {
  const sent: RequestSpec[] = [];
  return {
    baseUrl: "http://platform.invalid",
    sent,
    request<T>(spec: RequestSpec) {
      sent.push(spec);
      return Promise.resolve({
        status: 200,
        headers: new Headers(),
        data: answer(spec) as T,
        url: "",
        attempts: 1,
      });
    },
  };
}

function usage(fn: () => unknown, hint: RegExp): void {
  assert.throws(fn, (e) => e instanceof DiazoError && e.exitCode === 2 && hint.test(e.hint));
}

Deno.test("da ids: qualified ids split into owner, name and alias; others are usage errors with an example", () => {
  assert.deepEqual(parseQualifiedId("Autodesk.AutoCAD+24"), {
    owner: "Autodesk",
    name: "AutoCAD",
    alias: "24",
  });
  assert.deepEqual(parseQualifiedId("my-client.MyApp+$LATEST"), {
    owner: "my-client",
    name: "MyApp",
    alias: "$LATEST",
  });
  for (const bad of ["AutoCAD", "Autodesk.AutoCAD", "Autodesk+24", "a.b.c+1", "Autodesk.Auto CAD+24"]) {
    assert.equal(parseQualifiedId(bad), undefined, bad);
  }
  assert.deepEqual(describeId("not qualified"), { id: "not qualified" });
  assert.equal(checkEngineId("Autodesk.Revit+2024"), "Autodesk.Revit+2024");
  usage(() => checkEngineId("Revit 2024"), /Autodesk\.AutoCAD\+24.*diazo da engine list/);
  assert.equal(checkDaName("app bundle name", "Extract_1"), "Extract_1");
  usage(() => checkDaName("app bundle name", "my-app.v2"), /e\.g\. my_app_v2/);
  usage(() => checkDaName("nickname", "x".repeat(65)), /1-64/);
});

Deno.test("admin requests: b. ids are stripped at the edge, filters become filter[...] parameters, scopes are set", () => {
  const list = accountProjectsRequest(accId(`b.${GUID}`), { status: ["active", "pending"], name: "River" });
  assert.equal(list.path, `/construction/admin/v1/accounts/${GUID}/projects`);
  assert.equal(list.scope, "account:read");
  assert.equal(list.query?.["filter[status]"], "active,pending");
  assert.equal(list.query?.["filter[name]"], "River");
  assert.equal(list.query?.["filter[classification]"], undefined);
  assert.equal(projectUsersRequest(accId(GUID)).path, `/construction/admin/v1/projects/${GUID}/users`);
  usage(() => accId("b.not-a-guid"), /GUID/);
  usage(() => accId("a.YnVzaW5lc3M6ZGlhem8"), /GUID/);
});

Deno.test("admin create: posts the payload with a template as {projectId} and account:write", async () => {
  const http = fakeHttp(() => ({ id: "p1", name: "N", type: "Office", status: "pending" }));
  const p = await createAccountProject(http, accId(`b.${GUID}`), {
    name: "N",
    type: "Office",
    templateId: accId(`b.${GUID}`),
  });
  assert.equal(p.status, "pending");
  const sent = http.sent[0];
  assert.equal(sent.method, "POST");
  assert.equal(sent.scope, "account:write");
  assert.deepEqual(sent.json, { name: "N", type: "Office", template: { projectId: GUID } });
});

Deno.test("admin users: HQ pages by offset until a short page; --limit stops without another request", async () => {
  const users = Array.from({ length: 230 }, (_, i) => ({ id: `u${i}`, email: `u${i}@x.invalid` }));
  const http = fakeHttp((spec) => {
    const offset = Number(spec.query?.offset);
    return users.slice(offset, offset + Number(spec.query?.limit));
  });
  const all = [];
  for await (const u of listAccountUsers(http, accId(GUID))) all.push(u.id);
  assert.deepEqual(all, users.map((u) => u.id));
  assert.deepEqual(http.sent.map((s) => s.query?.offset), [0, 100, 200]);
  assert.ok(http.sent.every((s) => s.path === `/hq/v1/accounts/${GUID}/users` && s.scope === "account:read"));

  http.sent.length = 0;
  const some = [];
  for await (const u of listAccountUsers(http, accId(GUID), { limit: 100 })) some.push(u.id);
  assert.equal(some.length, 100);
  assert.equal(http.sent.length, 1, "the limit is reached on the first page");

  const exact = fakeHttp((spec) => Number(spec.query?.offset) === 0 ? users.slice(0, 100) : []);
  const counted = [];
  for await (const u of listAccountUsers(exact, accId(GUID))) counted.push(u);
  assert.equal(counted.length, 100);
  assert.equal(exact.sent.length, 2, "a full last page needs one more (empty) page to end");
});
