/**
 * Reality Capture — Photo to 3D v1: photoscenes created, processed, polled, their
 * results located and deleted. Plain functions over an injected Http. Bodies are form-encoded; the
 * platform reports logical errors in a 200 answer as `{"Error":{"code","msg"}}`, which become typed
 * errors here (an unknown scene: "Photoscene not found").
 */
import { DiazoError, isDiazoError } from "../../core/errors.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { segment } from "../../http/path.ts";
import { DATA_READ, DATA_WRITE } from "../../aps/scope_constants.ts";

/** Base path of the service. */
export const RC_BASE = "/photo-to-3d/v1";

/** Output formats a scene may be created with. */
export const RC_FORMATS = ["rcm", "rcs", "obj", "fbx", "ortho", "report"] as const;

/** A scene's progress as the platform reports it (`progress` is a percentage in a string). */
export interface SceneProgress {
  photosceneid: string;
  progressmsg: string;
  progress: string;
}

/** A finished scene's result in one format. */
export interface SceneResult extends SceneProgress {
  scenelink?: string;
  filesize?: string;
  urn?: string;
  resultmsg?: string;
}

/** The logical error of a 200 answer, when it carries one. */
function logicalError(body: unknown): { code: string; msg: string } | undefined {
  if (!body || typeof body !== "object") return undefined;
  const e = (body as { Error?: unknown }).Error;
  if (!e || typeof e !== "object") return undefined;
  const { code, msg } = e as { code?: unknown; msg?: unknown };
  return { code: String(code ?? ""), msg: String(msg ?? "the platform reported an error") };
}

/**
 * Sends one request of the service for scene `id`: a 404 is "Photoscene not found", a 200 carrying
 * an `Error` becomes `photoscene_refused` with `hint` (exit 2: the platform refused the input).
 */
export async function rcRequest<T>(
  http: Http,
  spec: RequestSpec & { sceneId?: string; hint: string },
): Promise<T> {
  const { sceneId, hint, ...request } = spec;
  try {
    const res = await http.request<T>(request);
    const refused = logicalError(res.data);
    if (refused) {
      throw new DiazoError("photoscene_refused", {
        status: res.status,
        body: res.data,
        params: { detail: refused.msg, hint },
      });
    }
    return res.data;
  } catch (e) {
    if (isDiazoError(e) && e.status === 404 && sceneId !== undefined) {
      throw new DiazoError("photoscene_not_found", { status: 404, body: e.body, params: { id: sceneId } });
    }
    throw e;
  }
}

/** Creates a photoscene; answers its id. */
export async function createPhotoscene(
  http: Http,
  input: { name: string; formats: readonly string[]; sceneType?: "object" | "aerial" },
): Promise<string> {
  const data = await rcRequest<{ Photoscene?: { photosceneid?: string } }>(http, {
    method: "POST",
    path: `${RC_BASE}/photoscene`,
    form: {
      scenename: input.name,
      format: input.formats.join(","),
      scenetype: input.sceneType ?? "object",
    },
    scope: DATA_WRITE,
    hint: `Formats are ${RC_FORMATS.join(", ")}; a scene needs a name.`,
  });
  const id = data.Photoscene?.photosceneid;
  if (!id) {
    throw new DiazoError("request_failed", {
      body: data,
      params: { status: 200, detail: "the answer has no photosceneid" },
    });
  }
  return id;
}

/** Starts processing a scene's photos. */
export async function processPhotoscene(http: Http, id: string): Promise<void> {
  await rcRequest(http, {
    method: "POST",
    path: `${RC_BASE}/photoscene/${segment(id)}`,
    form: {},
    scope: DATA_WRITE,
    sceneId: id,
    hint:
      `A scene needs at least 3 photos: add more with \`diazo reality-capture upload ${id} <photos|dir>\`.`,
  });
}

/** A scene's progress. */
export async function getProgress(http: Http, id: string): Promise<SceneProgress> {
  const data = await rcRequest<{ Photoscene?: SceneProgress }>(http, {
    path: `${RC_BASE}/photoscene/${segment(id)}/progress`,
    scope: DATA_READ,
    sceneId: id,
    hint: `Check the scene with \`diazo reality-capture status ${id}\`.`,
  });
  return { photosceneid: id, progressmsg: "", progress: "0", ...data.Photoscene };
}

/** Where a finished scene's result in `format` can be downloaded. */
export async function getResult(http: Http, id: string, format: string): Promise<SceneResult> {
  const data = await rcRequest<{ Photoscene?: SceneResult }>(http, {
    path: `${RC_BASE}/photoscene/${segment(id)}`,
    query: { format },
    scope: DATA_READ,
    sceneId: id,
    hint:
      `Wait for it with \`diazo reality-capture status ${id} --wait\`; ask only for a format the scene was created with.`,
  });
  return { photosceneid: id, progressmsg: "", progress: "0", ...data.Photoscene };
}

/** Deletes a scene and its files. */
export async function deletePhotoscene(http: Http, id: string): Promise<void> {
  await rcRequest(http, {
    method: "DELETE",
    path: `${RC_BASE}/photoscene/${segment(id)}`,
    scope: DATA_WRITE,
    sceneId: id,
    hint: `Check the id printed by \`diazo reality-capture create\`.`,
  });
}
