/**
 * App bundles: the kind's body and answers for the shared versioned routes, and
 * the emulated package store — creating a version answers an S3 POST form (`uploadParameters`)
 * whose `endpointURL` is this sandbox's `/__da/store`; the multipart POST there stores the zip on
 * disk and attaches it to that version.
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { daError, s3Error } from "../errors.ts";
import { empty } from "../respond.ts";
import type { Route } from "../router.ts";
import { DA_ENGINES, type DaBundleVersion } from "./store.ts";
import type { VersionedKind } from "./versioned.ts";

/** Path of the emulated package store (the form's `endpointURL`). */
export const DA_STORE_PATH = "/__da/store";
/** Largest package the form's policy allows (100 MB). */
export const DA_PACKAGE_LIMIT = 104857600;

function checkEngine(engine: unknown): string {
  if (typeof engine !== "string" || !DA_ENGINES.some((e) => e.id === engine)) {
    throw daError(400, `Engine '${String(engine)}' not found: 'engine' must be an engine id`);
  }
  return engine;
}

function optionalText(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (v !== undefined && typeof v !== "string") throw daError(400, `'${field}' must be a string`);
  return v ?? "";
}

/** App bundles for the shared versioned routes. */
export const appBundleKind: VersionedKind<DaBundleVersion> = {
  segment: "appbundles",
  noun: "AppBundle",
  items: (app) => app.appBundles,
  parse(body) {
    const { engine, description: _d, settings, package: _p, ...rest } = body;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw daError(400, `Unknown field '${unknown[0]}' in the AppBundle`);
    if (settings !== undefined && (typeof settings !== "object" || settings === null)) {
      throw daError(400, "'settings' must be an object");
    }
    return {
      engine: checkEngine(engine),
      description: optionalText(body, "description"),
      ...(settings ? { settings: settings as Record<string, unknown> } : {}),
    };
  },
  view(v, ctx, at) {
    return {
      engine: v.engine,
      description: v.description,
      package: v.package ? `${ctx.baseUrl}${DA_STORE_PATH}/apps/${at.owner}/${at.name}/${at.version}` : "",
      ...(v.settings ? { settings: v.settings } : {}),
    };
  },
  created(ctx, at) {
    const key = `apps/${at.owner}/${at.name}/${at.version}`;
    ctx.sandbox.da.uploads.set(key, { clientId: ctx.clientId ?? "", name: at.name, version: at.version });
    const date = new Date(nowMs(ctx.sandbox.clock)).toISOString().replace(/[-:]|\.\d{3}/g, "");
    return {
      uploadParameters: {
        endpointURL: `${ctx.baseUrl}${DA_STORE_PATH}`,
        formData: {
          key,
          "content-type": "application/octet-stream",
          policy: btoa(
            JSON.stringify({ conditions: [{ key }, ["content-length-range", 0, DA_PACKAGE_LIMIT]] }),
          ),
          success_action_status: "200",
          success_action_redirect: "",
          "x-amz-algorithm": "AWS4-HMAC-SHA256",
          "x-amz-date": date,
          "x-amz-server-side-encryption": "AES256",
        },
      },
    };
  },
};

/** Writes a stream to `path`, hashing and counting on the way. */
async function writeCounted(stream: ReadableStream<Uint8Array>, path: string) {
  const hash = createHash("sha1");
  let size = 0;
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  await stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        hash.update(chunk);
        size += chunk.length;
        c.enqueue(chunk);
      },
    }),
  ).pipeTo(file.writable);
  return { size, sha1: hash.digest("hex") };
}

/** `POST /__da/store`: S3's form upload, fields first, the file last. */
async function uploadPackage(req: Request, ctx: RequestContext): Promise<Response> {
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    throw s3Error(
      400,
      "MalformedPOSTRequest",
      "The body of your POST request is not well-formed multipart/form-data.",
    );
  }
  const key = form.get("key");
  const file = form.get("file");
  const pending = typeof key === "string" ? ctx.sandbox.da.uploads.get(key) : undefined;
  const policy = form.get("policy");
  if (!pending || typeof policy !== "string" || !atob(policy).includes(JSON.stringify(key))) {
    throw s3Error(
      403,
      "AccessDenied",
      'Invalid according to Policy: Policy Condition failed: ["eq", "$key"]',
    );
  }
  if (!(file instanceof File)) {
    throw s3Error(400, "InvalidArgument", "POST requires exactly one file upload per request.");
  }
  if (file.size > DA_PACKAGE_LIMIT) {
    throw s3Error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size");
  }
  const bundle = ctx.sandbox.da.apps.get(pending.clientId)?.appBundles.get(pending.name);
  const version = bundle?.versions.get(pending.version);
  if (!version) throw s3Error(403, "AccessDenied", "The app bundle version no longer exists");
  const dir = join(ctx.sandbox.dataDir, "da");
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, crypto.randomUUID());
  const { size, sha1 } = await writeCounted(file.stream(), path);
  if (version.package) await Deno.remove(version.package.path).catch(() => {});
  version.package = { path, size, sha1 };
  return empty(200, { etag: `"${sha1}"` });
}

/** `GET /__da/store/apps/:owner/:name/:version`: a version's package. */
async function downloadPackage(_req: Request, ctx: RequestContext): Promise<Response> {
  const { owner, name, version } = ctx.params;
  for (const [clientId, app] of ctx.sandbox.da.apps) {
    if ((app.nickname ?? clientId) !== owner) continue;
    const pkg = app.appBundles.get(name)?.versions.get(Number(version))?.package;
    if (!pkg) break;
    const file = await Deno.open(pkg.path, { read: true });
    return new Response(file.readable, {
      status: 200,
      headers: { "content-type": "application/zip", "content-length": String(pkg.size) },
    });
  }
  throw s3Error(404, "NoSuchKey", "The specified key does not exist.");
}

/** Routes of the emulated package store (no token: the form or the URL is the permission). */
export const packageRoutes: readonly Route[] = [
  { method: "POST", pattern: DA_STORE_PATH, scopes: [], handler: uploadPackage },
  {
    method: "GET",
    pattern: `${DA_STORE_PATH}/apps/:owner/:name/:version`,
    scopes: [],
    handler: downloadPackage,
  },
];
