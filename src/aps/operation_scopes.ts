/**
 * The one table of the scopes each platform operation accepts (a token needs any one of them), by
 * method and path template: the official files' `security` sections (openapi/, read by
 * tests/aps/operation_scopes_test.ts, which fails when this table names a scope the file does not
 * for its operation), and the documented scopes of operations without a file (the references
 * tests/contract/undocumented.ts cites). The sandbox enforces it (sandbox/router.ts), `auth
 * test-scopes` and `api` name its scope (endpoint_scopes.ts), the services declare the constants of
 * scope_constants.ts (which the same test holds equal to it) and the tools the scopes of their
 * operations (mcp/tool_scopes.ts); the same test fails when a service or tool spells a scope of its own.
 */

import { SCOPE_NAMES } from "./scopes.ts";

/** Every scope: operations that take any valid token (`GET …/designdata/formats`). */
const ANY_TOKEN: readonly string[] = SCOPE_NAMES;
/** ACC Issues: reads data:read, writes data:write (the ACC Issues reference); the sandbox takes any data or account scope. */
const ISSUES = ["data:read", "data:write", "data:create", "account:read", "account:write"] as const;
/** The same set, its documented write scope first: the scope an issue write declares. */
const ISSUES_WRITE = ["data:write", "data:read", "data:create", "account:read", "account:write"] as const;
/** Construction-cloud records (RFIs, assets, submittals, checklists): data scopes. */
const CONSTRUCTION = ["data:read", "data:write", "data:create"] as const;

/** `METHOD /path/{template}` (the file's own spelling where a file defines it) and its scopes. */
const TABLE: readonly (readonly [string, readonly string[]])[] = [
  ["GET /userinfo", ["user-profile:read", "user:read", "openid"]],
  ["GET /oss/v2/buckets", ["bucket:read"]],
  ["POST /oss/v2/buckets", ["bucket:create"]],
  ["GET /oss/v2/buckets/{bucketKey}/details", ["bucket:read", "viewables:read"]],
  ["DELETE /oss/v2/buckets/{bucketKey}", ["bucket:delete"]],
  ["POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3upload", ["data:write", "data:create"]],
  ["POST /oss/v2/buckets/{bucketKey}/objects/batchcompleteupload", ["data:write", "data:create"]],
  ["POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3download", ["data:read"]],
  ["GET /oss/v2/buckets/{bucketKey}/objects", ["data:read"]],
  ["GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/details", ["data:read"]],
  ["DELETE /oss/v2/buckets/{bucketKey}/objects/{objectKey}", ["data:write"]],
  ["PUT /oss/v2/buckets/{bucketKey}/objects/{objectKey}/copyto/{newObjKey}", ["data:write", "data:create"]],
  ["GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload", ["data:write", "data:create"]],
  ["POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload", ["data:write", "data:create"]],
  ["GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download", ["data:read"]],
  ["POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed", ["data:write"]],
  ["GET /modelderivative/v2/designdata/formats", ANY_TOKEN],
  ["POST /modelderivative/v2/designdata/job", ["data:write", "data:create"]],
  ["POST /modelderivative/v2/designdata/{urn}/references", ["data:write", "data:create"]],
  ["GET /modelderivative/v2/designdata/{urn}/manifest", ["data:read", "viewables:read"]],
  ["DELETE /modelderivative/v2/designdata/{urn}/manifest", ["data:write"]],
  ["HEAD /modelderivative/v2/designdata/{urn}/manifest/*", ["data:read"]],
  ["GET /modelderivative/v2/designdata/{urn}/manifest/*", ["data:read"]],
  ["GET /modelderivative/v2/designdata/{urn}/thumbnail", ["data:read"]],
  ["GET /modelderivative/v2/designdata/{urn}/metadata", ["data:read"]],
  ["GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}", ["data:read"]],
  ["GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}/properties", ["data:read"]],
  ["POST /modelderivative/v2/designdata/{urn}/metadata/{guid}/properties:query", ["data:read"]],
  ["POST /modelderivative/v2/regions/eu/designdata/job", ["data:write", "data:create"]],
  ["POST /modelderivative/v2/regions/eu/designdata/{urn}/references", ["data:write", "data:create"]],
  ["GET /modelderivative/v2/regions/eu/designdata/{urn}/manifest", ["data:read", "viewables:read"]],
  ["DELETE /modelderivative/v2/regions/eu/designdata/{urn}/manifest", ["data:write"]],
  ["HEAD /modelderivative/v2/regions/eu/designdata/{urn}/manifest/*", ["data:read"]],
  ["GET /modelderivative/v2/regions/eu/designdata/{urn}/manifest/*", ["data:read"]],
  ["GET /modelderivative/v2/regions/eu/designdata/{urn}/thumbnail", ["data:read"]],
  ["GET /modelderivative/v2/regions/eu/designdata/{urn}/metadata", ["data:read"]],
  ["GET /modelderivative/v2/regions/eu/designdata/{urn}/metadata/{guid}", ["data:read"]],
  ["GET /modelderivative/v2/regions/eu/designdata/{urn}/metadata/{guid}/properties", ["data:read"]],
  ["POST /modelderivative/v2/regions/eu/designdata/{urn}/metadata/{guid}/properties:query", ["data:read"]],
  ["GET /project/v1/hubs", ["data:read"]],
  ["GET /project/v1/hubs/{hub_id}", ["data:read"]],
  ["GET /project/v1/hubs/{hub_id}/projects", ["data:read"]],
  ["GET /project/v1/hubs/{hub_id}/projects/{project_id}", ["data:read"]],
  ["GET /project/v1/hubs/{hub_id}/projects/{project_id}/hub", ["data:read"]],
  ["GET /project/v1/hubs/{hub_id}/projects/{project_id}/topFolders", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/folders/{folder_id}", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/folders/{folder_id}/parent", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/folders/{folder_id}/contents", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/items/{item_id}", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/items/{item_id}/tip", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/items/{item_id}/parent", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/items/{item_id}/versions", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/versions/{version_id}", ["data:read"]],
  ["POST /data/v1/projects/{project_id}/storage", ["data:create"]],
  ["POST /data/v1/projects/{project_id}/folders", ["data:create"]],
  ["POST /data/v1/projects/{project_id}/items", ["data:create"]],
  ["POST /data/v1/projects/{project_id}/versions", ["data:create"]],
  ["PATCH /data/v1/projects/{project_id}/folders/{folder_id}", ["data:write"]],
  ["PATCH /data/v1/projects/{project_id}/items/{item_id}", ["data:write"]],
  ["PATCH /data/v1/projects/{project_id}/versions/{version_id}", ["data:write"]],
  ["GET /data/v1/projects/{project_id}/versions/{version_id}/downloads", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/versions/{version_id}/downloadFormats", ["data:read"]],
  ["POST /data/v1/projects/{project_id}/downloads", ["data:create"]],
  ["GET /data/v1/projects/{project_id}/jobs/{job_id}", ["data:read"]],
  ["GET /data/v1/projects/{project_id}/downloads/{download_id}", ["data:read"]],
  ["POST /data/v1/projects/{project_id}/commands", ["data:read", "data:create", "data:write"]],
  ["GET /da/{region}/v3/forgeapps/me", ["code:all"]],
  ["PATCH /da/{region}/v3/forgeapps/me", ["code:all"]],
  ["DELETE /da/{region}/v3/forgeapps/me", ["code:all"]],
  ["GET /da/{region}/v3/servicelimits/me", ["code:all"]],
  ["GET /da/{region}/v3/shares", ["code:all"]],
  ["GET /da/{region}/v3/engines", ["code:all"]],
  ["GET /da/{region}/v3/engines/{id}", ["code:all"]],
  ["GET /da/{region}/v3/appbundles", ["code:all"]],
  ["GET /da/{region}/v3/activities", ["code:all"]],
  ["POST /da/{region}/v3/appbundles", ["code:all"]],
  ["GET /da/{region}/v3/appbundles/{id}", ["code:all"]],
  ["DELETE /da/{region}/v3/appbundles/{id}", ["code:all"]],
  ["GET /da/{region}/v3/appbundles/{id}/versions", ["code:all"]],
  ["POST /da/{region}/v3/appbundles/{id}/versions", ["code:all"]],
  ["GET /da/{region}/v3/appbundles/{id}/versions/{version}", ["code:all"]],
  ["DELETE /da/{region}/v3/appbundles/{id}/versions/{version}", ["code:all"]],
  ["GET /da/{region}/v3/appbundles/{id}/aliases", ["code:all"]],
  ["POST /da/{region}/v3/appbundles/{id}/aliases", ["code:all"]],
  ["GET /da/{region}/v3/appbundles/{id}/aliases/{alias}", ["code:all"]],
  ["PATCH /da/{region}/v3/appbundles/{id}/aliases/{alias}", ["code:all"]],
  ["DELETE /da/{region}/v3/appbundles/{id}/aliases/{alias}", ["code:all"]],
  ["POST /da/{region}/v3/activities", ["code:all"]],
  ["GET /da/{region}/v3/activities/{id}", ["code:all"]],
  ["DELETE /da/{region}/v3/activities/{id}", ["code:all"]],
  ["GET /da/{region}/v3/activities/{id}/versions", ["code:all"]],
  ["POST /da/{region}/v3/activities/{id}/versions", ["code:all"]],
  ["GET /da/{region}/v3/activities/{id}/versions/{version}", ["code:all"]],
  ["DELETE /da/{region}/v3/activities/{id}/versions/{version}", ["code:all"]],
  ["GET /da/{region}/v3/activities/{id}/aliases", ["code:all"]],
  ["POST /da/{region}/v3/activities/{id}/aliases", ["code:all"]],
  ["GET /da/{region}/v3/activities/{id}/aliases/{alias}", ["code:all"]],
  ["PATCH /da/{region}/v3/activities/{id}/aliases/{alias}", ["code:all"]],
  ["DELETE /da/{region}/v3/activities/{id}/aliases/{alias}", ["code:all"]],
  ["POST /da/{region}/v3/workitems", ["code:all"]],
  ["GET /da/{region}/v3/workitems/{id}", ["code:all"]],
  ["DELETE /da/{region}/v3/workitems/{id}", ["code:all"]],
  ["GET /construction/admin/v1/accounts/{accountId}/projects", ["account:read"]],
  ["POST /construction/admin/v1/accounts/{accountId}/projects", ["account:write"]],
  ["GET /construction/admin/v1/projects/{projectId}", ["account:read"]],
  ["GET /construction/admin/v1/projects/{projectId}/users", ["account:read"]],
  ["GET /hq/v1/accounts/{account_id}/users", ["account:read"]],
  ["GET /construction/admin/v1/projects/{projectId}/users/{userId}", ["account:read"]],
  ["POST /construction/admin/v2/projects/{projectId}/users:import", ["account:write"]],
  ["POST /hq/v1/accounts/{account_id}/users/import", ["account:write"]],
  ["GET /hq/v1/accounts/{account_id}/users/{user_id}", ["account:read"]],
  ["PATCH /hq/v1/accounts/{account_id}/users/{user_id}", ["account:write"]],
  ["GET /hq/v1/accounts/{accountId}/projects", ["account:read"]],
  ["POST /hq/v1/accounts/{accountId}/projects", ["account:write"]],
  ["PATCH /hq/v1/accounts/{accountId}/projects/{projectId}", ["account:write"]],
  ["POST /hq/v1/accounts/{account_id}/users", ["account:write"]],
  ["GET /hq/v1/accounts/{account_id}/companies", ["account:read"]],
  ["POST /construction/admin/v1/projects/{projectId}/users", ["account:write"]],
  ["DELETE /construction/admin/v1/projects/{projectId}/users/{userId}", ["account:write"]],
  ["GET /construction/admin/v1/accounts/{accountId}/companies", ["account:read"]],
  ["GET /construction/issues/v1/projects/{projectId}/issues", ISSUES],
  ["POST /construction/issues/v1/projects/{projectId}/issues", ISSUES_WRITE],
  ["GET /construction/issues/v1/projects/{projectId}/issues/{issueId}", ISSUES],
  ["PATCH /construction/issues/v1/projects/{projectId}/issues/{issueId}", ISSUES_WRITE],
  ["GET /construction/issues/v1/projects/{projectId}/users/me", ISSUES],
  ["GET /construction/issues/v1/projects/{projectId}/issue-types", ISSUES],
  ["GET /construction/issues/v1/projects/{projectId}/issues/{issueId}/comments", ISSUES],
  ["POST /construction/issues/v1/projects/{projectId}/issues/{issueId}/comments", ISSUES_WRITE],
  ["POST /construction/issues/v1/projects/{projectId}/attachments", ISSUES_WRITE],
  ["GET /construction/issues/v1/projects/{projectId}/attachments/{issueId}/items", ISSUES],
  [
    "DELETE /construction/issues/v1/projects/{projectId}/attachments/{issueId}/items/{attachmentId}",
    ISSUES_WRITE,
  ],
  ["GET /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}", ["data:read"]],
  ["PATCH /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}", ["data:write"]],
  ["DELETE /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}", ["data:write"]],
  ["GET /webhooks/v1/systems/{system}/events/{event}/hooks", ["data:read"]],
  ["POST /webhooks/v1/systems/{system}/events/{event}/hooks", ["data:write"]],
  ["GET /webhooks/v1/systems/{system}/hooks", ["data:read"]],
  ["POST /webhooks/v1/systems/{system}/hooks", ["data:write"]],
  ["GET /webhooks/v1/hooks", ["data:read"]],
  ["GET /webhooks/v1/app/hooks", ["data:read"]],
  ["POST /webhooks/v1/tokens", ["data:write"]],
  ["PUT /webhooks/v1/tokens/@me", ["data:write"]],
  ["DELETE /webhooks/v1/tokens/@me", ["data:write"]],
  ["POST /photo-to-3d/v1/photoscene", ["data:write"]],
  ["POST /photo-to-3d/v1/file", ["data:write"]],
  ["POST /photo-to-3d/v1/photoscene/{id}", ["data:write"]],
  ["GET /photo-to-3d/v1/photoscene/{id}/progress", ["data:read"]],
  ["GET /photo-to-3d/v1/photoscene/{id}", ["data:read"]],
  ["POST /photo-to-3d/v1/photoscene/{id}/cancel", ["data:write"]],
  ["DELETE /photo-to-3d/v1/photoscene/{id}", ["data:write"]],
  ["GET /construction/rfis/v3/projects/{projectId}/users/me", CONSTRUCTION],
  ["POST /construction/rfis/v3/projects/{projectId}/search:rfis", CONSTRUCTION],
  ["GET /construction/rfis/v3/projects/{projectId}/rfis/{rfiId}", CONSTRUCTION],
  ["POST /construction/rfis/v3/projects/{projectId}/rfis", CONSTRUCTION],
  ["PATCH /construction/rfis/v3/projects/{projectId}/rfis/{rfiId}", CONSTRUCTION],
  ["GET /construction/assets/v2/projects/{projectId}/assets", CONSTRUCTION],
  ["POST /construction/assets/v2/projects/{projectId}/assets:batch-get", CONSTRUCTION],
  ["POST /construction/assets/v2/projects/{projectId}/assets:batch-create", CONSTRUCTION],
  ["PATCH /construction/assets/v2/projects/{projectId}/assets:batch-patch", CONSTRUCTION],
  ["GET /construction/assets/v1/projects/{projectId}/categories", CONSTRUCTION],
  ["GET /construction/assets/v1/projects/{projectId}/asset-statuses", CONSTRUCTION],
  ["GET /construction/submittals/v2/projects/{projectId}/items", CONSTRUCTION],
  ["POST /construction/submittals/v2/projects/{projectId}/items", CONSTRUCTION],
  ["GET /construction/submittals/v2/projects/{projectId}/items/{itemId}", CONSTRUCTION],
  ["PATCH /construction/submittals/v2/projects/{projectId}/items/{itemId}", CONSTRUCTION],
  ["POST /construction/submittals/v2/projects/{projectId}/items/{itemAction}", CONSTRUCTION],
  ["GET /construction/submittals/v2/projects/{projectId}/packages", CONSTRUCTION],
  ["GET /construction/submittals/v2/projects/{projectId}/specs", CONSTRUCTION],
  ["GET /construction/submittals/v2/projects/{projectId}/item-types", CONSTRUCTION],
  ["GET /bim360/checklists/v1/containers/{containerId}/instances", CONSTRUCTION],
  ["POST /bim360/checklists/v1/containers/{containerId}/instances", CONSTRUCTION],
  ["GET /bim360/checklists/v1/containers/{containerId}/instances/{instanceId}", CONSTRUCTION],
  ["PATCH /bim360/checklists/v1/containers/{containerId}/instances/{instanceId}", CONSTRUCTION],
  ["GET /bim360/checklists/v1/containers/{containerId}/templates", CONSTRUCTION],
  ["GET /bim360/checklists/v1/containers/{containerId}/templates/{templateId}", CONSTRUCTION],
];

/** The operations and their scopes, keyed by `METHOD /path/{template}`. */
export const OPERATION_SCOPES: ReadonlyMap<string, readonly string[]> = new Map(TABLE);

/** A template's segments with every parameter (`{x}` or `:x`) as `{}`, to compare templates. */
function shapeOf(template: string): string {
  return template.split("/").map((seg) => seg.replace(/^\{[^}]+\}|^:[A-Za-z_]+/, "{}")).join("/");
}

/** The table by template shape, built on first use: only the sandbox's router asks, and a CLI run starts without it. */
let byShape: ReadonlyMap<string, readonly string[]> | undefined;

/** The scopes of the operation whose template is `template` (`{x}` or `:x` parameters), if the table has it. */
export function scopesOfTemplate(method: string, template: string): readonly string[] | undefined {
  byShape ??= new Map([...OPERATION_SCOPES].map(([key, scopes]) => {
    const [m, path] = key.split(" ");
    return [`${m} ${shapeOf(path)}`, scopes] as const;
  }));
  return byShape.get(`${method.toUpperCase()} ${shapeOf(template)}`);
}

/** Whether the concrete `segment` fits the template segment `pattern` (`{x}`, `{x}:verb`, a literal, `*`). */
function fitsSegment(pattern: string, segment: string): boolean {
  const m = /^\{[^}]+\}(.*)$/.exec(pattern);
  if (!m) return pattern === segment;
  return segment.length > m[1].length && segment.endsWith(m[1]);
}

/** The scopes of the operation `method path` is (a concrete path, query ignored), the most literal template first. */
export function scopesOfRequest(method: string, pathWithQuery: string): readonly string[] | undefined {
  const parts = pathWithQuery.split("?")[0].replace(/\/{2,}/g, "/").replace(/\/+$/, "").split("/");
  let best: { scopes: readonly string[]; literal: number } | undefined;
  for (const [key, scopes] of OPERATION_SCOPES) {
    const [m, template] = key.split(" ");
    if (m !== method.toUpperCase()) continue;
    const t = template.split("/");
    const rest = t.at(-1) === "*";
    const fixed = rest ? t.slice(0, -1) : t;
    if (rest ? parts.length <= fixed.length : parts.length !== fixed.length) continue;
    if (!fixed.every((seg, i) => fitsSegment(seg, parts[i]))) continue;
    const literal = fixed.filter((seg) => !seg.startsWith("{")).length;
    if (!best || literal > best.literal) best = { scopes, literal };
  }
  return best?.scopes;
}

/**
 * The scope a request of `key` (`METHOD /path/{template}`) declares: the first the table names, or
 * the first `count` of them space-separated (a request either of them lets through).
 */
export function scopeOf(key: string, count = 1): string {
  const scopes = OPERATION_SCOPES.get(key);
  if (!scopes?.length) throw new Error(`operation_scopes.ts has no scope for ${key}`);
  return scopes.slice(0, count).join(" ");
}
