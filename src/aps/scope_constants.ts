/**
 * The scopes the services and tools declare, as constants. Each is what the one table
 * (operation_scopes.ts) gives the operation its comment names, and tests/aps/operation_scopes_test.ts
 * holds them equal; they live apart from the table so that a command naming its scope does not load the
 * table (about 20 KB, 1.5 million instructions of every command's start-up; ARCHITECTURE.md, "Start-up").
 */

/** Reading buckets: `GET /oss/v2/buckets`. */
export const BUCKET_READ = "bucket:read";
/** Creating a bucket: `POST /oss/v2/buckets`. */
export const BUCKET_CREATE = "bucket:create";
/** Deleting a bucket: `DELETE /oss/v2/buckets/{bucketKey}`. */
export const BUCKET_DELETE = "bucket:delete";
/** Reading data (objects, derivatives, data management, hooks, scenes, construction-cloud records): `GET /project/v1/hubs`. */
export const DATA_READ = "data:read";
/** Changing data: `PATCH /data/v1/projects/{project_id}/items/{item_id}`. */
export const DATA_WRITE = "data:write";
/** Creating data (data management folders and items, uploads): `POST /data/v1/projects/{project_id}/folders`. */
export const DATA_CREATE = "data:create";
/** Writing or creating, either (an upload, a construction-cloud record created): the first two of a signed upload's. */
export const DATA_WRITE_CREATE = "data:write data:create";
/** Reading and writing (a translation started then followed): a manifest's read and a job's write scope. */
export const DATA_READ_WRITE = "data:read data:write";
/** Design automation: `POST /da/{region}/v3/workitems`. */
export const CODE_ALL = "code:all";
/** Reading an account: `GET /construction/admin/v1/accounts/{accountId}/projects`. */
export const ACCOUNT_READ = "account:read";
/** Changing an account: `POST /construction/admin/v1/accounts/{accountId}/projects`. */
export const ACCOUNT_WRITE = "account:write";
/** The user's profile: `GET /userinfo`. */
export const PROFILE_READ = "user-profile:read";
