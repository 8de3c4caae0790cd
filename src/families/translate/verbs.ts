/**
 * The translate verbs (Model Derivative): start a job, its status (waiting for it to end, the one
 * wait of diazo), the manifest, model views, object trees and properties, derivative downloads, the
 * thumbnail, deletion and the formats. URNs arrive checked; nothing here writes to stdout.
 */
import type { OutputFormat, OutputType } from "../../aps/derivative_formats.ts";
import type { Urn } from "../../aps/ids.ts";
import { isBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { parseUrn } from "../../aps/urn.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import {
  defaultView,
  deleteManifest,
  downloadableDerivatives,
  getManifest,
  getObjectTree,
  getProperties,
  jobPayload,
  listFormats,
  listViews,
  type Manifest,
  manifestProgress,
  type ModelView,
  type StartedJob,
  startJob,
  waitForJob,
} from "./api.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { resolveFrom } from "../../platform/path.ts";

export { type Manifest, manifestMessages, manifestProgress, type ModelView, progressPercent } from "./api.ts";

/** What every translate verb names: the design's URN and the region of its derivatives. */
export interface DesignRef {
  urn: Urn;
  /** A checked data centre (aps/regions.ts); absent: the platform's default, US. */
  region?: string;
}

/** How to wait for a job to end; without a `timeoutMs` the wait is unlimited. */
export interface TranslationWait {
  timeoutMs?: number;
  /** A job pending longer than this is `translation_stalled` (default 30 minutes). */
  stallAfterMs?: number;
  signal?: AbortSignal;
  /** Every manifest read while waiting, e.g. to draw progress. */
  onProgress?: (manifest: Manifest) => void;
  /** When the job was started (local ms); by default, when it was first seen pending. */
  startedAt?: number;
}

/** The largest translation input the platform takes, per file (5 GB). */
export const MAX_TRANSLATION_INPUT_BYTES = 5 * 1024 ** 3;

/** The size of the OSS object behind `urn`, or undefined when it is not one or cannot be read. */
async function inputSize(urn: Urn, deps: OpsDeps): Promise<number | undefined> {
  const { bucketKey, objectKey } = parseUrn(urn);
  if (!bucketKey || !objectKey || !isBucketKey(bucketKey)) return undefined;
  // Only a job's start reads the object: a status or a manifest loads no object requests.
  const { getObject } = await import("../../transfer/oss_objects.ts");
  try {
    return (await getObject(await deps.http(), bucketKey, parseObjectKey(objectKey))).size;
  } catch (e) {
    // The job request that follows reports a missing object or scope in the platform's words.
    if (e instanceof DiazoError) return undefined;
    throw e;
  }
}

/**
 * Refuses (exit 2) a translation input over the platform's 5 GB limit before any job starts; with
 * `force` it warns and goes on.
 */
async function checkInputSize(urn: Urn, force: boolean | undefined, deps: OpsDeps): Promise<void> {
  const size = await inputSize(urn, deps);
  if (size === undefined || size <= MAX_TRANSLATION_INPUT_BYTES) return;
  const gb = (size / 1024 ** 3).toFixed(1);
  const message = `the translation input is ${gb} GB, over the platform's limit of 5 GB per file`;
  if (!force) {
    throw usageError(message, "Split or reduce the model, or pass --force to start the job anyway.");
  }
  deps.warn(`${message}; starting anyway (--force)`);
}

/**
 * `translate start`: asks for a job; `existed` when the derivatives are there already (not rebuilt).
 * An OSS input over 5 GB is refused unless `force`.
 */
export async function runTranslateStart(
  opts: DesignRef & { formats: OutputFormat[]; force?: boolean; rootFilename?: string; workflow?: string },
  deps: OpsDeps,
): Promise<{ job: StartedJob; existed: boolean; startedAt: number }> {
  await checkInputSize(opts.urn, opts.force, deps);
  const startedAt = Date.now();
  const job = await startJob(await deps.http(), jobPayload(opts.urn, opts.formats, opts), {
    force: opts.force,
    region: opts.region,
  });
  return { job, existed: job.status === 201, startedAt };
}

/**
 * `translate status`: the manifest now, or with `wait` once the job has ended. A failed job is the
 * `translation_failed` error unless `endedIsAnswer`, which answers with the last manifest read when
 * the job failed or the wait timed out.
 */
export async function runTranslateStatus(
  opts: DesignRef & { wait?: TranslationWait; endedIsAnswer?: boolean },
  deps: OpsDeps,
): Promise<Manifest> {
  const http = await deps.http();
  if (!opts.wait) return await getManifest(http, opts.urn, { region: opts.region });
  let last: Manifest | undefined;
  const onProgress = opts.wait.onProgress;
  try {
    return await waitForJob(http, opts.urn, {
      ...deps.poll,
      ...opts.wait,
      region: opts.region,
      onProgress: (m) => {
        last = m;
        onProgress?.(m);
      },
    });
  } catch (e) {
    const ended = e instanceof DiazoError && (e.code === "translation_failed" || e.code === "timeout");
    if (opts.endedIsAnswer && ended && last) return last;
    throw e;
  }
}

/** A manifest with its computed progress beside the platform's fields. */
export function statusView(manifest: Manifest, objectId: string): Record<string, unknown> {
  return { ...manifest, objectId, ...manifestProgress(manifest) };
}

/** `translate manifest`: every derivative, its status, messages and URNs. */
export async function runTranslateManifest(opts: DesignRef, deps: OpsDeps): Promise<Manifest> {
  return await getManifest(await deps.http(), opts.urn, { region: opts.region });
}

/** `translate metadata`: the model views of a translated design. */
export async function runTranslateViews(opts: DesignRef, deps: OpsDeps): Promise<ModelView[]> {
  return await listViews(await deps.http(), opts.urn, { region: opts.region });
}

/** Options of `translate tree` and `translate properties`. */
export interface ExtractVerbOptions extends DesignRef {
  /** The model view; default the master 3D view. */
  guid?: string;
  objectId?: number;
  forceGet?: boolean;
  timeoutMs?: number;
}

/** The model view to read: the one asked for, else the master 3D view (not_found when there is none). */
async function chooseView(opts: ExtractVerbOptions, deps: OpsDeps): Promise<string> {
  if (opts.guid) return opts.guid;
  const view = defaultView(await runTranslateViews(opts, deps));
  if (!view) {
    throw new DiazoError("not_found", {
      params: { what: "a model view: the design has no viewable (svf/svf2) derivative" },
    });
  }
  deps.debug(`view: ${view.guid} (${view.role}${view.isMasterView ? ", master" : ""})`);
  return view.guid;
}

async function extract(
  read: typeof getObjectTree,
  opts: ExtractVerbOptions,
  deps: OpsDeps,
): Promise<{ guid: string; data: unknown }> {
  const guid = await chooseView(opts, deps);
  const data = await read(await deps.http(), opts.urn, guid, {
    ...deps.poll,
    region: opts.region,
    forceGet: opts.forceGet,
    objectId: opts.objectId,
    timeoutMs: opts.timeoutMs,
  });
  return { guid, data };
}

/** `translate tree`: the object tree of a model view (waiting while the platform extracts it). */
export function runTranslateTree(
  opts: ExtractVerbOptions,
  deps: OpsDeps,
): Promise<{ guid: string; data: unknown }> {
  return extract(getObjectTree, opts, deps);
}

/** `translate properties`: the properties of a model view's objects (waiting while they are extracted). */
export function runTranslateProperties(
  opts: ExtractVerbOptions,
  deps: OpsDeps,
): Promise<{ guid: string; data: unknown }> {
  return extract(getProperties, opts, deps);
}

/** One derivative of a download: where it came from and how it went. */
export interface DownloadRow {
  urn: string;
  path: string;
  outputType?: string;
  role?: string;
  mime?: string;
  size?: number;
  ok: boolean;
  file?: string;
  sha1?: string;
  error?: string;
  [key: string]: unknown;
}

/** What a download did: a row per derivative, and the exit code its failures call for (0 when none). */
export interface DownloadResult {
  dir: string;
  rows: DownloadRow[];
  bytes: number;
  exitCode: number;
}

/**
 * `translate download`: every downloadable derivative (of one output type) into `dir`, in parallel.
 * `manifest` is the one already read (e.g. after a wait); a failed file is a row with its error
 * and a warning, the others go on.
 */
export async function runTranslateDownload(
  opts: DesignRef & {
    objectId: string;
    dir: string;
    outputType?: OutputType;
    force?: boolean;
    manifest?: Manifest;
  },
  deps: OpsDeps,
): Promise<DownloadResult> {
  const http = await deps.http();
  const manifest = opts.manifest ?? await getManifest(http, opts.urn, { region: opts.region });
  const files = downloadableDerivatives(manifest, { outputType: opts.outputType });
  if (files.length === 0) {
    const types = [...new Set(manifest.derivatives.map((d) => d.outputType).filter(Boolean))].join(", ");
    throw new DiazoError("not_found", {
      params: {
        what:
          `downloadable ${
            opts.outputType ?? ""
          } derivatives of ${opts.objectId} (status ${manifest.status}; ` +
          `output types: ${types || "none"})`.replace("downloadable  ", "downloadable "),
      },
    });
  }
  const concurrency = (await deps.settings()).concurrency;
  const { downloadDerivative } = await import("./files.ts");
  const { mapSettled } = await import("../../core/concurrency.ts");
  const results = await mapSettled(files, concurrency, (f) =>
    downloadDerivative(http, opts.urn, f, {
      dir: opts.dir,
      region: opts.region,
      overwrite: opts.force,
      debug: (l) => deps.debug(l),
    }));
  let exitCode = 0;
  const rows = files.map((f, i): DownloadRow => {
    const r = results[i];
    if (r.status === "fulfilled") {
      return { ...f, file: r.value.file, size: r.value.size, sha1: r.value.sha1, ok: true };
    }
    const e = r.reason;
    const message = e instanceof Error ? e.message : String(e);
    deps.warn(`${f.path}: ${message}`);
    exitCode = Math.max(exitCode, e instanceof DiazoError ? e.exitCode : 1);
    return { ...f, ok: false, error: message };
  });
  const bytes = rows.reduce((n, r) => n + (r.ok ? r.size ?? 0 : 0), 0);
  return { dir: opts.dir, rows, bytes, exitCode };
}

/** `translate thumbnail`: the design's thumbnail saved as a PNG file (relative to the working directory). */
export async function runTranslateThumbnail(
  opts: DesignRef & { file: string; size: number },
  deps: OpsDeps,
): Promise<{ urn: Urn; file: string; size: number; contentType: string }> {
  const { saveThumbnail } = await import("./files.ts");
  const saved = await saveThumbnail(await deps.http(), opts.urn, await resolveFrom(deps.cwd, opts.file), {
    region: opts.region,
    width: opts.size,
    height: opts.size,
  });
  return { urn: opts.urn, ...saved };
}

/** `translate delete`: the manifest and every derivative of a design are deleted (the source stays); the platform's answer. */
export async function runTranslateDelete(opts: DesignRef, deps: OpsDeps): Promise<Record<string, unknown>> {
  const answer = await deleteManifest(await deps.http(), opts.urn, { region: opts.region });
  return answer && typeof answer === "object" ? answer as Record<string, unknown> : {};
}

/** `translate formats`: the source file types each output type can be made from. */
export async function runTranslateFormats(
  _opts: Record<string, never>,
  deps: OpsDeps,
): Promise<Record<string, string[]>> {
  return await listFormats(await deps.http());
}
