/**
 * The scopes of each tool, read from the scope table (aps/operation_scopes.ts): a tool declares the
 * scope each platform operation it calls asks for. A tool that sends no platform request (auth,
 * object_urn, webhook_events, webhook_test, toolset_enable) declares none. tests/aps/operation_scopes_test.ts fails
 * when a tool is missing here or spells its scopes itself.
 */
import { scopeOf } from "../aps/operation_scopes.ts";

/** An operation (`METHOD /path/{template}` of the table), or one with how many of its scopes to declare. */
export type ToolOperation = string | readonly [string, number];

/** The operations each tool calls. */
export const TOOL_OPERATIONS: Readonly<Record<string, readonly ToolOperation[]>> = {
  auth_test: [],
  auth_status: [],
  object_urn: [],
  webhook_events: [],
  webhook_test: [],
  bucket_list: ["GET /oss/v2/buckets"],
  bucket_create: ["POST /oss/v2/buckets"],
  bucket_get: ["GET /oss/v2/buckets/{bucketKey}/details"],
  bucket_delete: ["DELETE /oss/v2/buckets/{bucketKey}"],
  object_list: ["GET /oss/v2/buckets/{bucketKey}/objects"],
  // An upload declares both scopes the signed upload takes, as `object upload` does.
  object_upload: [["GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload", 2]],
  object_delete: ["DELETE /oss/v2/buckets/{bucketKey}/objects/{objectKey}"],
  object_signed_url: ["POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed"],
  hub_list: ["GET /project/v1/hubs"],
  project_list: ["GET /project/v1/hubs/{hub_id}/projects"],
  folder_list: ["GET /data/v1/projects/{project_id}/folders/{folder_id}/contents"],
  item_versions: ["GET /data/v1/projects/{project_id}/items/{item_id}/versions"],
  item_formats: ["GET /data/v1/projects/{project_id}/versions/{version_id}/downloadFormats"],
  folder_create: ["POST /data/v1/projects/{project_id}/folders"],
  item_upload: ["POST /data/v1/projects/{project_id}/items"],
  issue_list: ["GET /construction/issues/v1/projects/{projectId}/issues"],
  issue_get: ["GET /construction/issues/v1/projects/{projectId}/issues/{issueId}"],
  issue_create: ["POST /construction/issues/v1/projects/{projectId}/issues"],
  issue_update: ["PATCH /construction/issues/v1/projects/{projectId}/issues/{issueId}"],
  issue_comment_add: ["POST /construction/issues/v1/projects/{projectId}/issues/{issueId}/comments"],
  rfi_list: ["POST /construction/rfis/v3/projects/{projectId}/search:rfis"],
  asset_list: ["GET /construction/assets/v2/projects/{projectId}/assets"],
  submittal_list: ["GET /construction/submittals/v2/projects/{projectId}/items"],
  checklist_list: ["GET /bim360/checklists/v1/containers/{containerId}/instances"],
  issue_types: ["GET /construction/issues/v1/projects/{projectId}/issue-types"],
  rfi_get: ["GET /construction/rfis/v3/projects/{projectId}/rfis/{rfiId}"],
  asset_get: ["POST /construction/assets/v2/projects/{projectId}/assets:batch-get"],
  submittal_get: ["GET /construction/submittals/v2/projects/{projectId}/items/{itemId}"],
  checklist_get: ["GET /bim360/checklists/v1/containers/{containerId}/instances/{instanceId}"],
  admin_account_list: ["GET /project/v1/hubs", "GET /construction/admin/v1/accounts/{accountId}/projects"],
  admin_project_list: ["GET /construction/admin/v1/accounts/{accountId}/projects"],
  admin_project_users: ["GET /construction/admin/v1/projects/{projectId}/users"],
  admin_project_user_add: [
    "GET /construction/admin/v1/projects/{projectId}/users",
    "POST /construction/admin/v1/projects/{projectId}/users",
  ],
  webhook_list: ["GET /webhooks/v1/hooks"],
  webhook_create: ["GET /webhooks/v1/hooks", "POST /webhooks/v1/systems/{system}/events/{event}/hooks"],
  webhook_delete: [
    "GET /webhooks/v1/hooks",
    "DELETE /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}",
  ],
  item_download: [
    "GET /data/v1/projects/{project_id}/items/{item_id}/tip",
    "GET /data/v1/projects/{project_id}/versions/{version_id}",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download",
  ],
  da_engine_list: ["GET /da/{region}/v3/engines"],
  da_appbundle_list: ["GET /da/{region}/v3/appbundles"],
  da_activity_list: ["GET /da/{region}/v3/activities"],
  da_workitem_run: [
    "POST /da/{region}/v3/workitems",
    "GET /da/{region}/v3/workitems/{id}",
    "GET /oss/v2/buckets/{bucketKey}/details",
    "POST /oss/v2/buckets",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload",
    "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download",
  ],
  da_workitem_status: [
    "GET /da/{region}/v3/workitems/{id}",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download",
  ],
  reality_create: ["POST /photo-to-3d/v1/photoscene"],
  reality_upload: ["POST /photo-to-3d/v1/file"],
  reality_process: ["POST /photo-to-3d/v1/photoscene/{id}"],
  reality_status: ["GET /photo-to-3d/v1/photoscene/{id}/progress"],
  reality_result: ["GET /photo-to-3d/v1/photoscene/{id}"],
  translate_start: [
    "POST /modelderivative/v2/designdata/job",
    "GET /modelderivative/v2/designdata/{urn}/manifest",
  ],
  translate_status: ["GET /modelderivative/v2/designdata/{urn}/manifest"],
  translate_manifest: ["GET /modelderivative/v2/designdata/{urn}/manifest"],
  translate_properties: ["GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}/properties"],
  translate_tree: ["GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}"],
  folder_search: ["GET /data/v1/projects/{project_id}/folders/{folder_id}/contents"],
  toolset_enable: [],
  auth_login: [],
};

/** The scopes tool `name` declares: the table's scope of each operation it calls, each once. */
export function toolScopes(name: string): string[] {
  const ops = TOOL_OPERATIONS[name];
  if (!ops) throw new Error(`mcp/tool_scopes.ts does not map tool ${name}`);
  const scopes = ops.flatMap((op) => typeof op === "string" ? scopeOf(op) : scopeOf(op[0], op[1]).split(" "));
  return [...new Set(scopes)];
}
