/**
 * Starting translation work: one manifest per source design, its design read once in the
 * background (streamed from the object store), and each requested derivative written once the read
 * ends. Nothing here waits on timers; the sandbox clock decides what the manifest shows (jobs.ts).
 */

import { join } from "node:path";
import type { SandboxContext } from "../context.ts";
import { nowMs } from "../clock.ts";
import { readObject } from "../oss/object_store.ts";
import type { StoredObject } from "../oss/store.ts";
import { type OutputType, translatable } from "./formats.ts";
import { successfulDerivative } from "./jobs.ts";
import { announceWhenDone } from "./announce.ts";
import { CorruptModelError, genericModel } from "./model.ts";
import { readModel } from "./model_reader.ts";
import { writeOutputs } from "./outputs.ts";
import type { DerivativeJob, Translation } from "./store.ts";

/** Manifest message code of a design that could not be read. */
export const READ_FAILURE_CODE = "TranslationWorker-InternalFailure";
/** Manifest message code of an output type the design's format cannot be translated to. */
export const UNSUPPORTED_CODE = "TranslationWorker-UnsupportedFormat";

/** One entry of `output.formats`. */
export interface RequestedFormat {
  type: OutputType;
  views?: string[];
  advanced?: Record<string, unknown>;
}

/** A validated job request. */
export interface JobRequest {
  /** Canonical source URN. */
  urn: string;
  object: StoredObject;
  /** The design's file name: the object key's last segment, or `rootFilename` of a compressed design. */
  fileName: string;
  compressed: boolean;
  region: string;
  formats: RequestedFormat[];
  force: boolean;
  workflow?: string;
}

function isCurrent(sb: SandboxContext, tr: Translation, job: DerivativeJob): boolean {
  return sb.derivative.manifests.get(tr.urn) === tr && tr.derivatives.includes(job);
}

function forgetFiles(sb: SandboxContext, job: DerivativeJob): void {
  if (!job.outcome?.ok) return;
  for (const f of job.outcome.files) {
    sb.derivative.files.delete(f.id);
    if (f.path) Deno.remove(f.path).catch(() => {});
  }
}

/** Deletes a manifest with its derivatives and their files. */
export function discardManifest(sb: SandboxContext, tr: Translation): void {
  const store = sb.derivative;
  if (store.manifests.get(tr.urn) === tr) store.manifests.delete(tr.urn);
  for (const job of tr.derivatives) forgetFiles(sb, job);
  Deno.remove(tr.dir, { recursive: true }).catch(() => {});
}

function beginRead(sb: SandboxContext, tr: Translation, obj: StoredObject, compressed: boolean): void {
  const { fileName, size } = tr.source;
  const reading = compressed
    ? Promise.resolve(
      genericModel(fileName, size, "Compressed design: read as a single object by the sandbox"),
    )
    : readModel(fileName, size, () => readObject(sb.oss, obj));
  tr.parsed = reading.then((model) => {
    tr.parse = { state: "done", model };
    return model;
  }, (e) => {
    const detail = e instanceof CorruptModelError ? e.message : `cannot read the design (${String(e)})`;
    tr.parse = { state: "failed", message: `The design could not be read: ${detail}` };
    return undefined;
  });
}

function beginDerivative(sb: SandboxContext, tr: Translation, job: DerivativeJob): Promise<void> {
  if (!translatable(job.outputType, tr.source.fileName)) {
    const ext = tr.source.fileName.includes(".")
      ? `'.${tr.source.fileName.split(".").pop()}' files`
      : tr.source.fileName;
    job.outcome = {
      ok: false,
      code: UNSUPPORTED_CODE,
      message: `Translating ${ext} to '${job.outputType}' is not supported; ` +
        "see GET /modelderivative/v2/designdata/formats",
    };
    return Promise.resolve();
  }
  return tr.parsed.then(async (model) => {
    if (!model) {
      job.outcome = {
        ok: false,
        code: READ_FAILURE_CODE,
        message: tr.parse.state === "failed" ? tr.parse.message : "The design could not be read",
      };
      return;
    }
    try {
      const files = await writeOutputs(tr, job, model);
      if (!isCurrent(sb, tr, job)) {
        await Promise.all(files.map((f) => f.path ? Deno.remove(f.path).catch(() => {}) : undefined));
        return;
      }
      for (const f of files) if (f.path) sb.derivative.files.set(f.id, f);
      job.outcome = { ok: true, files };
    } catch (e) {
      job.outcome = {
        ok: false,
        code: READ_FAILURE_CODE,
        message: `Writing the derivative failed: ${String(e)}`,
      };
    }
  });
}

/** The manifest can take the request: same object content, same design file, same region. */
function reusable(tr: Translation, req: JobRequest): boolean {
  return tr.source.sha1 === req.object.sha1 && tr.source.size === req.object.size &&
    tr.source.fileName === req.fileName && tr.region === req.region;
}

/**
 * Handles a job request: `"created"` when every requested derivative already succeeded (and the
 * request does not force), else starts the missing ones and answers `"accepted"`. Forcing, a
 * changed source object or another region discards the old manifest first.
 */
export function submitJob(sb: SandboxContext, req: JobRequest): "accepted" | "created" {
  const store = sb.derivative;
  const now = nowMs(sb.clock);
  let tr = store.manifests.get(req.urn);
  if (tr && (req.force || !reusable(tr, req))) {
    discardManifest(sb, tr);
    tr = undefined;
  }
  if (tr && req.formats.every((f) => successfulDerivative(tr!, now, f.type))) return "created";
  if (!tr) {
    tr = {
      urn: req.urn,
      source: {
        bucketKey: req.object.bucketKey,
        objectKey: req.object.objectKey,
        objectId: req.object.objectId,
        fileName: req.fileName,
        size: req.object.size,
        sha1: req.object.sha1,
      },
      region: req.region,
      createdMs: now,
      parse: { state: "reading" },
      parsed: Promise.resolve(undefined),
      derivatives: [],
      extracted: new Set(),
      dir: join(sb.derivative.dir, crypto.randomUUID()),
      ...(req.workflow ? { workflow: req.workflow } : {}),
    };
    store.manifests.set(req.urn, tr);
    beginRead(sb, tr, req.object, req.compressed);
  }
  const durationMs = Math.round(sb.settings.jobSeconds * 1000);
  const byType = new Map(req.formats.map((f) => [f.type, f]));
  const work: Promise<void>[] = [];
  for (const f of byType.values()) {
    if (successfulDerivative(tr, now, f.type)) continue;
    const old = tr.derivatives.findIndex((d) => d.outputType === f.type);
    const job: DerivativeJob = {
      outputType: f.type,
      guid: crypto.randomUUID(),
      createdMs: now,
      durationMs,
      ...(f.views ? { views: f.views } : {}),
      ...(f.advanced ? { advanced: f.advanced } : {}),
    };
    if (old >= 0) {
      forgetFiles(sb, tr.derivatives[old]);
      tr.derivatives[old] = job;
    } else {
      tr.derivatives.push(job);
    }
    work.push(beginDerivative(sb, tr, job));
  }
  void announceWhenDone(sb, tr, Promise.all(work));
  return "accepted";
}
