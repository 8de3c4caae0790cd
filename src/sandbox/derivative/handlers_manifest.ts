/**
 * Handlers of manifests and derivative files: fetch and delete a manifest, check a derivative,
 * hand out its signed-cookie download URL, serve that URL (the emulated CDN), the legacy direct
 * download, and the design's thumbnail.
 */

import type { RequestContext } from "../context.ts";
import { nowMs } from "../state.ts";
import { checkCookies, signedCookies } from "./cookies.ts";
import { fileResponse } from "./download.ts";
import { accepted, diagnostic, findManifest, mdHeaders, mdJson, needsScope } from "./http.ts";
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
  return tr instanceof Response ? tr : mdJson(200, manifestBody(tr, nowMs(ctx.sandbox.state)));
}

/** `DELETE .../{urn}/manifest`: idempotent, needs data:write and data:read. */
export function deleteManifest(req: Request, ctx: RequestContext): Response {
  const denied = needsScope(ctx, "data:read");
  if (denied) return denied;
  const tr = findManifest(req, ctx);
  if (!(tr instanceof Response)) discardManifest(ctx.sandbox, tr);
  else if (tr.status !== 404) return tr;
  return mdJson(200, { result: "success" });
}

/** The file named by a derivative URN: found, not ready yet (202), or unknown (404). */
function findDerivativeFile(tr: Translation, derivativeUrn: string, now: number): OutputFile | Response {
  for (const job of tr.derivatives) {
    const state = derivativeState(job, now);
    if (job.outcome?.ok) {
      const file = job.outcome.files.find((f) => f.urn === derivativeUrn);
      if (file) return state.status === "success" ? file : accepted();
    } else if (state.status === "pending" || state.status === "inprogress") {
      // Its files are not known yet; a URN in this design's output space may still appear.
      if (derivativeUrn.startsWith(`urn:adsk.viewing:fs.file:${tr.urn}/output/`)) return accepted();
    }
  }
  return diagnostic(404, `No derivative '${derivativeUrn}' in the manifest`);
}

function derivativeFrom(req: Request, ctx: RequestContext, derivativeUrn: string): OutputFile | Response {
  const tr = findManifest(req, ctx);
  if (tr instanceof Response) return tr;
  return findDerivativeFile(tr, derivativeUrn, nowMs(ctx.sandbox.state));
}

/** `HEAD .../{urn}/manifest/{derivativeUrn}`: size and type, 202 while the derivative is being made. */
export async function headDerivative(req: Request, ctx: RequestContext): Promise<Response> {
  const file = derivativeFrom(req, ctx, ctx.params["*"]);
  if (file instanceof Response) return new Response(null, { status: file.status, headers: file.headers });
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
    return file instanceof Response ? file : await fileResponse(file, req, mdHeaders());
  }
  const q = ctx.url.searchParams;
  const minutesText = q.get("minutes-expiration");
  const minutes = minutesText === null ? MAX_COOKIE_MINUTES : Number(minutesText);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_COOKIE_MINUTES) {
    return diagnostic(400, `'minutes-expiration' must be an integer from 1 to ${MAX_COOKIE_MINUTES}`);
  }
  const disposition = q.get("response-content-disposition");
  if (disposition !== null && !disposition.startsWith("attachment")) {
    return diagnostic(400, "'response-content-disposition' must begin with 'attachment'");
  }
  const file = derivativeFrom(req, ctx, rest.slice(0, -suffix.length));
  if (file instanceof Response) return file;
  const path = `${CDN_PREFIX}/${file.id}`;
  const url = `${ctx.baseUrl}${path}` +
    (disposition === null ? "" : `?response-content-disposition=${encodeURIComponent(disposition)}`);
  const expiration = nowMs(ctx.sandbox.state) + minutes * 60_000;
  const headers = new Headers(mdHeaders({ "content-type": "application/json; charset=utf-8" }));
  for (const cookie of signedCookies(ctx.sandbox.state.derivatives, url, expiration, CDN_PREFIX)) {
    headers.append("set-cookie", cookie);
  }
  const body = { etag: file.etag, size: file.size, url, "content-type": file.mime, expiration };
  return new Response(JSON.stringify(body), { status: 200, headers });
}

function cdnError(status: number, code: string, message: string): Response {
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  return new Response(xml, { status, headers: { "content-type": "text/xml" } });
}

/** `GET|HEAD /__cdn/derivatives/{id}`: the download URL, open only with valid signed cookies. */
export async function cdnDownload(req: Request, ctx: RequestContext): Promise<Response> {
  const store = ctx.sandbox.state.derivatives;
  const check = checkCookies(store, req.headers.get("cookie"), ctx.url.pathname, nowMs(ctx.sandbox.state));
  if (check === "missing") {
    return cdnError(403, "MissingKey", "Missing Key-Pair-Id query parameter or cookie value");
  }
  if (check !== "ok") return cdnError(403, "AccessDenied", "Access denied");
  const file = store.files.get(ctx.params.id);
  if (!file) return cdnError(404, "NoSuchKey", "The specified key does not exist.");
  const disposition = ctx.url.searchParams.get("response-content-disposition");
  const extra: Record<string, string> = disposition ? { "content-disposition": disposition } : {};
  return await fileResponse(file, req, extra, req.method === "HEAD");
}

/** `GET .../{urn}/thumbnail?width=&height=`: a PNG once a derivative with a thumbnail is done. */
export function getThumbnail(req: Request, ctx: RequestContext): Response {
  const tr = findManifest(req, ctx);
  if (tr instanceof Response) return tr;
  const q = ctx.url.searchParams;
  const sizes = THUMBNAIL_SIZES as readonly number[];
  const width = q.get("width"), height = q.get("height");
  for (const [name, value] of [["width", width], ["height", height]]) {
    if (value !== null && !sizes.includes(Number(value))) {
      return diagnostic(400, `'${name}' must be one of ${sizes.join(", ")}`);
    }
  }
  const now = nowMs(ctx.sandbox.state);
  const ready = tr.derivatives.some((d) => derivativeState(d, now).status === "success" && hasThumbnail(d));
  if (!ready || tr.parse.state !== "done") {
    return diagnostic(404, "No thumbnail is available for this design yet");
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
