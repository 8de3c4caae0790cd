/**
 * Photos added to a photoscene (`POST /photo-to-3d/v1/file`): multipart requests of a few photos
 * each, several in flight at once, every photo streamed from disk (never a whole file in memory),
 * each request retried with a fresh stream. The platform does not list a scene's photos, so a
 * record in the state dir remembers which ones each scene already has: a re-run sends only the rest.
 */
import path from "node:path";
import { createHash } from "node:crypto";
import { DiazoError, isDiazoError } from "../../core/errors.ts";
import { readTextIfExists } from "../../platform/fs.ts";
import { writeFileAtomic } from "../../platform/fs_write.ts";
import { mapSettled } from "../../core/concurrency.ts";
import type { Http } from "../../http/http.ts";
import { RC_BASE, rcRequest } from "./api.ts";
import { DATA_WRITE } from "../../aps/scope_constants.ts";

/** Most photos one request may carry (the platform's limit). */
export const MAX_PHOTOS_PER_REQUEST = 20;
/** Photos per request unless told otherwise: a failed request costs little to send again. */
export const DEFAULT_PHOTOS_PER_REQUEST = 5;
/** Requests in flight at once unless told otherwise. */
export const DEFAULT_UPLOAD_CONCURRENCY = 4;

/** One local photo. */
export interface Photo {
  /** As the user named it (relative names stay relative). */
  file: string;
  /** Absolute path. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** What happened to one photo. */
export type PhotoOutcome =
  | { file: string; status: "uploaded" | "skipped"; fileid: string; size: number }
  | { file: string; status: "failed"; error: string; exitCode: number };

/** What to upload where, and how. */
export interface PhotoUploadOptions {
  sceneId: string;
  photos: readonly Photo[];
  /** Where the record of photos already added lives. */
  stateDir: string;
  perRequest?: number;
  concurrency?: number;
  /** Bytes sent so far of all bytes to send (a retry counts its request again). */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** The record of one scene: photos it has, by absolute path, with the file they were taken from. */
interface SceneRecord {
  baseUrl: string;
  sceneId: string;
  photos: Record<string, { size: number; mtimeMs: number; fileid: string }>;
}

function recordFile(stateDir: string, baseUrl: string, sceneId: string): string {
  const digest = createHash("sha256").update(`${baseUrl}\n${sceneId}`).digest("hex").slice(0, 32);
  return path.join(stateDir, "reality", `${digest}.json`);
}

async function readSceneRecord(file: string, baseUrl: string, sceneId: string): Promise<SceneRecord> {
  const empty = { baseUrl, sceneId, photos: {} };
  const text = await readTextIfExists(file);
  if (text === undefined) return empty;
  try {
    const r = JSON.parse(text) as SceneRecord;
    return r.baseUrl === baseUrl && r.sceneId === sceneId && r.photos && typeof r.photos === "object"
      ? r
      : empty;
  } catch {
    return empty; // a damaged record only costs sending the photos again
  }
}

/** Forgets the record of a scene (after it was deleted). */
export async function forgetSceneRecord(stateDir: string, baseUrl: string, sceneId: string): Promise<void> {
  await Deno.remove(recordFile(stateDir, baseUrl, sceneId)).catch(() => {});
}

/** A file name as a quoted-string of a Content-Disposition header. */
function quoted(name: string): string {
  return name.replace(/[\r\n]/g, " ").replace(/"/g, "%22");
}

/**
 * The multipart body of one request, produced as it is read: fields, then each photo's bytes from
 * its file. `counted` sees every photo byte as it leaves.
 */
export function photoBody(
  boundary: string,
  sceneId: string,
  photos: readonly Photo[],
  counted: (n: number) => void,
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  async function* parts(): AsyncGenerator<Uint8Array> {
    const field = (name: string, value: string) =>
      enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    yield field("photosceneid", sceneId);
    yield field("type", "image");
    for (const [i, p] of photos.entries()) {
      yield enc.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="file[${i}]"; filename="${
          quoted(path.basename(p.path))
        }"\r\nContent-Type: image/jpeg\r\n\r\n`,
      );
      const file = await Deno.open(p.path, { read: true });
      for await (const chunk of file.readable) {
        counted(chunk.length);
        yield chunk;
      }
      yield enc.encode("\r\n");
    }
    yield enc.encode(`--${boundary}--\r\n`);
  }
  return ReadableStream.from(parts());
}

type FileAnswer = { Files?: { file?: { fileid?: string; filename?: string }[] | { fileid?: string } } };

/** Sends one request of photos; answers their file ids in order. */
async function postPhotos(
  http: Http,
  o: PhotoUploadOptions,
  photos: readonly Photo[],
  counted: (attempt: number, n: number) => void,
): Promise<string[]> {
  const boundary = `diazo-${crypto.randomUUID()}`;
  let attempt = 0;
  const data = await rcRequest<FileAnswer>(http, {
    method: "POST",
    path: `${RC_BASE}/file`,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    bodyStream: () => {
      const n = ++attempt;
      return photoBody(boundary, o.sceneId, photos, (bytes) => counted(n, bytes));
    },
    // Adding the same photos again after a lost answer does no harm to the scene's reconstruction.
    retry: "always",
    scope: DATA_WRITE,
    sceneId: o.sceneId,
    signal: o.signal,
    hint: "The platform takes JPEG photos of at most 128 MB each; check the files named.",
  });
  const files = data.Files?.file;
  const list = Array.isArray(files) ? files : files ? [files] : [];
  return photos.map((_, i) => String(list[i]?.fileid ?? ""));
}

/**
 * The photos of `group` still as they were listed; each one missing or changed in size is recorded
 * in `outcomes` as failed with its reason (a usage error: the input changed, retrying will not help).
 */
async function present(group: readonly Photo[], outcomes: Map<Photo, PhotoOutcome>): Promise<Photo[]> {
  const kept: Photo[] = [];
  for (const p of group) {
    const now = await Deno.stat(p.path).catch(() => undefined);
    const why = !now || !now.isFile
      ? "it was deleted after the upload started"
      : now.size !== p.size
      ? (now.size === 0
        ? "it was emptied after the upload started"
        : `its size changed (${p.size} → ${now.size} bytes) after the upload started`)
      : undefined;
    if (why) outcomes.set(p, { file: p.file, status: "failed", error: `${p.file}: ${why}`, exitCode: 2 });
    else kept.push(p);
  }
  return kept;
}

/** Groups of `size` in order. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Adds `photos` to the scene, skipping those the scene's record says it already has (same path,
 * size and modification time). One failed request fails only its photos; the record is saved after
 * every request, so a re-run after a failure or Ctrl-C sends only what is missing.
 */
export async function uploadPhotos(http: Http, o: PhotoUploadOptions): Promise<PhotoOutcome[]> {
  const file = recordFile(o.stateDir, http.baseUrl, o.sceneId);
  const record = await readSceneRecord(file, http.baseUrl, o.sceneId);
  const outcomes = new Map<Photo, PhotoOutcome>();
  const todo: Photo[] = [];
  for (const p of o.photos) {
    const had = record.photos[p.path];
    if (had && had.size === p.size && had.mtimeMs === p.mtimeMs) {
      outcomes.set(p, { file: p.file, status: "skipped", fileid: had.fileid, size: p.size });
    } else todo.push(p);
  }
  const total = todo.reduce((n, p) => n + p.size, 0);
  const sent = new Map<number, { attempt: number; bytes: number }>();
  let saving = Promise.resolve();
  const perRequest = Math.min(
    MAX_PHOTOS_PER_REQUEST,
    Math.max(1, o.perRequest ?? DEFAULT_PHOTOS_PER_REQUEST),
  );
  const groups = chunks(todo, perRequest);
  await mapSettled(groups, o.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY, async (listed, index) => {
    // A photo deleted or emptied since it was listed fails alone (a usage error naming it); the
    // others of its request are sent without it, also when it vanished while the request was sent.
    let group = await present(listed, outcomes);
    for (let tries = 0; group.length > 0; tries++) {
      try {
        const ids = await postPhotos(http, o, group, (attempt, n) => {
          const at = sent.get(index);
          sent.set(index, { attempt, bytes: at?.attempt === attempt ? at.bytes + n : n });
          o.onProgress?.([...sent.values()].reduce((s, v) => s + v.bytes, 0), total);
        });
        group.forEach((p, i) => {
          record.photos[p.path] = { size: p.size, mtimeMs: p.mtimeMs, fileid: ids[i] };
          outcomes.set(p, { file: p.file, status: "uploaded", fileid: ids[i], size: p.size });
        });
        saving = saving.then(() => writeFileAtomic(file, JSON.stringify(record), 0o600));
        await saving;
        return;
      } catch (e) {
        const still = await present(group, outcomes);
        if (still.length < group.length && tries < 2 && !o.signal?.aborted) {
          group = still;
          continue;
        }
        const error = e instanceof Error ? e.message : String(e);
        const exitCode = isDiazoError(e) ? e.exitCode : 1;
        for (const p of group) outcomes.set(p, { file: p.file, status: "failed", error, exitCode });
        return;
      }
    }
  });
  if (o.signal?.aborted) throw new DiazoError("interrupted", { cause: o.signal.reason });
  return o.photos.map((p) => outcomes.get(p)!);
}
