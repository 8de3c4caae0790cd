/**
 * Reality Capture — Photo to 3D v1, under `/photo-to-3d/v1`: create a photoscene,
 * add photos (multipart bytes streamed to disk, or public URLs), start processing, read progress,
 * get the result link, cancel, delete. Scopes: `data:write` to change, `data:read` to read.
 *
 * Logical errors answer HTTP 200 with `{"Error":{"code","msg"}}`, as the platform does; an unknown
 * scene answers 404 with the same body. The platform's numeric codes are not documented; the sandbox
 * uses its own (below). Progress runs on the sandbox clock for `job_seconds` (a setting), so tests
 * drive it through the control API. Result links point at `/__recap/...`, served without a token
 * like the platform's signed storage links.
 */

import { join } from "node:path";
import type { RequestContext } from "../context.ts";
import { nowMs } from "../clock.ts";
import { realityError } from "../errors.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import { multipartBoundary, readMultipart } from "./multipart.ts";
import {
  MAX_FILES_PER_REQUEST,
  MIN_PHOTOS,
  type Photoscene,
  RC_FORMATS,
  resultBytes,
  type ScenePhoto,
  sceneProgress,
} from "./store.ts";

const BASE = "/photo-to-3d/v1";
const WRITE = ["data:write"];
const READ = ["data:read"];

/** The sandbox's error codes (the platform's are not documented). */
const CODE = { badRequest: "1", notFound: "2", state: "3", tooFew: "4", format: "5" } as const;

/** The platform's message for a scene started with too few photos. */
export const TOO_FEW_PHOTOS =
  `Not enough images: a photoscene needs at least ${MIN_PHOTOS} images to be processed`;

/** A logical refusal: HTTP 200 with the `Error` body. */
function refuse(code: string, msg: string) {
  return realityError(200, code, msg);
}

function answer(resource: string, body: Record<string, unknown>): Response {
  return json(200, { Usage: "0.05", Resource: resource, ...body });
}

/** The scene `id` of the calling app, else 404. */
function findScene(ctx: RequestContext, id: string): Photoscene {
  const scene = ctx.sandbox.reality.scenes.get(id);
  if (!scene || scene.owner !== (ctx.clientId ?? "")) {
    throw realityError(404, CODE.notFound, `Photoscene ${id} does not exist`);
  }
  return scene;
}

async function createScene(req: Request, ctx: RequestContext): Promise<Response> {
  const { fields, files } = await readFiles(req, ctx);
  if (files.length > 0) {
    await Promise.all(files.map((f) => Deno.remove(f.path).catch(() => {})));
    throw refuse(CODE.badRequest, "Creating a photoscene takes no files: add them with POST /file");
  }
  const name = fields.get("scenename")?.trim();
  if (!name) throw refuse(CODE.badRequest, "Parameter 'scenename' is required");
  const formats = (fields.get("format") ?? "rcm").split(",").map((f) => f.trim().toLowerCase()).filter(
    Boolean,
  );
  const unknown = formats.find((f) => !(RC_FORMATS as readonly string[]).includes(f));
  if (unknown !== undefined || formats.length === 0) {
    throw refuse(CODE.format, `Invalid format '${unknown ?? ""}': use ${RC_FORMATS.join(", ")}`);
  }
  const sceneType = (fields.get("scenetype") ?? "object").toLowerCase();
  if (sceneType !== "object" && sceneType !== "aerial") {
    throw refuse(CODE.badRequest, `Invalid scenetype '${sceneType}': use object or aerial`);
  }
  // The reference: `rcs` (a point cloud) is produced for aerial scenes only.
  if (sceneType === "object" && formats.includes("rcs")) {
    throw refuse(CODE.format, "Format 'rcs' is available for aerial scenes only (scenetype=aerial)");
  }
  const id = crypto.randomUUID().replaceAll("-", "").slice(0, 24);
  ctx.sandbox.reality.scenes.set(id, {
    id,
    owner: ctx.clientId ?? "",
    name,
    formats,
    sceneType,
    photos: [],
  });
  return answer("/photoscene", { Photoscene: { photosceneid: id } });
}

/** The fields of a form body (urlencoded or multipart), file parts written to disk under the store's directory. */
async function readFiles(req: Request, ctx: RequestContext) {
  const boundary = multipartBoundary(req.headers.get("content-type"));
  if (!boundary) return { fields: new Map(new URLSearchParams(await req.text())), files: [] };
  const incoming = join(ctx.sandbox.reality.dir, "incoming");
  await Deno.mkdir(incoming, { recursive: true });
  try {
    return await readMultipart(
      req.body ?? new Blob([]).stream(),
      boundary,
      () => join(incoming, crypto.randomUUID()),
    );
  } catch (e) {
    if (e instanceof Error && !("status" in e)) {
      throw refuse(CODE.badRequest, `Malformed multipart body: ${e.message}`);
    }
    throw e;
  }
}

// long: validation of the scene, the request and every file, then storing them, in request order
async function addFiles(req: Request, ctx: RequestContext): Promise<Response> {
  const body = await readFiles(req, ctx);
  const drop = () => Promise.all(body.files.map((f) => Deno.remove(f.path).catch(() => {})));
  try {
    const id = body.fields.get("photosceneid") ?? "";
    if (!id) throw refuse(CODE.badRequest, "Parameter 'photosceneid' is required");
    const scene = findScene(ctx, id);
    const type = body.fields.get("type") ?? "image";
    if (type !== "image" && type !== "survey") {
      throw refuse(CODE.badRequest, `Invalid type '${type}': use image or survey`);
    }
    if (scene.processing) {
      throw refuse(CODE.state, `Photoscene ${id} is already processing: no files can be added`);
    }
    const urls = [...body.fields].filter(([k]) => /^file\[\d+\]$/.test(k));
    const count = urls.length + body.files.length;
    if (count === 0) throw refuse(CODE.badRequest, "No file given: send file[0..n]");
    if (count > MAX_FILES_PER_REQUEST) {
      throw refuse(
        CODE.badRequest,
        `Too many files in one request (${count}): at most ${MAX_FILES_PER_REQUEST}`,
      );
    }
    const sceneDir = join(ctx.sandbox.reality.dir, id);
    await Deno.mkdir(sceneDir, { recursive: true });
    const added: ScenePhoto[] = [];
    for (const f of body.files) {
      const fileid = crypto.randomUUID().replaceAll("-", "").slice(0, 20);
      const path = join(sceneDir, fileid);
      await Deno.rename(f.path, path);
      added.push({ fileid, filename: f.filename, filesize: f.size, path });
    }
    for (const [, url] of urls) {
      const fileid = crypto.randomUUID().replaceAll("-", "").slice(0, 20);
      added.push({ fileid, filename: url.split("/").pop() || url, filesize: 0, url });
    }
    scene.photos.push(...added);
    return answer("/file", {
      photosceneid: id,
      Files: {
        file: added.map((p) => ({
          fileid: p.fileid,
          filename: p.filename,
          filesize: String(p.filesize),
          msg: "No error",
        })),
      },
    });
  } catch (e) {
    await drop();
    throw e;
  }
}

function startProcessing(_req: Request, ctx: RequestContext): Response {
  const scene = findScene(ctx, ctx.params.id);
  if (scene.processing) throw refuse(CODE.state, `Photoscene ${scene.id} is already processing`);
  if (scene.photos.length < MIN_PHOTOS) throw refuse(CODE.tooFew, TOO_FEW_PHOTOS);
  scene.processing = {
    startedMs: nowMs(ctx.sandbox.clock),
    durationMs: Math.round(ctx.sandbox.settings.jobSeconds * 1000),
  };
  return answer(`/photoscene/${scene.id}`, { msg: "No error", Photoscene: { photosceneid: scene.id } });
}

function progressOf(scene: Photoscene, ctx: RequestContext) {
  const p = sceneProgress(scene, ctx.sandbox.clock);
  return { photosceneid: scene.id, progressmsg: p.progressmsg, progress: String(p.progress) };
}

function getProgress(_req: Request, ctx: RequestContext): Response {
  const scene = findScene(ctx, ctx.params.id);
  return answer(`/photoscene/${scene.id}/progress`, {
    photosceneid: scene.id,
    Photoscene: progressOf(scene, ctx),
  });
}

function getResult(_req: Request, ctx: RequestContext): Response {
  const scene = findScene(ctx, ctx.params.id);
  const format = (ctx.url.searchParams.get("format") ?? scene.formats[0]).toLowerCase();
  if (!scene.formats.includes(format)) {
    throw refuse(
      CODE.format,
      `Format '${format}' was not requested for this photoscene (${scene.formats.join(", ")})`,
    );
  }
  const progress = progressOf(scene, ctx);
  if (progress.progressmsg !== "DONE") {
    throw refuse(CODE.state, `Photoscene ${scene.id} is not processed yet (${progress.progress}%)`);
  }
  const name = `${encodeURIComponent(scene.name)}.${
    format === "obj" ? "obj" : format === "rcm" ? "rcm" : format
  }`;
  return answer(`/photoscene/${scene.id}`, {
    Photoscene: {
      ...progress,
      scenelink: `${ctx.baseUrl}/__recap/${scene.id}/${format}/${name}`,
      filesize: String(resultBytes(scene, format).length),
      urn: `urn:adsk.objects:os.object:recap-${scene.id}/${name}`,
      resultmsg: "Succeeded",
    },
  });
}

function cancelScene(_req: Request, ctx: RequestContext): Response {
  const scene = findScene(ctx, ctx.params.id);
  scene.cancelled = true;
  return answer(`/photoscene/${scene.id}/cancel`, { msg: "No error" });
}

async function deleteScene(_req: Request, ctx: RequestContext): Promise<Response> {
  const scene = findScene(ctx, ctx.params.id);
  ctx.sandbox.reality.scenes.delete(scene.id);
  await Deno.remove(join(ctx.sandbox.reality.dir, scene.id), { recursive: true }).catch(() => {});
  return answer(`/photoscene/${scene.id}`, { msg: "No error" });
}

/** The result file behind a scene link (no token: the link itself is the credential). */
function downloadResult(_req: Request, ctx: RequestContext): Response {
  const scene = ctx.sandbox.reality.scenes.get(ctx.params.id);
  if (
    !scene || !scene.formats.includes(ctx.params.format) ||
    sceneProgress(scene, ctx.sandbox.clock).progressmsg !== "DONE"
  ) {
    return new Response("Not found", { status: 404 });
  }
  const bytes = resultBytes(scene, ctx.params.format);
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { "content-type": "application/octet-stream", "content-length": String(bytes.length) },
  });
}

/** Routes of Reality Capture (Photo to 3D v1). */
export const realityRoutes: readonly Route[] = [
  { method: "POST", pattern: `${BASE}/photoscene`, scopes: WRITE, handler: createScene },
  { method: "POST", pattern: `${BASE}/file`, scopes: WRITE, handler: addFiles },
  { method: "POST", pattern: `${BASE}/photoscene/:id`, scopes: WRITE, handler: startProcessing },
  { method: "GET", pattern: `${BASE}/photoscene/:id/progress`, scopes: READ, handler: getProgress },
  { method: "GET", pattern: `${BASE}/photoscene/:id`, scopes: READ, handler: getResult },
  { method: "POST", pattern: `${BASE}/photoscene/:id/cancel`, scopes: WRITE, handler: cancelScene },
  { method: "DELETE", pattern: `${BASE}/photoscene/:id`, scopes: WRITE, handler: deleteScene },
  { method: "GET", pattern: "/__recap/:id/:format/:name", scopes: [], handler: downloadResult },
];
