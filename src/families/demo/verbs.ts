/**
 * `demo`: the main flow — bucket, generated model, multipart upload, translation, manifest,
 * metadata, properties, a derivative download, clean-up — as numbered steps reported through
 * `deps.info`. Which platform it runs against (the sandbox when no credentials) is the caller's choice.
 */
import path from "node:path";
import { type BucketKey, parseBucketKey, parseObjectKey, type Urn } from "../../aps/ids.ts";
import { generateModel } from "../../generate/generate.ts";
import { writeChunksAtomic } from "../../platform/fs_write.ts";
import {
  defaultView,
  downloadableDerivatives,
  getProperties,
  jobPayload,
  listViews,
  type Manifest,
  progressPercent,
  startJob,
  waitForJob,
} from "../translate/api.ts";
import { downloadDerivative } from "../translate/files.ts";
import type { Http } from "../../http/http.ts";
import { createBucket, deleteBucket } from "../bucket/api.ts";
import { MIN_PART_SIZE, uploadFile } from "../../transfer/upload.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { appToken } from "../auth/verbs.ts";

/** One step of the demo as reported. */
export interface DemoStep {
  step: string;
  ok: boolean;
  ms: number;
  detail: string;
}

/** Options of `demo`. */
export interface DemoOptions {
  /** Leave the bucket and the local files in place. */
  keep?: boolean;
  /** True against the sandbox: its jobs finish fast, so poll often. */
  sandbox?: boolean;
  /** How long the translation may take, in seconds (default 600). */
  timeoutSec?: number;
  /** Stops the demo at once (Ctrl-C, SIGTERM): the step under way fails with its reason, and the clean-up runs. */
  signal?: AbortSignal;
}

/** Size of the demo model: three parts of the platform's minimum, so the upload is multipart. */
const MODEL_BYTES = 12 * 1024 * 1024;

/** `work`, or the signal's reason as soon as it is aborted (the work goes on unheeded). */
function orStop<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/** Runs steps in order, numbering them, timing them and keeping the record of each; `signal` stops the one under way. */
function stepper(deps: OpsDeps, total: number, signal?: AbortSignal) {
  const steps: DemoStep[] = [];
  const run = async <T>(name: string, fn: () => Promise<[T, string]>): Promise<T> => {
    const t0 = performance.now();
    signal?.throwIfAborted();
    deps.info(`[${steps.length + 1}/${total}] ${name} ...`);
    try {
      const [value, detail] = await orStop(fn(), signal);
      const ms = Math.round(performance.now() - t0);
      steps.push({ step: name, ok: true, ms, detail });
      deps.info(`      ok  ${detail} (${ms} ms)`);
      return value;
    } catch (e) {
      steps.push({
        step: name,
        ok: false,
        ms: Math.round(performance.now() - t0),
        detail: (e as Error).message,
      });
      throw e;
    }
  };
  return { steps, run };
}

type Step = ReturnType<typeof stepper>["run"];

/** The names of the first few objects in a properties answer. */
export function someObjects(props: unknown, n: number): { objectid: number; name: string }[] {
  const collection = (props as { data?: { collection?: { objectid: number; name: string }[] } })?.data
    ?.collection;
  // The root is the file itself and groups may repeat an object's name: show distinct elements.
  const seen = new Set<string>();
  return (collection ?? []).slice(1).filter((o) => !seen.has(o.name) && seen.add(o.name)).slice(0, n)
    .map((o) => ({ objectid: o.objectid, name: o.name }));
}

/** Generates the model in `work` and uploads it to `bucket` in parts. */
async function uploadModel(deps: OpsDeps, http: Http, step: Step, p: { bucket: BucketKey; work: string }) {
  const settings = await deps.settings();
  const modelFile = path.join(p.work, "tower.obj");
  const model = await step("Generate a model", async () => {
    const m = generateModel({ format: "obj", size: MODEL_BYTES, objects: 40 });
    await writeChunksAtomic(modelFile, m.chunks());
    return [m, `tower.obj: ${m.objects} elements, ${(m.size / 1048576).toFixed(0)} MiB`];
  });
  const uploaded = await step("Upload it (multipart, SHA-1 checked)", async () => {
    const r = await uploadFile(http, {
      bucketKey: p.bucket,
      objectKey: parseObjectKey("tower.obj"),
      file: modelFile,
      partSize: MIN_PART_SIZE,
      concurrency: settings.concurrency,
      stateDir: deps.stateDir,
    });
    return [r, `${r.parts} parts, sha1 ${r.sha1.slice(0, 12)}…, urn ${r.urn.slice(0, 24)}…`];
  });
  return { model, uploaded };
}

/** Translates the upload, reads its properties and downloads its OBJ derivative. */
async function translateModel(
  deps: OpsDeps,
  http: Http,
  step: Step,
  p: { urn: Urn; work: string; opts: DemoOptions },
) {
  const fast = p.opts.sandbox;
  const manifest: Manifest = await step("Translate to SVF2 and OBJ (--wait)", async () => {
    await startJob(http, jobPayload(p.urn, [{ type: "svf2", views: ["3d"] }, { type: "obj" }]));
    let last = -1;
    const m = await waitForJob(http, p.urn, {
      pollBaseMs: fast ? 250 : undefined,
      timeoutMs: (p.opts.timeoutSec ?? 600) * 1000,
      onProgress: (mf) => {
        const pct = progressPercent(mf);
        if (pct !== last) deps.info(`      ${mf.status} ${mf.progress}`);
        last = pct;
      },
    });
    const types = (m.derivatives ?? []).map((d) => `${d.outputType}:${d.status}`).join(", ");
    return [m, `status ${m.status}; derivatives ${types}`];
  });
  const properties = await step("Metadata and properties", async () => {
    const view = defaultView(await listViews(http, p.urn));
    if (!view) return [[], "no views"];
    const props = await getProperties(http, p.urn, view.guid, { pollBaseMs: fast ? 100 : undefined });
    const some = someObjects(props, 3);
    return [some, `view ${view.name} (${view.guid.slice(0, 8)}…); ${some.map((o) => o.name).join(", ")} …`];
  });
  const derivative = await step("Download the OBJ derivative", async () => {
    const [file] = downloadableDerivatives(manifest, { outputType: "obj" });
    if (!file) return [undefined, "no OBJ derivative in the manifest"];
    const got = await downloadDerivative(http, p.urn, file, { dir: path.join(p.work, "derivatives") });
    return [got, `${file.path}: ${got.size} bytes, sha1 ${got.sha1.slice(0, 12)}…`];
  });
  return { manifest, properties, derivative };
}

/** What `demo` returns: what it made (ids, sizes, derivatives) and the record of every step. */
export interface DemoResult {
  summary: Record<string, unknown>;
  steps: DemoStep[];
}

/**
 * The demo's bucket: created once, deleted at most once — after its creation has ended when that is
 * still under way (a stop in the middle of it must not leave it behind). True when it was deleted.
 */
function ownedBucket(http: Http, bucket: BucketKey) {
  let creating: Promise<unknown> | undefined;
  let removed = false;
  return {
    create:
      () => (creating = createBucket(http, { bucketKey: bucket, policyKey: "transient", region: "US" })),
    async remove(): Promise<boolean> {
      if (removed || !creating) return false;
      removed = true;
      if (!(await creating.then(() => true, () => false))) return false;
      await deleteBucket(http, bucket);
      return true;
    },
  };
}

/** A line on stderr that may not be written: the closed output may be why the demo is stopping. */
function lastWord(deps: OpsDeps, line: string): void {
  try {
    deps.info(line);
  } catch { /* nobody is reading */ }
}

/**
 * `demo`: runs the whole flow with the deps' platform; the bucket and files go unless `keep`, also
 * when a step fails or `signal` stops it (a closed output pipe fails the next line written).
 */
export async function runDemo(opts: DemoOptions, deps: OpsDeps): Promise<DemoResult> {
  const { steps, run: step } = stepper(deps, opts.keep ? 7 : 8, opts.signal);
  deps.info(`Platform: ${(await deps.settings()).baseUrl.value}`);
  const token = await step("Authenticate (2-legged)", async () => {
    const t = await appToken(deps);
    return [t, `client ${t.client_id}, ${t.scopes.length} scopes`];
  });
  const http = await deps.http();
  const bucket = parseBucketKey(`diazo-demo-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`);
  const owned = ownedBucket(http, bucket);
  const work = await Deno.makeTempDir({ prefix: "diazo-demo-" });
  try {
    await step("Create a bucket", async () => {
      const b = await owned.create();
      return [b, `${b.bucketKey} (${b.policyKey})`];
    });
    const { model, uploaded } = await uploadModel(deps, http, step, { bucket, work });
    const { manifest, properties, derivative } = await translateModel(deps, http, step, {
      urn: uploaded.urn,
      work,
      opts,
    });
    if (!opts.keep) {
      await step("Clean up (delete the bucket and local files)", async () => {
        await owned.remove();
        return [undefined, bucket];
      });
    }
    const summary = {
      client_id: token.client_id,
      bucket,
      object: {
        objectKey: uploaded.objectKey,
        size: uploaded.size,
        sha1: uploaded.sha1,
        parts: uploaded.parts,
      },
      urn: uploaded.urn,
      model: { format: model.format, objects: model.objects },
      manifest: {
        status: manifest.status,
        derivatives: (manifest.derivatives ?? []).map((d) => d.outputType),
      },
      properties,
      derivative: derivative ? { size: derivative.size, sha1: derivative.sha1 } : undefined,
      kept: Boolean(opts.keep),
    };
    return { summary, steps };
  } finally {
    if (opts.keep) lastWord(deps, `Kept bucket ${bucket} and the local files in ${work}`);
    else {
      if (await owned.remove().catch(() => false)) lastWord(deps, `Stopped early: deleted bucket ${bucket}.`);
      await Deno.remove(work, { recursive: true }).catch(() => {});
    }
  }
}
