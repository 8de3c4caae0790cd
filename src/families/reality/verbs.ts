/**
 * The reality-capture verbs (`diazo reality-capture ...`): photoscenes created, photos uploaded
 * (streamed, in parallel, resumable), processed, waited for, their result downloaded, deleted — as
 * the app (2-legged, data:read/data:write). Scene ids arrive checked; results are returned.
 */
import path from "node:path";
import { DiazoError, usageError } from "../../core/errors.ts";
import { fetchToFile } from "../../transfer/download.ts";
import {
  createPhotoscene,
  deletePhotoscene,
  getProgress,
  getResult,
  processPhotoscene,
  RC_FORMATS,
  type SceneProgress,
} from "./api.ts";
import { forgetSceneRecord, type Photo, type PhotoOutcome, uploadPhotos } from "./upload.ts";
import { expandInputs } from "../../transfer/upload_batch.ts";
import type { OpsDeps } from "../../session/deps.ts";

export { RC_FORMATS };
export { checkFormats, checkSceneId } from "./checks.ts";
export type { PhotoOutcome, SceneProgress };

/** Formats the platform makes of aerial scenes only. */
const AERIAL_FORMATS: readonly string[] = ["rcs", "ortho", "report"];

/** A created photoscene. */
export interface SceneCreated {
  photosceneid: string;
  name: string;
  formats: string[];
  scenetype: string;
}

/** `reality-capture create`: a new photoscene for the given output formats. */
export async function runRealityCreate(
  opts: { name: string; formats: string[]; sceneType?: "object" | "aerial" },
  deps: OpsDeps,
): Promise<SceneCreated> {
  const sceneType = opts.sceneType ?? "object";
  const aerialOnly = opts.formats.filter((f) => AERIAL_FORMATS.includes(f));
  if (sceneType !== "aerial" && aerialOnly.length > 0) {
    deps.warn(
      `${aerialOnly.join(", ")} ${aerialOnly.length > 1 ? "are results" : "is a result"} of aerial scenes ` +
        `only: pass --scene-type aerial for photos taken from the air`,
    );
  }
  const id = await createPhotoscene(await deps.http(), { ...opts, sceneType });
  return { photosceneid: id, name: opts.name, formats: opts.formats, scenetype: sceneType };
}

const PHOTO_EXTENSIONS = /\.(jpe?g)$/i;

/**
 * The photos named by `inputs`: files as given, directories walked for JPEG files. A missing input
 * is "File not found" before any request; no photo at all is a usage error.
 */
export async function collectPhotos(inputs: readonly string[], cwd: string): Promise<Photo[]> {
  const photos: Photo[] = [];
  for (const input of inputs) {
    const { entries, missing } = await expandInputs([input], "", cwd);
    if (missing.length > 0) throw new DiazoError("file_not_found", { params: { file: missing[0] } });
    const isDir = (await Deno.stat(path.resolve(cwd, input))).isDirectory;
    for (const e of entries) {
      if (isDir && !PHOTO_EXTENSIONS.test(e.path)) continue;
      const mtimeMs = (await Deno.stat(e.path)).mtime?.getTime() ?? 0;
      photos.push({ file: e.file, path: e.path, size: e.size, mtimeMs });
    }
  }
  if (photos.length === 0) {
    throw usageError(
      `no photos found in ${inputs.join(", ")}`,
      "Name JPEG files, or a directory holding .jpg/.jpeg files.",
    );
  }
  return photos;
}

/** What `reality-capture upload` did. */
export interface PhotosUploaded {
  photosceneid: string;
  uploaded: number;
  skipped: number;
  failed: number;
  bytes: number;
  photos: PhotoOutcome[];
  summary: string;
}

/** `reality-capture upload`: adds photos to a scene, streamed and in parallel, skipping those it has. */
export async function runRealityUpload(
  opts: {
    sceneId: string;
    inputs: readonly string[];
    perRequest?: number;
    concurrency?: number;
    onProgress?: (done: number, total: number) => void;
    signal?: AbortSignal;
  },
  deps: OpsDeps,
): Promise<PhotosUploaded> {
  const photos = await collectPhotos(opts.inputs, deps.cwd);
  const outcomes = await uploadPhotos(await deps.http(), {
    sceneId: opts.sceneId,
    photos,
    stateDir: deps.stateDir,
    perRequest: opts.perRequest,
    concurrency: opts.concurrency,
    onProgress: opts.onProgress,
    signal: opts.signal,
  });
  const count = (s: PhotoOutcome["status"]) => outcomes.filter((o) => o.status === s).length;
  const uploaded = count("uploaded");
  const skipped = count("skipped");
  const failed = count("failed");
  const bytes = outcomes.reduce((n, o) => n + (o.status === "uploaded" ? o.size : 0), 0);
  const parts = [`Uploaded ${uploaded} photo(s) to ${opts.sceneId}`];
  if (skipped) parts.push(`${skipped} already there`);
  if (failed) {
    // Each failed photo named with its reason, so a person knows which to fix (the first ten).
    const failures = outcomes.filter((o) => o.status === "failed");
    const named = failures.slice(0, 10).map((o) => (o.status === "failed" ? reason(o) : "")).join("; ");
    const more = failures.length > 10 ? `; and ${failures.length - 10} more` : "";
    parts.push(`${failed} failed (${named}${more})`);
  }
  return {
    photosceneid: opts.sceneId,
    uploaded,
    skipped,
    failed,
    bytes,
    photos: outcomes,
    summary: parts.join(", "),
  };
}

/** A failed photo's reason, its name first. */
function reason(o: Extract<PhotoOutcome, { status: "failed" }>): string {
  return o.error.startsWith(`${o.file}:`) ? o.error : `${o.file}: ${o.error}`;
}

/** `reality-capture process`: starts processing the scene's photos. */
export async function runRealityProcess(
  opts: { sceneId: string },
  deps: OpsDeps,
): Promise<{ photosceneid: string; processing: true }> {
  await processPhotoscene(await deps.http(), opts.sceneId);
  return { photosceneid: opts.sceneId, processing: true };
}

/** A scene's progress with the percentage as a number beside the platform's string. */
export type SceneStatus = SceneProgress & { percent: number; done: boolean };

function statusOf(p: SceneProgress): SceneStatus {
  const percent = Number(p.progress);
  const done = p.progressmsg.toUpperCase() === "DONE" || percent >= 100;
  return { ...p, percent: Number.isFinite(percent) ? percent : 0, done };
}

/** True for a `progressmsg` that says the scene will not finish. */
function ended(p: SceneProgress): boolean {
  return /fail|error|cancel/i.test(p.progressmsg);
}

/**
 * `reality-capture status`: the scene's progress; with `wait`, polls (backing off) until it is done,
 * reporting each answer to `onProgress`. A scene that failed or was cancelled is an error.
 */
export async function runRealityStatus(
  opts: {
    sceneId: string;
    wait?: boolean;
    timeoutMs?: number;
    onProgress?: (s: SceneStatus) => void;
    signal?: AbortSignal;
  },
  deps: OpsDeps,
): Promise<SceneStatus> {
  const http = await deps.http();
  const { startPollClock } = await import("../../http/poll.ts"); // loaded only for a wait
  const clock = startPollClock({ ...deps.poll, timeoutMs: opts.timeoutMs, signal: opts.signal });
  for (;;) {
    const s = statusOf(await getProgress(http, opts.sceneId));
    opts.onProgress?.(s);
    if (ended(s)) {
      throw new DiazoError("photoscene_failed", {
        body: s,
        params: { id: opts.sceneId, detail: s.progressmsg },
      });
    }
    if (s.done || !opts.wait) return s;
    await clock.pause();
  }
}

/** A downloaded result. */
export interface ResultDownloaded {
  photosceneid: string;
  format: string;
  file: string;
  size: number;
  sha1: string;
  scenelink?: string;
}

/** `reality-capture result`: downloads the scene's result in `format` into `outDir` (atomically). */
export async function runRealityResult(
  opts: { sceneId: string; format: string; outDir: string; force?: boolean; signal?: AbortSignal },
  deps: OpsDeps,
): Promise<ResultDownloaded> {
  const http = await deps.http();
  const result = await getResult(http, opts.sceneId, opts.format);
  if (!result.scenelink) {
    const detail = `photoscene ${opts.sceneId} has no ${opts.format} result yet (${result.progress ?? 0}%)`;
    const next = { command: `diazo reality-capture status ${opts.sceneId} --wait`, tool: "reality_status" };
    throw new DiazoError("photoscene_refused", {
      body: result,
      params: { detail, hint: `Wait for it with \`${next.command}\`.` },
      field: { field: "scene_id", problem: detail, help: "Wait for it with {step}.", next },
    });
  }
  const link = new URL(result.scenelink);
  const name = decodeURIComponent(link.pathname.split("/").pop() || "") || `${opts.sceneId}.${opts.format}`;
  const target = path.join(path.resolve(deps.cwd, opts.outDir), path.basename(name));
  const size = Number(result.filesize);
  const got = await fetchToFile(http, {
    urls: [result.scenelink],
    target,
    label: name,
    overwrite: opts.force,
    ...(Number.isFinite(size) && size > 0 ? { expectedSize: size } : {}),
    signal: opts.signal,
    debug: deps.debug,
  });
  return {
    photosceneid: opts.sceneId,
    format: opts.format,
    file: got.file,
    size: got.size,
    sha1: got.sha1,
    scenelink: result.scenelink,
  };
}

/** `reality-capture delete`: deletes the scene after `confirm` (the CLI's gate); undefined when declined. */
export async function runRealityDelete(
  opts: { sceneId: string; confirm: (question: string) => Promise<boolean> },
  deps: OpsDeps,
): Promise<{ photosceneid: string; deleted: true } | undefined> {
  if (!(await opts.confirm(`Delete photoscene ${opts.sceneId} and its photos and results?`))) {
    return undefined;
  }
  const http = await deps.http();
  await deletePhotoscene(http, opts.sceneId);
  await forgetSceneRecord(deps.stateDir, http.baseUrl, opts.sceneId);
  return { photosceneid: opts.sceneId, deleted: true };
}
