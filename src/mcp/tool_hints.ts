/**
 * The hints of catalog errors in the tool server's words: where the CLI's hint names a flag or a
 * command of its own, the caller of a tool is pointed at a tool or an argument instead (README "Serve").
 */
import type { CatalogCode } from "../core/errors.ts";
import { USER_LOGIN_HOW } from "./login.ts";

/** Hints of the tool server, by catalog code; `{name}` placeholders are the error's params. */
export const TOOL_HINTS: Partial<Record<CatalogCode, string>> = {
  auth_failed:
    "Check SVC_CLIENT_ID and SVC_CLIENT_SECRET (or APS_*) of the server's environment or profile for typos, and " +
    "that the app is active; auth_test tells whether they work.",
  profile_auth_failed:
    "The app credentials of the server's profile {profile} were refused: fix them in a terminal " +
    "(`diazo config profile create {profile} --client-secret-stdin --force`); auth_test tells whether they work.",
  token_expired: `The user login expired: ${USER_LOGIN_HOW}`,
  login_lost: `The saved user login can no longer be refreshed: ${USER_LOGIN_HOW}`,
  insufficient_scope:
    "The token lacks the scope {scope}: add it to the server's profile in a terminal (`diazo auth extend-scopes`), " +
    "then call the tool again; auth_status shows the scopes.",
  cannot_create_bucket:
    "The token lacks the scope bucket:create: add it to the server's profile in a terminal " +
    "(`diazo auth extend-scopes`), then call the tool again.",
  insufficient_scope_user:
    'The user login lacks the scope {scope}: call auth_login with scopes that add it (e.g. ["data:read", "{scope}"]), ' +
    "or run `diazo auth login --scopes data:read,{scope}` in a terminal; then call the tool again.",
  three_legged_required: `This tool acts as a user: ${USER_LOGIN_HOW}`,
  missing_credentials:
    "The server has no app credentials: set SVC_CLIENT_ID and SVC_CLIENT_SECRET in its environment (or start it " +
    "with a profile that has them); auth_status tells what is missing.",
  file_not_found:
    "Relative paths are resolved against the first directory the server allows ({root}); give a path inside it, " +
    "or an absolute path inside an allowed directory.",
  bucket_not_found:
    "Check the key with bucket_list; buckets belong to the app (client id) that created them.",
  object_not_found: "List the bucket's objects with object_list.",
  translation_stalled:
    "It has probably failed: check translate_manifest, and start it again with translate_start and force: true.",
  not_translated:
    "Translate it first: translate_start, then translate_status with wait_seconds until done is true.",
  translation_failed:
    "Check that the format is supported and the file is complete; translate_manifest shows the details.",
  invalid_urn:
    "Pass the base64 urn answered by object_upload or object_urn, or a raw urn:adsk.objects:os.object:<bucket>/<key>.",
  project_not_found:
    "Data management ids carry the `b.` prefix, construction-cloud ids do not; project_list lists the projects of a hub.",
  acc_access_denied:
    "The user login needs account:read and data:read, and the user must be a member of the project: " +
    USER_LOGIN_HOW,
  nickname_required:
    "Set SVC_DA_NICKNAME (or APS_DA_NICKNAME) in the server's environment, or da_nickname in its profile.",
  engine_not_found: "da_engine_list lists the engines; use the full id, e.g. Autodesk.AutoCAD+24.",
  workitem_failed: "The report says why; da_workitem_status reads it again.",
  not_found: "Check the identifier; the list tool of the same family shows what exists.",
  rate_limited: "Wait a minute and call the tool again, with fewer calls at a time.",
  server_error: "This is usually temporary: call the tool again later.",
  timeout: "Call the tool again, with a larger timeout argument where it has one.",
  request_failed: "The server's log (started with debug) shows the request and the platform's answer.",
  bad_request: "Check the arguments against the tool's input schema.",
  interrupted: "The call was cancelled; call the tool again to continue.",
  integrity_mismatch: "The bytes differ from the platform's copy: transfer the file again.",
  photoscene_not_found: "Use the id answered by reality_create; a scene belongs to the app that created it.",
};
