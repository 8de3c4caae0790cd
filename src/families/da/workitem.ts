/**
 * `da workitem run|get`: a work item of an activity with its inputs and outputs named as a person
 * has them — a local file (uploaded to a staging bucket and passed as a signed URL), an OSS object
 * (`urn:...`, its base64 URN, or for outputs `bucket/key`) or a URL — and, with a wait, polled with
 * backoff until it ends: local outputs are then downloaded (SHA-1 checked); a failed one brings its
 * report and is an error (never exit 0). Local outputs of a run that did not wait are remembered in
 * the state dir, so that `da workitem get <id> --wait` fetches them later.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { qualifyId } from "../../aps/da_ids.ts";
import { type BucketKey, isBucketKey, parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { parseUrn } from "../../aps/urn.ts";
import { DiazoError, isDiazoError, usageError } from "../../core/errors.ts";
import { fieldError } from "../../core/field_error.ts";
import {
  createWorkItem,
  getReport,
  getWorkItem,
  isFinished,
  type WorkItemArgument,
  type WorkItemStatus,
} from "./workitems_api.ts";
import { downloadObject } from "../../transfer/download.ts";
import type { Http } from "../../http/http.ts";
import { createBucket, getBucket } from "../bucket/api.ts";
import { createSignedUrl } from "../../transfer/oss_objects.ts";
import { statFile, uploadFile } from "../../transfer/upload.ts";
import { requireNickname } from "./verbs.ts";
import type { OpsDeps } from "../../session/deps.ts";

export type { WorkItemStatus };

/** Where an argument's bytes are: a URL as given, an OSS object, or a local file. */
type Place =
  | { kind: "url"; url: string }
  | { kind: "oss"; bucketKey: BucketKey; objectKey: string }
  | { kind: "file"; file: string; shown: string; info?: Deno.FileInfo };

/** A local output waiting for its work item, as remembered in the state dir. */
interface LocalOutput {
  name: string;
  bucketKey: string;
  objectKey: string;
  file: string;
}

/** How to wait for a work item. */
export interface WorkItemWait {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with every status read. */
  onStatus?: (status: WorkItemStatus) => void;
}

/** What `da workitem run` takes. */
export interface WorkItemRunOpts {
  /** `Name`, `Name+alias` (the app's, needs the nickname) or `Owner.Name+alias`. */
  activity: string;
  inputs: [name: string, value: string][];
  outputs: [name: string, value: string][];
  /** Values of `read` parameters (e.g. a JSON text), passed as `{"value": ...}`. */
  values?: [name: string, value: string][];
  /** Staging bucket for local files (default: one derived from the client id, created when missing). */
  bucket?: BucketKey;
  wait?: WorkItemWait;
}

/** A work item as the verbs answer it: its status, the activity, and where local outputs went. */
export interface WorkItemResult extends WorkItemStatus {
  activityId?: string;
  outputs?: { name: string; file: string; size: number; sha1: string }[];
}

/** The failed work item and its report, carried by the `workitem_failed` error. */
export interface WorkItemFailure {
  status: WorkItemStatus;
  report: string;
}

const URL_RE = /^https?:\/\//i;

/** Where an input is, checked before any request ("File not found" for a missing local file). */
async function inputPlace(deps: OpsDeps, value: string): Promise<Place> {
  if (URL_RE.test(value)) return { kind: "url", url: value };
  if (value.startsWith("urn:")) return ossPlace(value);
  const abs = path.resolve(deps.cwd, value);
  const exists = await Deno.stat(abs).then((i) => i.isFile, () => false);
  if (!exists && /^[A-Za-z0-9_=-]{16,}$/.test(value)) {
    const urn = (() => {
      try {
        return ossPlace(value);
      } catch {
        return undefined;
      }
    })();
    if (urn) return urn;
  }
  const info = await statFile(abs, value);
  return { kind: "file", file: abs, shown: value, info };
}

function ossPlace(urn: string): Place {
  const parsed = parseUrn(urn);
  if (!parsed.bucketKey || !parsed.objectKey) throw new DiazoError("invalid_urn", { params: { input: urn } });
  return { kind: "oss", bucketKey: parseBucketKey(parsed.bucketKey), objectKey: parsed.objectKey };
}

/**
 * Where an output goes: a URL; `urn:...`; `bucket/key` when its first segment is a bucket key and
 * not a local directory; else a local file (its directory must exist; `./name` forces a file).
 */
async function outputPlace(deps: OpsDeps, value: string): Promise<Place> {
  if (URL_RE.test(value)) return { kind: "url", url: value };
  if (value.startsWith("urn:")) return ossPlace(value);
  const slash = value.indexOf("/");
  const first = value.slice(0, slash);
  const isDir = (p: string) => Deno.stat(path.resolve(deps.cwd, p)).then((i) => i.isDirectory, () => false);
  if (slash > 0 && slash < value.length - 1 && isBucketKey(first) && !(await isDir(first))) {
    return { kind: "oss", bucketKey: first, objectKey: parseObjectKey(value.slice(slash + 1)) };
  }
  const abs = path.resolve(deps.cwd, value);
  if (!(await isDir(path.dirname(abs)))) {
    throw usageError(
      `cannot write output to ${value}: its directory does not exist`,
      "Create the directory first, or name an OSS object as bucket/key.",
    );
  }
  return { kind: "file", file: abs, shown: value };
}

/** The staging bucket: the given one, or one named after the client id; created (transient) when missing. */
async function stagingBucket(http: Http, deps: OpsDeps, given?: BucketKey): Promise<BucketKey> {
  const clientId = (await deps.settings()).clientId.value ?? "app";
  const bucketKey = given ??
    parseBucketKey(`diazo-da-${createHash("sha1").update(clientId).digest("hex").slice(0, 20)}`);
  try {
    await getBucket(http, bucketKey);
  } catch (e) {
    if (!(e instanceof DiazoError) || e.code !== "bucket_not_found") throw e;
    await createBucket(http, { bucketKey, policyKey: "transient", region: "US" });
    deps.info(`Created staging bucket ${bucketKey} (transient: kept 24 hours)`);
  }
  return bucketKey;
}

/** The argument for one input or output place, uploading a local input first. */
async function argumentFor(
  http: Http,
  deps: OpsDeps,
  p: { name: string; place: Place; output: boolean; staging?: BucketKey; run: string },
): Promise<{ arg: WorkItemArgument; local?: LocalOutput }> {
  const { place, output } = p;
  if (place.kind === "url") return { arg: output ? { url: place.url, verb: "put" } : { url: place.url } };
  const bucketKey = place.kind === "oss" ? place.bucketKey : p.staging!;
  let objectKey = place.kind === "oss"
    ? place.objectKey
    : `workitems/${p.run}/${p.name}/${path.basename(place.file)}`;
  if (place.kind === "file" && !output) {
    const settings = await deps.settings();
    const up = await uploadFile(http, {
      bucketKey,
      objectKey: parseObjectKey(objectKey),
      file: place.file,
      info: place.info,
      concurrency: settings.concurrency,
      stateDir: deps.stateDir,
      debug: (l) => deps.debug(l),
    });
    deps.info(`Uploaded ${place.shown} to ${bucketKey}/${up.objectKey} (${up.size} bytes)`);
    objectKey = up.objectKey;
  }
  const signed = await createSignedUrl(http, bucketKey, parseObjectKey(objectKey), {
    minutes: 60,
    access: output ? "write" : "read",
  });
  const arg: WorkItemArgument = output ? { url: signed.signedUrl, verb: "put" } : { url: signed.signedUrl };
  const local = output && place.kind === "file"
    ? { name: p.name, bucketKey, objectKey, file: place.file }
    : undefined;
  return { arg, local };
}

function recordPath(deps: OpsDeps, id: string): string {
  return path.join(deps.stateDir, "da-workitems", `${id.replace(/[^A-Za-z0-9_-]/g, "_")}.json`);
}

async function saveRecord(deps: OpsDeps, id: string, outputs: LocalOutput[]): Promise<void> {
  await Deno.mkdir(path.dirname(recordPath(deps, id)), { recursive: true });
  await Deno.writeTextFile(recordPath(deps, id), JSON.stringify({ outputs }));
}

async function readRecord(deps: OpsDeps, id: string): Promise<LocalOutput[]> {
  try {
    return (JSON.parse(await Deno.readTextFile(recordPath(deps, id))) as { outputs: LocalOutput[] }).outputs;
  } catch {
    return [];
  }
}

/** Polls a work item with backoff until it ends. */
async function waitFor(http: Http, id: string, wait: WorkItemWait, deps: OpsDeps): Promise<WorkItemStatus> {
  const { startPollClock } = await import("../../http/poll.ts"); // loaded only for a wait
  const clock = startPollClock({ ...deps.poll, timeoutMs: wait.timeoutMs, signal: wait.signal });
  for (;;) {
    const status = await getWorkItem(http, id, wait.signal);
    wait.onStatus?.(status);
    if (isFinished(status.status)) return status;
    await clock.pause();
  }
}

/**
 * A finished work item's end: on success its local outputs downloaded (and the record dropped); on
 * any other status its report fetched and the `workitem_failed` error thrown with both.
 */
async function conclude(http: Http, deps: OpsDeps, status: WorkItemStatus): Promise<WorkItemResult> {
  if (status.status !== "success") {
    const report = status.reportUrl
      ? await getReport(http, status.reportUrl).catch((e) => `(the report could not be read: ${String(e)})`)
      : "(no report)";
    const body: WorkItemFailure = { status, report };
    throw new DiazoError("workitem_failed", { params: { id: status.id, status: status.status }, body });
  }
  const outputs: WorkItemResult["outputs"] = [];
  for (const o of await readRecord(deps, status.id)) {
    const got = await downloadObject(http, {
      bucketKey: parseBucketKey(o.bucketKey),
      objectKey: parseObjectKey(o.objectKey),
      target: o.file,
      overwrite: true,
      debug: (l) => deps.debug(l),
    });
    deps.info(`Downloaded output '${o.name}' to ${o.file} (${got.size} bytes, SHA-1 verified)`);
    outputs.push({ name: o.name, file: got.file, size: got.size, sha1: got.sha1 });
  }
  await Deno.remove(recordPath(deps, status.id)).catch(() => {});
  return { ...status, ...(outputs.length ? { outputs } : {}) };
}

/** `da workitem run`: see the file's comment. */
export async function runDaWorkItemRun(opts: WorkItemRunOpts, deps: OpsDeps): Promise<WorkItemResult> {
  // The reference's syntax first (an empty owner stands for the app's), then the nickname if needed.
  const ref = qualifyId("activity", opts.activity, () => "", "activity");
  const activityId = ref.startsWith(".") ? `${await requireNickname(deps)}${ref}` : ref;
  const places = [
    ...await Promise.all(
      opts.inputs.map(async ([name, v]) => ({ name, output: false, place: await inputPlace(deps, v) })),
    ),
    ...await Promise.all(
      opts.outputs.map(async ([name, v]) => ({ name, output: true, place: await outputPlace(deps, v) })),
    ),
  ];
  const names = [...places.map((p) => p.name), ...(opts.values ?? []).map(([n]) => n)];
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw usageError(`argument '${dup}' is given twice`, "Give each parameter of the activity once.");
  const http = await deps.http();
  const staging = places.some((p) => p.place.kind === "file")
    ? await stagingBucket(http, deps, opts.bucket)
    : undefined;
  const run = crypto.randomUUID();
  const args: Record<string, WorkItemArgument> = Object.fromEntries(
    (opts.values ?? []).map(([name, value]) => [name, { value }]),
  );
  const locals: LocalOutput[] = [];
  for (const p of places) {
    const { arg, local } = await argumentFor(http, deps, { ...p, staging, run });
    args[p.name] = arg;
    if (local) locals.push(local);
  }
  const started = await createWorkItem(http, activityId, args).catch((e) => {
    if (!isDiazoError(e) || e.code !== "not_found") throw e;
    const help = "List the activities with {step}; a name without +alias means +$LATEST.";
    const next = { command: "diazo da activities", tool: "da_activity_list" };
    throw new DiazoError("dm_not_found", {
      status: e.status,
      body: e.body,
      params: { what: `activity ${activityId}`, hint: help.replace("{step}", `\`${next.command}\``) },
      field: { field: "activity", problem: `Not found: activity ${activityId}`, help, next },
    });
  });
  deps.info(`Started work item ${started.id} of ${activityId}`);
  if (locals.length) await saveRecord(deps, started.id, locals);
  if (!opts.wait) return { ...started, activityId };
  const ended = await waitFor(http, started.id, opts.wait, deps);
  return { ...(await conclude(http, deps, ended)), activityId };
}

/** `da workitem get`: a work item's status, or with `wait` its end (outputs fetched, failure an error). */
export async function runDaWorkItemGet(
  opts: { id: string; wait?: WorkItemWait },
  deps: OpsDeps,
): Promise<WorkItemResult> {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(opts.id)) {
    throw fieldError({
      field: "id",
      problem: `invalid work item id '${opts.id}'`,
      help: "Use the id {step} answered, e.g. f62103c311a54a6ba571a0950ce6eca3.",
      next: { command: "diazo da workitem run", tool: "da_workitem_run" },
    });
  }
  const http = await deps.http();
  const status = opts.wait ? await waitFor(http, opts.id, opts.wait, deps) : await getWorkItem(http, opts.id);
  return isFinished(status.status) ? await conclude(http, deps, status) : status;
}
