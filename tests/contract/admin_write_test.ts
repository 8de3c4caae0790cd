/**
 * Contract of diazo's account administration writes: every request body the `admin`/`acc`
 * commands send (read back from the sandbox's request log) validates against its schema in
 * construction/accountadmin/accountadmin.yaml and names only fields the schema declares. HQ's
 * project create and update are not in the file (the specification names them); their bodies are checked
 * against the file's HQ project schema, `ProjectPatch`, as are the sandbox's HQ project answers.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { validate } from "@hyperjump/json-schema/openapi-3-0";
import { BASIC } from "@hyperjump/json-schema/experimental";
import { parse } from "yaml";
import { seededAccountId, seededBim360AccountId } from "../../src/sandbox/admin/store.ts";
import { json, withSandboxHome } from "../e2e/harness.ts";
import { sandboxToken } from "../e2e/md_helpers.ts";
import { loginUser } from "../e2e/user_login.ts";
import { loadSpec, OPENAPI_DIR } from "./spec.ts";

const FILE = "construction/accountadmin/accountadmin.yaml";
/** Where spec.ts registers the file's schemas. */
const URI = `https://diazo.invalid/openapi/${FILE}`;

/** The schema (under components/schemas) each write's body must keep, by method and path pattern. */
const WRITES: readonly { method: string; path: RegExp; schema: string }[] = [
  {
    method: "POST",
    path: /^\/construction\/admin\/v1\/accounts\/[^/]+\/projects$/,
    schema: "ProjectPayload",
  },
  {
    method: "POST",
    path: /^\/construction\/admin\/v1\/projects\/[^/]+\/users$/,
    schema: "ProjectUserPayload",
  },
  { method: "POST", path: /^\/hq\/v1\/accounts\/[^/]+\/projects$/, schema: "ProjectPatch" },
  { method: "PATCH", path: /^\/hq\/v1\/accounts\/[^/]+\/projects\/[^/]+$/, schema: "ProjectPatch" },
  { method: "POST", path: /^\/hq\/v1\/accounts\/[^/]+\/users$/, schema: "UserPayload" },
];

type LogEntry = { method: string; path: string; status: number; body?: unknown };

// deno-lint-ignore no-explicit-any
type Node = any;

/** Fields of `body` (recursively, through objects and arrays) that `schema` does not declare. */
function undeclared(doc: Node, schema: Node, body: unknown, at = ""): string[] {
  while (schema?.$ref) schema = schema.$ref.slice(2).split("/").reduce((n: Node, k: string) => n?.[k], doc);
  if (Array.isArray(body)) return body.flatMap((v, i) => undeclared(doc, schema?.items, v, `${at}/${i}`));
  if (body === null || typeof body !== "object" || !schema?.properties) return [];
  return Object.entries(body).flatMap(([k, v]) =>
    k in schema.properties ? undeclared(doc, schema.properties[k], v, `${at}/${k}`) : [`${at}/${k}`]
  );
}

Deno.test("contract: every account-admin write body keeps accountadmin.yaml", () =>
  withSandboxHome(async (h) => {
    await loadSpec(FILE); // registers the file's schemas at URI
    const doc = parse(await Deno.readTextFile(new URL(FILE, OPENAPI_DIR)));
    const acc = seededAccountId();
    const bim = seededBim360AccountId();
    assert.equal((await loginUser(h.env, "account:read,account:write")).code, 0);
    const ok = async (args: string[]) => {
      const r = await h.run([...args, "-o", "json"]);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      return r;
    };
    const create = [
      "acc",
      "create-project",
      "--name",
      "Body Check",
      "--type",
      "Office",
      "--job-number",
      "J-1",
    ];
    await ok([...create, "--account", acc, "--start-date", "2025-01-01", "--end-date", "2025-12-31"]);
    const bimProject = json<{ id: string }>(await ok([...create, "--account", bim]));
    await ok([
      "admin",
      "project",
      "update",
      bimProject.id,
      "--account",
      bim,
      "--name",
      "Body Checked",
      "--status",
      "active",
      "--end-date",
      "2030-01-01",
    ]);
    await ok([
      "acc",
      "add-user",
      "--account",
      acc,
      "--email",
      "body@example.com",
      "--first-name",
      "B",
      "--last-name",
      "C",
      "--job-title",
      "QA",
    ]);
    await ok(["acc", "add-user", "--account", bim, "--email", "body@example.com"]);
    const project =
      json<{ id: string }[]>(await ok(["admin", "project", "list", "--account", acc, "--limit", "1"]))[0];
    await ok([
      "admin",
      "project",
      "user",
      "add",
      project.id,
      "--email",
      "body@example.com",
      "--products",
      "docs:member,build:administrator",
    ]);
    await Deno.writeTextFile(
      path.join(h.home.cwd, "u.csv"),
      "email,first_name,last_name,job_title\nc1@example.com,C,One,QA\n",
    );
    await ok(["admin", "user", "import", "--account", acc, "--from-file", "u.csv"]);

    const log: LogEntry[] = await (await fetch(`${h.sb.url}/_sandbox/requests`)).json();
    const writes = log.filter((e) => e.method === "POST" || e.method === "PATCH")
      .filter((e) => e.path.startsWith("/hq/") || e.path.startsWith("/construction/admin/"));
    const seen = new Set<string>();
    for (const e of writes) {
      const kind = WRITES.find((w) => w.method === e.method && w.path.test(e.path));
      assert.ok(kind, `${e.method} ${e.path}: a write with no schema named here`);
      seen.add(kind.schema + " " + kind.method);
      assert.ok(e.body && typeof e.body === "object", `${e.method} ${e.path}: the log has its body`);
      const out = await validate(`${URI}#/components/schemas/${kind.schema}`, e.body as never, BASIC);
      assert.ok(
        out.valid,
        `${e.method} ${e.path} ${JSON.stringify(e.body)}: ${JSON.stringify(out.valid ? [] : out.errors)}`,
      );
      const extra = undeclared(doc, doc.components.schemas[kind.schema], e.body);
      assert.deepEqual(extra, [], `${e.method} ${e.path}: fields ${kind.schema} does not declare`);
      assert.ok(e.status < 300, `${e.method} ${e.path} answered ${e.status}`);
    }
    assert.equal(seen.size, WRITES.length, `every kind of write was checked: ${[...seen].join(", ")}`);

    // HQ's project answers (not in the file either) keep the same schema.
    const t = await sandboxToken(h.sb.url, "account:read");
    const res = await fetch(`${h.sb.url}/hq/v1/accounts/${bim}/projects`, {
      headers: { authorization: `Bearer ${t}` },
    });
    const projects: unknown[] = await res.json();
    assert.equal(projects.length, 3);
    for (const p of projects) {
      const out = await validate(`${URI}#/components/schemas/ProjectPatch`, p as never, BASIC);
      assert.ok(out.valid, `${JSON.stringify(p)}: ${JSON.stringify(out.valid ? [] : out.errors)}`);
    }
  }));
