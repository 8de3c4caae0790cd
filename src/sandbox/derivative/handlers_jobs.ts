/**
 * Handlers of translation jobs: create a job (`POST .../designdata/job`), record referenced files
 * (`POST .../{urn}/references`) and list the supported formats.
 */

import type { RequestContext } from "../context.ts";
import { derivativeError } from "../errors.ts";
import { findObject } from "../oss/object_store.ts";
import { empty, readJson } from "../respond.ts";
import { FORMATS_LAST_MODIFIED, isOutputType, OUTPUT_TYPES, SUPPORTED_FORMATS } from "./formats.ts";
import { DATA_CENTRES } from "../../aps/regions.ts";
import { headerFlag, mdHeaders, mdJson, requestRegion, requireScope } from "./http.ts";
import { type RequestedFormat, submitJob } from "./translate.ts";
import { decodeSourceUrn, manifestKey } from "./urn.ts";

const WORKFLOW = /^[A-Za-z0-9-]{1,36}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads `output.formats`, or says what is wrong. */
function parseFormats(output: unknown): RequestedFormat[] | string {
  if (!isObject(output) || !Array.isArray(output.formats) || output.formats.length === 0) {
    return "'output.formats' must be a non-empty array";
  }
  const formats: RequestedFormat[] = [];
  for (const f of output.formats) {
    if (!isObject(f) || !isOutputType(f.type)) {
      const type = isObject(f) ? JSON.stringify(f.type) : JSON.stringify(f);
      return `Invalid output type ${type}: must be one of ${OUTPUT_TYPES.join(", ")}`;
    }
    if (f.views !== undefined && (!Array.isArray(f.views) || f.views.some((v) => v !== "2d" && v !== "3d"))) {
      return "'views' must be a list of '2d' and '3d'";
    }
    if (f.advanced !== undefined && !isObject(f.advanced)) return "'advanced' must be an object";
    formats.push({
      type: f.type,
      ...(f.views ? { views: f.views as string[] } : {}),
      ...(f.advanced ? { advanced: f.advanced as Json } : {}),
    });
  }
  return formats;
}

/** `POST /modelderivative/v2/designdata/job`: needs data:read and data:write or data:create. */
export async function startJob(req: Request, ctx: RequestContext): Promise<Response> {
  requireScope(ctx, "data:read");
  const body = await readJson(req);
  if (!isObject(body) || !isObject(body.input) || typeof body.input.urn !== "string") {
    throw derivativeError(
      400,
      "The request body must be a JSON object with 'input.urn' and 'output.formats'",
    );
  }
  const { input, output, misc } = body;
  const formats = parseFormats(output);
  if (typeof formats === "string") throw derivativeError(400, formats);
  const source = decodeSourceUrn(input.urn as string);
  if (!source) {
    throw derivativeError(
      400,
      `Invalid 'input.urn': not the URL-safe base64 of an object id (urn:adsk.objects:os.object:<bucket>/<key>)`,
    );
  }
  const compressed = input.compressedUrn === true;
  if (compressed && (typeof input.rootFilename !== "string" || input.rootFilename === "")) {
    throw derivativeError(400, "'input.rootFilename' is required when 'input.compressedUrn' is true");
  }
  const workflow = isObject(misc) ? misc.workflow : undefined;
  if (workflow !== undefined && (typeof workflow !== "string" || !WORKFLOW.test(workflow))) {
    throw derivativeError(400, "'misc.workflow' must be at most 36 letters, digits and hyphens");
  }
  let region = requestRegion(req, ctx);
  const legacyRegion = isObject(output) && isObject(output.destination)
    ? output.destination.region
    : undefined;
  if (region === undefined && typeof legacyRegion === "string") {
    region = legacyRegion.toUpperCase();
    if (!(DATA_CENTRES as readonly string[]).includes(region)) {
      throw derivativeError(400, `Invalid 'output.destination.region' '${legacyRegion}'`);
    }
  }

  const sb = ctx.sandbox;
  const bucket = sb.oss.buckets.get(source.bucketKey);
  const object = bucket ? findObject(sb.oss, source.bucketKey, source.objectKey) : undefined;
  if (!bucket || !object) throw derivativeError(404, `The source design '${source.objectId}' does not exist`);
  const caller = ctx.clientId ?? "";
  if (bucket.bucketOwner !== caller && !bucket.permissions.some((p) => p.authId === caller)) {
    throw derivativeError(403, `The application has no access to the bucket of '${source.objectId}'`);
  }
  const fileName = compressed ? input.rootFilename as string : source.objectKey.replace(/^.*\//, "");
  const outcome = submitJob(sb, {
    urn: source.urn,
    object,
    fileName,
    compressed,
    region: region ?? DATA_CENTRES[0],
    formats,
    force: headerFlag(req, "x-ads-force"),
    ...(typeof workflow === "string" ? { workflow } : {}),
  });
  return mdJson(outcome === "created" ? 201 : 200, {
    result: outcome === "created" ? "created" : "success",
    urn: source.urn,
    acceptedJobs: { output },
  });
}

/** `POST .../designdata/{urn}/references`: records the files a composite design refers to. */
export async function specifyReferences(req: Request, ctx: RequestContext): Promise<Response> {
  requireScope(ctx, "data:read");
  const body = await readJson(req);
  if (!isObject(body) || !Array.isArray(body.references) || body.references.length === 0) {
    throw derivativeError(400, "'references' must be a non-empty array");
  }
  for (const r of body.references) {
    if (!isObject(r) || typeof r.urn !== "string" || r.urn === "") {
      throw derivativeError(400, "every reference needs a 'urn'");
    }
  }
  const key = manifestKey(ctx.params.urn);
  ctx.sandbox.derivative.references.set(key, body);
  return mdJson(200, { result: "success", urn: key });
}

/** `GET /modelderivative/v2/designdata/formats`, answering 304 to an `If-Modified-Since` not older than the table. */
export function listFormats(req: Request, _ctx: RequestContext): Response {
  const lastModified = new Date(FORMATS_LAST_MODIFIED).toUTCString();
  const since = Date.parse(req.headers.get("if-modified-since") ?? "");
  if (Number.isFinite(since) && since >= FORMATS_LAST_MODIFIED) {
    return empty(304, mdHeaders({ "last-modified": lastModified }));
  }
  return mdJson(200, { formats: SUPPORTED_FORMATS }, { "last-modified": lastModified });
}
