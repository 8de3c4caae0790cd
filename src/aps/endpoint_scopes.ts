/**
 * Which scope the platform's operations need, by method and path template, so that a
 * refusal can name the scope the endpoint needs rather than the scopes that were tried.
 */

/** One operation: method, path pattern (`{x}` is one segment) and the scope it needs. */
interface EndpointScope {
  method: string;
  path: string;
  scope: string;
}

const TABLE: readonly EndpointScope[] = [
  { method: "GET", path: "/oss/v2/buckets", scope: "bucket:read" },
  { method: "POST", path: "/oss/v2/buckets", scope: "bucket:create" },
  { method: "GET", path: "/oss/v2/buckets/{bucketKey}/details", scope: "bucket:read" },
  { method: "DELETE", path: "/oss/v2/buckets/{bucketKey}", scope: "bucket:delete" },
  { method: "GET", path: "/oss/v2/buckets/{bucketKey}/objects", scope: "data:read" },
  { method: "GET", path: "/oss/v2/buckets/{bucketKey}/objects/{objectKey}", scope: "data:read" },
  { method: "GET", path: "/oss/v2/buckets/{bucketKey}/objects/{objectKey}/details", scope: "data:read" },
  { method: "DELETE", path: "/oss/v2/buckets/{bucketKey}/objects/{objectKey}", scope: "data:write" },
  { method: "GET", path: "/modelderivative/v2/designdata/{urn}/manifest", scope: "viewables:read" },
  { method: "GET", path: "/modelderivative/v2/designdata/{urn}/metadata", scope: "viewables:read" },
  { method: "GET", path: "/modelderivative/v2/designdata/{urn}/metadata/{guid}", scope: "viewables:read" },
  {
    method: "GET",
    path: "/modelderivative/v2/designdata/{urn}/metadata/{guid}/properties",
    scope: "viewables:read",
  },
  { method: "POST", path: "/modelderivative/v2/designdata/job", scope: "data:create" },
  { method: "GET", path: "/project/v1/hubs", scope: "data:read" },
  { method: "GET", path: "/project/v1/hubs/{hubId}/projects", scope: "data:read" },
  { method: "GET", path: "/data/v1/projects/{projectId}", scope: "data:read" },
  { method: "GET", path: "/data/v1/projects/{projectId}/folders/{folderId}/contents", scope: "data:read" },
  { method: "GET", path: "/data/v1/projects/{projectId}/items/{itemId}/versions", scope: "data:read" },
  { method: "GET", path: "/data/v1/projects/{projectId}/downloads", scope: "data:read" },
  { method: "PATCH", path: "/data/v1/projects/{projectId}/items/{itemId}", scope: "data:write" },
  { method: "PATCH", path: "/data/v1/projects/{projectId}/folders/{folderId}", scope: "data:write" },
  { method: "PATCH", path: "/data/v1/projects/{projectId}/versions/{versionId}", scope: "data:write" },
  { method: "POST", path: "/data/v1/projects/{projectId}/storage", scope: "data:create" },
  { method: "POST", path: "/data/v1/projects/{projectId}/folders", scope: "data:create" },
  { method: "POST", path: "/data/v1/projects/{projectId}/items", scope: "data:create" },
  { method: "POST", path: "/data/v1/projects/{projectId}/versions", scope: "data:create" },
  { method: "GET", path: "/da/us-east/v3/engines", scope: "code:all" },
  { method: "POST", path: "/da/us-east/v3/appbundles", scope: "code:all" },
  { method: "POST", path: "/da/us-east/v3/activities", scope: "code:all" },
  { method: "POST", path: "/da/us-east/v3/workitems", scope: "code:all" },
  { method: "GET", path: "/da/us-east/v3/workitems/{id}", scope: "code:all" },
  { method: "GET", path: "/da/us-east/v3/appbundles", scope: "code:all" },
  { method: "POST", path: "/da/us-east/v3/appbundles/{id}/versions", scope: "code:all" },
  { method: "POST", path: "/da/us-east/v3/appbundles/{id}/aliases", scope: "code:all" },
  { method: "PATCH", path: "/da/us-east/v3/appbundles/{id}/aliases/{aliasId}", scope: "code:all" },
  { method: "GET", path: "/da/us-east/v3/activities", scope: "code:all" },
  { method: "POST", path: "/da/us-east/v3/activities/{id}/versions", scope: "code:all" },
  { method: "POST", path: "/da/us-east/v3/activities/{id}/aliases", scope: "code:all" },
  { method: "PATCH", path: "/da/us-east/v3/activities/{id}/aliases/{aliasId}", scope: "code:all" },
  { method: "GET", path: "/da/us-east/v3/forgeapps/me", scope: "code:all" },
  { method: "PATCH", path: "/da/us-east/v3/forgeapps/me", scope: "code:all" },
  { method: "GET", path: "/da/us-east/v3/engines/{id}", scope: "code:all" },
  { method: "GET", path: "/da/us-east/v3/health/{engine}", scope: "code:all" },
  { method: "POST", path: "/photo-to-3d/v1/photoscene", scope: "data:write" },
  { method: "POST", path: "/photo-to-3d/v1/file", scope: "data:write" },
  { method: "POST", path: "/photo-to-3d/v1/photoscene/{photosceneId}", scope: "data:write" },
  { method: "GET", path: "/photo-to-3d/v1/photoscene/{photosceneId}/progress", scope: "data:read" },
  { method: "GET", path: "/photo-to-3d/v1/photoscene/{photosceneId}", scope: "data:read" },
  { method: "DELETE", path: "/photo-to-3d/v1/photoscene/{photosceneId}", scope: "data:write" },
  { method: "GET", path: "/hq/v1/accounts/{accountId}/projects", scope: "account:read" },
  { method: "GET", path: "/hq/v1/accounts/{accountId}/users", scope: "account:read" },
  { method: "POST", path: "/hq/v1/accounts/{accountId}/projects", scope: "account:write" },
  { method: "PATCH", path: "/hq/v1/accounts/{accountId}/projects/{projectId}", scope: "account:write" },
  { method: "POST", path: "/hq/v1/accounts/{accountId}/users", scope: "account:write" },
  { method: "POST", path: "/construction/rfis/v3/projects/{projectId}/search:rfis", scope: "data:read" },
  { method: "GET", path: "/construction/rfis/v3/projects/{projectId}/rfis/{rfiId}", scope: "data:read" },
  { method: "POST", path: "/construction/rfis/v3/projects/{projectId}/rfis", scope: "data:create" },
  { method: "PATCH", path: "/construction/rfis/v3/projects/{projectId}/rfis/{rfiId}", scope: "data:write" },
  { method: "GET", path: "/construction/assets/v2/projects/{projectId}/assets", scope: "data:read" },
  {
    method: "POST",
    path: "/construction/assets/v2/projects/{projectId}/assets:batch-get",
    scope: "data:read",
  },
  {
    method: "POST",
    path: "/construction/assets/v2/projects/{projectId}/assets:batch-create",
    scope: "data:create",
  },
  {
    method: "PATCH",
    path: "/construction/assets/v2/projects/{projectId}/assets:batch-patch",
    scope: "data:write",
  },
  { method: "GET", path: "/construction/submittals/v2/projects/{projectId}/items", scope: "data:read" },
  {
    method: "GET",
    path: "/construction/submittals/v2/projects/{projectId}/items/{itemId}",
    scope: "data:read",
  },
  { method: "POST", path: "/construction/submittals/v2/projects/{projectId}/items", scope: "data:write" },
  {
    method: "PATCH",
    path: "/construction/submittals/v2/projects/{projectId}/items/{itemId}",
    scope: "data:write",
  },
  { method: "GET", path: "/bim360/checklists/v1/containers/{containerId}/instances", scope: "data:read" },
  {
    method: "GET",
    path: "/bim360/checklists/v1/containers/{containerId}/instances/{id}",
    scope: "data:read",
  },
  { method: "GET", path: "/bim360/checklists/v1/containers/{containerId}/templates", scope: "data:read" },
];

function matches(pattern: string, path: string): boolean {
  const p = pattern.split("/");
  const a = path.replace(/\/+$/, "").split("/");
  return p.length === a.length && p.every((seg, i) => (seg.startsWith("{") ? a[i] !== "" : seg === a[i]));
}

/** The scope a platform operation needs, or undefined when the table does not know the operation. */
export function endpointScope(method: string, pathWithQuery: string): string | undefined {
  const path = pathWithQuery.split("?")[0].replace(/\/{2,}/g, "/");
  return TABLE.find((e) => e.method === method.toUpperCase() && matches(e.path, path))?.scope;
}
