/**
 * Handlers of manifests and derivative files: fetch and delete a manifest, check a derivative,
 * hand out its signed-cookie download URL, serve that URL (the emulated CDN), the legacy direct
 * download, and the design's thumbnail.
 */

import type { RequestContext } from "../context.ts";
import { derivativeError, renderError, SandboxError } from "../errors.ts";
import { nowMs } from "../clock.ts";
import { checkCookies, signedCookies } from "./cookies.ts";
import { fileResponse } from "./download.ts";
import { announceIfDone } from "./announce.ts";
import { accepted, findManifest, mdHeaders, mdJson, requireScope } from "./http.ts";
import { derivativeState, manifestState } from "./jobs.ts";
import { hasThumbnail, manifestBody } from "./manifest.ts";
import type { OutputFile, Translation } from "./store.ts";
import { renderThumbnail, THUMBNAIL_SIZES } from "./thumbnail.ts";
import { discardManifest } from "./translate.ts";

/** Path prefix of the emulated CDN serving derivative downloads. */
export const CDN_PREFIX = "/__cdn/derivatives";

const MAX_COOKIE_MINUTES = 360;

/** `GET .../{urn}/manifest`. */
export function getManifest(req: Request, ctx: RequestContext): Response {
  const tr = findManifest(req, ctx);
  announceIfDone(ctx.sandbox, tr);
  return mdJson(200, manifestBody(tr, nowMs(ctx.sandbox.clock)));
}

/** `DELETE .../{urn}/manifest`: idempotent, needs data:write and data:read. */
export function deleteManifest(req: Request, ctx: RequestContext): Response {
  requireScope(ctx, "data:read");
  try {
    discardManifest(ctx.sandbox, findManifest(req, ctx));
  } catch (e) {
    // Deleting a manifest that is not there succeeds: the call is idempotent.
    if (!(e instanceof SandboxError && e.status === 404)) throw e;
  }
  return mdJson(200, { result: "success" });
}

/** The file named by a derivative URN, or "pending" while it is being made (answered 202); throws 404. */
function findDerivativeFile(tr: Translation, derivativeUrn: string, now: number): OutputFile | "pending" {
  for (const job of tr.derivatives) {
    const state = derivativeState(job, now);
    if (job.outcome?.ok) {
      const file = job.outcome.files.find((f) => f.urn === derivativeUrn);
      if (file) return state.status === "success" ? file : "pending";
    } else if (state.status === "pending" || state.status === "inprogress") {
      // Its files are not known yet; a URN in this design's output space may still appear.
      if (derivativeUrn.startsWith(`urn:adsk.viewing:fs.file:${tr.urn}/output/`)) return "pending";
    }
  }
  throw derivativeError(404, `No derivative '${derivativeUrn}' in the manifest`);
}

function derivativeFrom(req: Request, ctx: RequestContext, derivativeUrn: string): OutputFile | "pending" {
  const tr = findManifest(req, ctx);
  return findDerivativeFile(tr, derivativeUrn, nowMs(ctx.sandbox.clock));
}

/** `HEAD .../{urn}/manifest/{derivativeUrn}`: size and type, 202 while the derivative is being made. */
export async function headDerivative(req: Request, ctx: RequestContext): Promise<Response> {
  let file: OutputFile | "pending";
  try {
    file = derivativeFrom(req, ctx, ctx.params["*"]);
  } catch (e) {
    if (!(e instanceof SandboxError)) throw e;
    const refusal = renderError(e); // a HEAD answer carries the refusal's status and headers only
    return new Response(null, { status: refusal.status, headers: refusal.headers });
  }
  if (file === "pending") {
    const res = accepted();
    return new Response(null, { status: res.status, headers: res.headers });
  }
  return await fileResponse(file, req, mdHeaders(), true);
}

/**
 * `GET .../{urn}/manifest/{derivativeUrn}/signedcookies` (download URL and cookies), and the legacy
 * `GET .../{urn}/manifest/{derivativeUrn}` (the file itself).
 */
export async function getDerivative(req: Request, ctx: RequestContext): Promise<Response> {
  const rest = ctx.params["*"];
  const suffix = "/signedcookies";
  if (!rest.endsWith(suffix)) {
    const file = derivativeFrom(req, ctx, rest);
    return file === "pending" ? accepted() : await fileResponse(file, req, mdHeaders());
  }
  const q = ctx.url.searchParams;
  const minutesText = q.get("minutes-expiration");
  const minutes = minutesText === null ? MAX_COOKIE_MINUTES : Number(minutesText);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_COOKIE_MINUTES) {
    throw derivativeError(400, `'minutes-expiration' must be an integer from 1 to ${MAX_COOKIE_MINUTES}`);
  }
  const disposition = q.get("response-content-disposition");
  if (disposition !== null && !disposition.startsWith("attachment")) {
    throw derivativeError(400, "'response-content-disposition' must begin with 'attachment'");
  }
  const file = derivativeFrom(req, ctx, rest.slice(0, -suffix.length));
  if (file === "pending") return accepted();
  const path = `${CDN_PREFIX}/${file.id}`;
  const url = `${ctx.baseUrl}${path}` +
    (disposition === null ? "" : `?response-content-disposition=${encodeURIComponent(disposition)}`);
  const expiration = nowMs(ctx.sandbox.clock) + minutes * 60_000;
  const headers = new Headers(mdHeaders({ "content-type": "application/json; charset=utf-8" }));
  for (const cookie of signedCookies(ctx.sandbox.derivative, url, expiration, CDN_PREFIX)) {
    headers.append("set-cookie", cookie);
  }
  const body = { etag: file.etag, size: file.size, url, "content-type": file.mime, expiration };
  return new Response(JSON.stringify(body), { status: 200, headers });
}

function cdnError(status: number, code: string, message: string): SandboxError {
  return new SandboxError(status, { service: "cdn", code, message });
}

/** `GET|HEAD /__cdn/derivatives/{id}`: the download URL, open only with valid signed cookies. */
export async function cdnDownload(req: Request, ctx: RequestContext): Promise<Response> {
  const store = ctx.sandbox.derivative;
  const check = checkCookies(store, req.headers.get("cookie"), ctx.url.pathname, nowMs(ctx.sandbox.clock));
  if (check === "missing") {
    throw cdnError(403, "MissingKey", "Missing Key-Pair-Id query parameter or cookie value");
  }
  if (check !== "ok") throw cdnError(403, "AccessDenied", "Access denied");
  const file = store.files.get(ctx.params.id);
  if (!file) throw cdnError(404, "NoSuchKey", "The specified key does not exist.");
  const disposition = ctx.url.searchParams.get("response-content-disposition");
  const extra: Record<string, string> = disposition ? { "content-disposition": disposition } : {};
  return await fileResponse(file, req, extra, req.method === "HEAD");
}

/** `GET .../{urn}/thumbnail?width=&height=`: a PNG once a derivative with a thumbnail is done. */
export function getThumbnail(req: Request, ctx: RequestContext): Response {
  const tr = findManifest(req, ctx);
  const q = ctx.url.searchParams;
  const sizes = THUMBNAIL_SIZES as readonly number[];
  const width = q.get("width"), height = q.get("height");
  for (const [name, value] of [["width", width], ["height", height]]) {
    if (value !== null && !sizes.includes(Number(value))) {
      throw derivativeError(400, `'${name}' must be one of ${sizes.join(", ")}`);
    }
  }
  const now = nowMs(ctx.sandbox.clock);
  const ready = tr.derivatives.some((d) => derivativeState(d, now).status === "success" && hasThumbnail(d));
  if (!ready || tr.parse.state !== "done") {
    throw derivativeError(404, "No thumbnail is available for this design yet");
  }
  const w = Number(width ?? height ?? 200), h = Number(height ?? width ?? 200);
  const size = Math.max(w, h);
  const png = renderThumbnail(tr.parse.model, size);
  return new Response(png, {
    status: 200,
    headers: mdHeaders({
      "content-type": "image/png",
      "content-length": String(png.length),
      "x-ads-name": `thumbnail-${size}`,
      "x-ads-size": `[${size},${size}]`,
      "x-ads-role": "rendered",
      "x-ads-job-status": manifestState(tr, now).status,
    }),
  });
}
