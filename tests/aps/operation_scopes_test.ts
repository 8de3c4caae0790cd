/**
 * The one scope table (src/aps/operation_scopes.ts) against the official files' `security` sections,
 * and everything that must agree with it: the sandbox's enforcement (its router reads the table),
 * `auth test-scopes` (endpointScope reads it), the scopes the services' requests declare, and the
 * tool server's tool scopes. A test here fails when any of them disagrees with the table.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { endpointScope } from "../../src/aps/endpoint_scopes.ts";
import {
  OPERATION_SCOPES,
  scopeOf,
  scopesOfRequest,
  scopesOfTemplate,
} from "../../src/aps/operation_scopes.ts";
import {
  ACCOUNT_READ,
  ACCOUNT_WRITE,
  BUCKET_CREATE,
  BUCKET_DELETE,
  BUCKET_READ,
  CODE_ALL,
  DATA_CREATE,
  DATA_READ,
  DATA_READ_WRITE,
  DATA_WRITE,
  DATA_WRITE_CREATE,
  PROFILE_READ,
} from "../../src/aps/scope_constants.ts";
import { TOOL_OPERATIONS, toolScopes } from "../../src/mcp/tool_scopes.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { createRouter } from "../../src/sandbox/router.ts";
import { SERVICE_ROUTES } from "../../src/sandbox/server.ts";
import { OFFICIAL_FILES } from "../contract/gate.ts";

/**
 * Where the table departs from a file's `security`, and why: the file's spelling of a scope the
 * platform names otherwise.
 */
const CORRECTIONS: Record<string, readonly string[]> = {
  // modelderivative.yaml spells it `viewable:read`; the platform's scope is `viewables:read`.
  "GET /modelderivative/v2/designdata/{urn}/manifest": ["viewables:read"],
};

// deno-lint-ignore no-explicit-any
type Node = any;

/** Every operation of the official files with the scopes its `security` names (any scheme). */
async function fileScopes(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const file of OFFICIAL_FILES) {
    const doc: Node = parse(await Deno.readTextFile(new URL(`../../openapi/${file}`, import.meta.url)));
    for (const [path, item] of Object.entries<Node>(doc.paths)) {
      for (const method of ["get", "put", "post", "delete", "patch", "head"]) {
        if (!item[method]) continue;
        const security: Node[] = item[method].security ?? doc.security ?? [];
        const scopes = [...new Set(security.flatMap((r) => Object.values(r).flat() as string[]))];
        out.set(`${method.toUpperCase()} ${path}`, scopes);
      }
    }
  }
  return out;
}

Deno.test("scope table: every scope it gives an operation of a file is one that file's security names", async () => {
  const files = await fileScopes();
  let checked = 0;
  for (const [key, scopes] of OPERATION_SCOPES) {
    const declared = files.get(key);
    if (!declared || declared.length === 0) continue; // no file, or a file naming no scope: the documented list
    checked++;
    const allowed = [...declared, ...CORRECTIONS[key] ?? []];
    const stray = scopes.filter((s) => !allowed.includes(s));
    assert.deepEqual(stray, [], `${key}: the file names ${declared.join(", ")}`);
  }
  assert.ok(checked > 50, `only ${checked} operations checked against their file`);
});

Deno.test("scope table: the sandbox enforces the table's scopes on every protected route of an operation", () => {
  const router = createRouter(...SERVICE_ROUTES);
  let checked = 0;
  for (const route of SERVICE_ROUTES.flat()) {
    const table = scopesOfTemplate(route.method, route.pattern);
    if (route.scopes.length === 0) continue; // a public route (signed URLs, health)
    assert.ok(table, `${route.method} ${route.pattern}: a protected route of an operation the table lacks`);
    const concrete = route.pattern.replace(
      /:([A-Za-z_]+)/g,
      (_, name) => name === "region" ? "us-east" : "p1",
    )
      .replace(/\*$/, "a/b");
    const found = router.match(route.method, concrete);
    if (found?.route.handler !== route.handler) continue; // an earlier route of the same shape wins
    assert.deepEqual(found.route.scopes, table, `${route.method} ${route.pattern}`);
    checked++;
  }
  assert.ok(checked > 100, `only ${checked} routes checked`);
});

Deno.test("scope table: auth test-scopes names the table's scope", () => {
  for (const [key, scopes] of OPERATION_SCOPES) {
    const [method, template] = key.split(" ");
    const path = template.replace(/\{[^}]+\}/g, "p1").replace(/\*$/, "a/b");
    assert.deepEqual(scopesOfRequest(method, path), scopes, key);
    if (scopes.length < 10) assert.equal(endpointScope(method, path), scopes[0], key);
  }
});

Deno.test("scope constants: each is the table's scope of the operation it names (the first one, or the first two)", () => {
  const expected: [string, string][] = [
    [BUCKET_READ, scopeOf("GET /oss/v2/buckets")],
    [BUCKET_CREATE, scopeOf("POST /oss/v2/buckets")],
    [BUCKET_DELETE, scopeOf("DELETE /oss/v2/buckets/{bucketKey}")],
    [DATA_READ, scopeOf("GET /project/v1/hubs")],
    [DATA_WRITE, scopeOf("PATCH /data/v1/projects/{project_id}/items/{item_id}")],
    [DATA_CREATE, scopeOf("POST /data/v1/projects/{project_id}/folders")],
    [DATA_WRITE_CREATE, scopeOf("POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload", 2)],
    [
      DATA_READ_WRITE,
      `${scopeOf("GET /modelderivative/v2/designdata/{urn}/manifest")} ${
        scopeOf("POST /modelderivative/v2/designdata/job")
      }`,
    ],
    [CODE_ALL, scopeOf("POST /da/{region}/v3/workitems")],
    [ACCOUNT_READ, scopeOf("GET /construction/admin/v1/accounts/{accountId}/projects")],
    [ACCOUNT_WRITE, scopeOf("POST /construction/admin/v1/accounts/{accountId}/projects")],
    [PROFILE_READ, scopeOf("GET /userinfo")],
  ];
  for (const [constant, fromTable] of expected) assert.equal(constant, fromTable);
});

Deno.test("scope table: the scope every service request declares is one its operation accepts", () => {
  const uses: [string, string][] = [
    [BUCKET_READ, "GET /oss/v2/buckets"],
    [BUCKET_CREATE, "POST /oss/v2/buckets"],
    [BUCKET_DELETE, "DELETE /oss/v2/buckets/{bucketKey}"],
    [DATA_READ, "GET /project/v1/hubs"],
    [DATA_CREATE, "POST /data/v1/projects/{project_id}/folders"],
    [DATA_WRITE, "PATCH /data/v1/projects/{project_id}/items/{item_id}"],
    [DATA_WRITE_CREATE, "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload"],
    [DATA_WRITE_CREATE, "POST /construction/rfis/v3/projects/{projectId}/rfis"],
    [DATA_READ_WRITE, "POST /modelderivative/v2/designdata/job"],
    [ACCOUNT_READ, "GET /construction/admin/v1/accounts/{accountId}/projects"],
    [ACCOUNT_WRITE, "POST /construction/admin/v1/accounts/{accountId}/projects"],
    [CODE_ALL, "POST /da/{region}/v3/workitems"],
    [PROFILE_READ, "GET /userinfo"],
    [DATA_READ, "GET /photo-to-3d/v1/photoscene/{id}/progress"],
    [DATA_WRITE, "POST /photo-to-3d/v1/photoscene"],
    [DATA_READ, "GET /construction/issues/v1/projects/{projectId}/issues"],
    [DATA_WRITE, "PATCH /construction/issues/v1/projects/{projectId}/issues/{issueId}"],
    [DATA_READ, "POST /construction/rfis/v3/projects/{projectId}/search:rfis"],
    [DATA_WRITE, "PATCH /construction/rfis/v3/projects/{projectId}/rfis/{rfiId}"],
    [DATA_READ, "GET /bim360/checklists/v1/containers/{containerId}/templates"],
  ];
  for (const [declared, key] of uses) {
    const accepted = OPERATION_SCOPES.get(key);
    assert.ok(accepted, `${key} is not in the table`);
    // A request that declares two scopes (a translation started and followed) needs one of them taken.
    assert.ok(
      declared.split(" ").some((s) => accepted.includes(s)),
      `${key}: the service declares ${declared}, the table ${accepted}`,
    );
  }
});

/** Where scopes are declared: the services and the tools. */
const DECLARING = [
  "src/families",
  "src/http",
  "src/transfer",
  "src/auth/authentication.ts",
  "src/mcp/tool_scopes.ts",
];

async function* sources(path: string): AsyncGenerator<[string, string]> {
  const info = await Deno.stat(path);
  if (info.isFile) {
    yield [path, await Deno.readTextFile(path)];
    return;
  }
  for await (const e of Deno.readDir(path)) {
    if (e.isDirectory || e.name.endsWith(".ts")) yield* sources(`${path}/${e.name}`);
  }
}

Deno.test("scope table: no service or tool spells a scope itself; they read the table's constants", async () => {
  // A scope spelled as a string literal where a request or tool declares it, or a constant of one.
  const spelled = [
    /\bscopes?: \[?\s*["'`][a-z-]+:[a-z]+/,
    /\bscope \?\? ["'`][a-z-]+:/,
    /= ["'`](data|bucket|account|code|viewables|user-profile|user):[a-z]+/,
  ];
  const found: string[] = [];
  let files = 0;
  for (const root of DECLARING) {
    for await (const [path, text] of sources(root)) {
      files++;
      text.split("\n").forEach((line, i) => {
        if (spelled.some((r) => r.test(line))) found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  assert.ok(files > 30, `only ${files} files read`);
  assert.deepEqual(found, [], "scopes spelled outside src/aps/operation_scopes.ts");
  // The planted case fails: the check reads a line as the services would write it.
  assert.ok(spelled.some((r) => r.test(`    scope: "data:read",`)));
});

Deno.test("scope table: every tool declares the scopes of the operations it calls, read from the table", () => {
  for (const tool of ALL_TOOLS) {
    assert.ok(TOOL_OPERATIONS[tool.name], `${tool.name}: not mapped in src/mcp/tool_scopes.ts`);
    assert.deepEqual([...tool.scopes], toolScopes(tool.name), tool.name);
    const accepted = TOOL_OPERATIONS[tool.name].flatMap((op) => {
      const key = typeof op === "string" ? op : op[0];
      const scopes = OPERATION_SCOPES.get(key);
      assert.ok(scopes, `${tool.name}: ${key} is not in the table`);
      return scopes;
    });
    const stray = tool.scopes.filter((s) => !accepted.includes(s));
    assert.deepEqual(stray, [], `${tool.name} declares scopes its operations do not take`);
  }
  assert.deepEqual(
    Object.keys(TOOL_OPERATIONS).filter((name) => !ALL_TOOLS.some((t) => t.name === name)),
    [],
    "every mapped tool exists",
  );
});
