/**
 * The one list of operations the test suite may send to the sandbox that no official file in
 * openapi/ defines: each is real, with the public page that documents it (or the recorded traffic
 * that shows it) and why it is not in a file. The contract gate (gate.ts) fails on any request
 * that neither a file nor this list knows. Paths are templates: `{x}` is one segment, a last `*`
 * any rest.
 */

/** One real operation without an official file. */
export interface UndocumentedOperation {
  method: string;
  path: string;
  /** The public source: a documentation page, a recording, a public SDK file. */
  source: string;
  reason: string;
}

const APS = "https://aps.autodesk.com/en/docs";
const DA_REF = `${APS}/design-automation/v3/reference/http/`;
const NO_FILE = "the service has no OpenAPI file in aps-sdk-openapi";

/** Design Automation v3 (regions us-east and us-west): every operation diazo and the sandbox use. */
const DA: readonly UndocumentedOperation[] = [
  ["GET", "forgeapps/me"],
  ["PATCH", "forgeapps/me"],
  ["DELETE", "forgeapps/me"],
  ["GET", "servicelimits/me"],
  ["GET", "shares"],
  ["GET", "engines"],
  ["GET", "engines/{id}"],
  ["GET", "health/{engine}"],
  ...["appbundles", "activities"].flatMap((kind) => [
    ["GET", kind],
    ["POST", kind],
    ["GET", `${kind}/{id}`],
    ["DELETE", `${kind}/{id}`],
    ["GET", `${kind}/{id}/versions`],
    ["POST", `${kind}/{id}/versions`],
    ["GET", `${kind}/{id}/versions/{version}`],
    ["DELETE", `${kind}/{id}/versions/{version}`],
    ["GET", `${kind}/{id}/aliases`],
    ["POST", `${kind}/{id}/aliases`],
    ["GET", `${kind}/{id}/aliases/{alias}`],
    ["PATCH", `${kind}/{id}/aliases/{alias}`],
    ["DELETE", `${kind}/{id}/aliases/{alias}`],
  ]),
  ["POST", "workitems"],
  ["GET", "workitems/{id}"],
  ["DELETE", "workitems/{id}"],
].map(([method, rest]) => ({
  method,
  path: `/da/{region}/v3/${rest}`,
  source: DA_REF +
    " (recorded traffic: Autodesk-Forge/forge-api-dotnet-design.automation tests/e2e/recordings)",
  reason: NO_FILE,
}));

const RC_REF = `${APS}/reality-capture/v1/reference/http/`;

/** Reality capture, photo to 3D v1. */
const REALITY: readonly UndocumentedOperation[] = [
  ["POST", "/photo-to-3d/v1/photoscene"],
  ["POST", "/photo-to-3d/v1/file"],
  ["POST", "/photo-to-3d/v1/photoscene/{id}"],
  ["GET", "/photo-to-3d/v1/photoscene/{id}/progress"],
  ["GET", "/photo-to-3d/v1/photoscene/{id}"],
  ["POST", "/photo-to-3d/v1/photoscene/{id}/cancel"],
  ["DELETE", "/photo-to-3d/v1/photoscene/{id}"],
].map(([method, path]) => ({ method, path, source: RC_REF, reason: NO_FILE }));

const ACC_REF = `${APS}/acc/v1/reference/http/`;

/** Construction cloud services without a file: RFIs, assets, submittals; BIM 360 checklists. */
const BUILD: readonly UndocumentedOperation[] = [
  ["GET", "/construction/rfis/v3/projects/{projectId}/users/me"],
  ["POST", "/construction/rfis/v3/projects/{projectId}/search:rfis"],
  ["GET", "/construction/rfis/v3/projects/{projectId}/rfis/{rfiId}"],
  ["POST", "/construction/rfis/v3/projects/{projectId}/rfis"],
  ["PATCH", "/construction/rfis/v3/projects/{projectId}/rfis/{rfiId}"],
  ["GET", "/construction/assets/v2/projects/{projectId}/assets"],
  ["POST", "/construction/assets/v2/projects/{projectId}/assets:batch-get"],
  ["POST", "/construction/assets/v2/projects/{projectId}/assets:batch-create"],
  ["PATCH", "/construction/assets/v2/projects/{projectId}/assets:batch-patch"],
  ["GET", "/construction/assets/v1/projects/{projectId}/categories"],
  ["GET", "/construction/assets/v1/projects/{projectId}/asset-statuses"],
  ["GET", "/construction/submittals/v2/projects/{projectId}/items"],
  ["POST", "/construction/submittals/v2/projects/{projectId}/items"],
  ["GET", "/construction/submittals/v2/projects/{projectId}/items/{itemId}"],
  ["PATCH", "/construction/submittals/v2/projects/{projectId}/items/{itemId}"],
  ["POST", "/construction/submittals/v2/projects/{projectId}/items/{itemId}:transition"],
  ["GET", "/construction/submittals/v2/projects/{projectId}/packages"],
  ["GET", "/construction/submittals/v2/projects/{projectId}/specs"],
  ["GET", "/construction/submittals/v2/projects/{projectId}/item-types"],
  ["GET", "/bim360/checklists/v1/containers/{containerId}/instances"],
  ["POST", "/bim360/checklists/v1/containers/{containerId}/instances"],
  ["GET", "/bim360/checklists/v1/containers/{containerId}/instances/{instanceId}"],
  ["PATCH", "/bim360/checklists/v1/containers/{containerId}/instances/{instanceId}"],
  ["GET", "/bim360/checklists/v1/containers/{containerId}/templates"],
  ["GET", "/bim360/checklists/v1/containers/{containerId}/templates/{templateId}"],
].map(([method, path]) => ({
  method,
  path,
  source: path.startsWith("/bim360/") ? `${APS}/bim360/v1/reference/http/` : ACC_REF,
  reason: NO_FILE,
}));

/** Everything else: operations of services with a file that the file leaves out. */
const OTHERS: readonly UndocumentedOperation[] = [
  ...["GET", "POST", "PATCH"].map((method) => ({
    method,
    path: method === "PATCH"
      ? "/hq/v1/accounts/{accountId}/projects/{projectId}"
      : "/hq/v1/accounts/{accountId}/projects",
    source: `${APS}/bim360/v1/reference/http/projects-${method === "PATCH" ? "project_id-PATCH" : method}/`,
    reason: "BIM 360 HQ v1 projects: accountadmin.yaml has only the project image of this API",
  })),
  {
    method: "POST",
    path: "/authentication/v2/device_authorization",
    source:
      "RFC 8628 device authorization grant; https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/",
    reason: "not in authentication.yaml; `auth login --device` uses it",
  },
  {
    method: "GET",
    path: "/authentication/v2/device",
    source: "RFC 8628 (the verification page a user opens); https://aps.autodesk.com/en/docs/oauth/v2/",
    reason: "a browser page, not an API operation",
  },
  {
    method: "GET",
    path: "/modelderivative/v2/designdata/{urn}/manifest/*",
    source: `${APS}/model-derivative/v2/reference/http/urn-manifest-derivativeUrn-GET/`,
    reason: "derivative download: modelderivative.yaml has only its HEAD and signedcookies",
  },
  {
    method: "HEAD",
    path: "/modelderivative/v2/designdata/{urn}/manifest/*",
    source: `${APS}/model-derivative/v2/reference/http/urn-manifest-derivativeUrn-HEAD/`,
    reason: "the derivative URN sent unencoded (its slashes as path separators), as many clients do; the " +
      "file's HEAD takes it as one encoded segment (tests/sandbox/derivative_download_test.ts)",
  },
  ...["GET", "HEAD", "DELETE", "POST"].map((method) => ({
    method,
    path: "/modelderivative/v2/regions/eu/*",
    source: `${APS}/model-derivative/v2/developers_guide/regions/`,
    reason: "the EU region's legacy paths of the same operations; the file names the US paths only",
  })),
];

/** Hosts other than the API that the platform hands out signed URLs to, emulated by the sandbox. */
const SIGNED_HOSTS: readonly UndocumentedOperation[] = [
  ["PUT", "/__s3/*"],
  ["GET", "/__s3/*"],
  ["GET", "/__cdn/*"],
  ["HEAD", "/__cdn/*"],
  ["GET", "/__da/*"],
  ["POST", "/__da/*"],
  ["GET", "/__recap/*"],
].map(([method, path]) => ({
  method,
  path,
  source:
    `${APS}/data/v2/reference/http/buckets-:bucketKey-objects-:objectKey-signeds3upload-GET/ (S3 and CloudFront URLs)`,
  reason: "a signed URL's host (S3, CloudFront, the DA and reality-capture stores), not an API operation",
}));

/** Every real operation without an official file. */
export const UNDOCUMENTED_OPERATIONS: readonly UndocumentedOperation[] = [
  ...DA,
  ...REALITY,
  ...BUILD,
  ...OTHERS,
  ...SIGNED_HOSTS,
];

/** Whether `path` (concrete) fits the template `template`. */
export function fitsTemplate(template: string, path: string): boolean {
  const t = template.split("/");
  const p = path.split("/");
  const rest = t.at(-1) === "*";
  const fixed = rest ? t.slice(0, -1) : t;
  if (rest ? p.length < fixed.length : p.length !== fixed.length) return false;
  return fixed.every((seg, i) => {
    const m = /^(.*)\{[^}]+\}(.*)$/.exec(seg);
    if (!m) return seg === p[i];
    return p[i].length > m[1].length + m[2].length && p[i].startsWith(m[1]) && p[i].endsWith(m[2]);
  });
}

/** The entry that covers `method path`, if any. */
export function undocumentedOperation(method: string, path: string): UndocumentedOperation | undefined {
  return UNDOCUMENTED_OPERATIONS.find((o) => o.method === method && fitsTemplate(o.path, path));
}
