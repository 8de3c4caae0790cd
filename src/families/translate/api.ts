/**
 * Model Derivative v2 (openapi/modelderivative/modelderivative.yaml): translation jobs, manifests, model
 * views, object trees, properties, and waiting for a job. Plain functions over an injected Http.
 * The manifest's shapes are in manifest.ts; derivative downloads are in files.ts, loaded only by the
 * verbs that download (it brings the download stack and node:path).
 */
import { segment } from "../../http/path.ts";
import { DiazoError } from "../../core/errors.ts";
import type { OutputFormat } from "../../aps/derivative_formats.ts";
import type { Urn } from "../../aps/ids.ts";
import type { Http } from "../../http/http.ts";
import { type Manifest, manifestMessages } from "./manifest.ts";
import type { PollOptions } from "../../http/poll_options.ts";

export * from "./manifest.ts";
export { DEFAULT_POLL_BASE_MS, DEFAULT_POLL_MAX_MS, type PollOptions } from "../../http/poll_options.ts";
import { DATA_READ, DATA_READ_WRITE } from "../../aps/scope_constants.ts";

const BASE = "/modelderivative/v2/designdata";

/** The body of a translation job (`JobPayload`). */
export interface JobPayload {
  input: { urn: string; compressedUrn?: boolean; rootFilename?: string; checkReferences?: boolean };
  output: { destination?: { region: string }; formats: OutputFormat[] };
  misc?: { workflow?: string; workflowAttribute?: Record<string, unknown> };
}

/** The answer to a job request. */
export interface JobResponse {
  result: string;
  urn: string;
  acceptedJobs?: { output?: { formats?: OutputFormat[] } };
  [key: string]: unknown;
}

/** A started job: the platform's answer and its status (201: the derivatives already exist). */
export interface StartedJob {
  status: number;
  data: JobResponse;
}

/** One model view (`metadata` entry). */
export interface ModelView {
  name?: string;
  role: string;
  guid: string;
  isMasterView?: boolean;
  [key: string]: unknown;
}

/** Options shared by the requests that take the platform's `region` header. */
export interface RegionOption {
  region?: string;
  signal?: AbortSignal;
}

function urnPath(urn: Urn, rest = ""): string {
  return `${BASE}/${segment(urn)}${rest}`;
}

function regionHeaders(region?: string): Record<string, string> {
  return region ? { region } : {};
}

/** Builds a job body from a URN and output formats. */
export function jobPayload(
  urn: Urn,
  formats: OutputFormat[],
  opts: { rootFilename?: string; workflow?: string } = {},
): JobPayload {
  const input: JobPayload["input"] = { urn };
  if (opts.rootFilename) {
    input.compressedUrn = true;
    input.rootFilename = opts.rootFilename;
  }
  const payload: JobPayload = { input, output: { formats } };
  if (opts.workflow) payload.misc = { workflow: opts.workflow };
  return payload;
}

/** Starts a translation job; `force` regenerates derivatives that exist (header `x-ads-force`). */
export async function startJob(
  http: Http,
  payload: JobPayload,
  opts: RegionOption & { force?: boolean } = {},
): Promise<StartedJob> {
  const res = await http.request<JobResponse>({
    method: "POST",
    path: `${BASE}/job`,
    headers: { "x-ads-force": String(Boolean(opts.force)), ...regionHeaders(opts.region) },
    json: payload,
    // Posting the same job again is harmless unless it forces a rebuild.
    retry: opts.force ? "auto" : "always",
    key: payload.input.urn,
    scope: DATA_READ_WRITE,
    signal: opts.signal,
  });
  return { status: res.status, data: res.data };
}

/** The manifest of a source design; a missing one (never translated) is the not_found error. */
export async function getManifest(http: Http, urn: Urn, opts: RegionOption = {}): Promise<Manifest> {
  return (await getManifestWithHeaders(http, urn, opts)).manifest;
}

/** The manifest and the answer's headers (their `Date` tells the server's time). */
export async function getManifestWithHeaders(
  http: Http,
  urn: Urn,
  opts: RegionOption = {},
): Promise<{ manifest: Manifest; headers: Headers }> {
  const res = await http.request<Manifest>({
    path: urnPath(urn, "/manifest"),
    headers: regionHeaders(opts.region),
    key: `manifest of ${urn}`,
    scope: DATA_READ,
    signal: opts.signal,
  });
  return { manifest: res.data, headers: res.headers };
}

/** Deletes a manifest and every derivative of the design (idempotent). */
export async function deleteManifest(http: Http, urn: Urn, opts: RegionOption = {}): Promise<unknown> {
  const res = await http.request({
    method: "DELETE",
    path: urnPath(urn, "/manifest"),
    headers: regionHeaders(opts.region),
    key: `manifest of ${urn}`,
    scope: DATA_READ_WRITE,
    signal: opts.signal,
  });
  return res.data;
}

/** The model views of a translated design (`metadata`). */
export async function listViews(http: Http, urn: Urn, opts: RegionOption = {}): Promise<ModelView[]> {
  const res = await http.request<{ data?: { metadata?: ModelView[] } }>({
    path: urnPath(urn, "/metadata"),
    headers: regionHeaders(opts.region),
    key: `metadata of ${urn}`,
    scope: DATA_READ,
    signal: opts.signal,
  });
  return res.data?.data?.metadata ?? [];
}

/** The view whose tree and properties are shown by default: the master 3D view, else the first 3D, else the first. */
export function defaultView(views: readonly ModelView[]): ModelView | undefined {
  return views.find((v) => v.role === "3d" && v.isMasterView) ?? views.find((v) => v.role === "3d") ??
    views[0];
}

/** Options of the object tree and properties requests. */
export interface ExtractOptions extends RegionOption, PollOptions {
  objectId?: number;
  /** Bypasses the platform's 20 MB answer limit (up to 800 MB). */
  forceGet?: boolean;
}

function extractQuery(opts: ExtractOptions): Record<string, string | number | undefined> {
  return { objectid: opts.objectId, forceget: opts.forceGet ? "true" : undefined };
}

/** A metadata request of one view (`tail` after its guid), asked again while the platform answers 202. */
async function extract(
  http: Http,
  urn: Urn,
  guid: string,
  tail: string,
  opts: ExtractOptions,
): Promise<unknown> {
  const { pollWhileAccepted } = await import("../../http/poll.ts"); // loaded only for a wait
  return await pollWhileAccepted(http, {
    path: urnPath(urn, `/metadata/${segment(guid)}${tail}`),
    query: extractQuery(opts),
    headers: regionHeaders(opts.region),
    key: `view ${guid} of ${urn}`,
    scope: DATA_READ,
  }, opts);
}

/** The object tree of a view, asking again while the platform answers 202 (still extracting). */
export function getObjectTree(
  http: Http,
  urn: Urn,
  guid: string,
  opts: ExtractOptions = {},
): Promise<unknown> {
  return extract(http, urn, guid, "", opts);
}

/** The properties of a view's objects, asking again while the platform answers 202. */
export function getProperties(
  http: Http,
  urn: Urn,
  guid: string,
  opts: ExtractOptions = {},
): Promise<unknown> {
  return extract(http, urn, guid, "/properties", opts);
}

/** Source formats per output type (`{"formats": {"svf2": ["dwg", ...], ...}}`). */
export async function listFormats(
  http: Http,
  opts: { signal?: AbortSignal } = {},
): Promise<Record<string, string[]>> {
  const res = await http.request<{ formats?: Record<string, string[]> }>({
    path: `${BASE}/formats`,
    scope: DATA_READ,
    signal: opts.signal,
  });
  return res.data?.formats ?? {};
}

/** The platform's statuses that end a job. */
const DONE = new Set(["success", "failed", "timeout"]);

/** How long a job may stay `pending` before diazo calls it stalled (the seed's 30 minutes). */
export const DEFAULT_STALL_AFTER_MS = 30 * 60_000;

/** Options of `waitForJob`. */
export interface JobWaitOptions extends PollOptions {
  region?: string;
  /** Called with every manifest read, e.g. to draw progress. */
  onProgress?: (manifest: Manifest) => void;
  /** A job pending for longer than this is `translation_stalled` (default 30 minutes). */
  stallAfterMs?: number;
  /** When the job was started (local ms); by default, when it was first seen pending. */
  startedAt?: number;
}

/**
 * Polls a manifest with growing delays until the job ends. Returns the manifest on success; throws
 * `translation_failed` (the manifest's messages in `params.detail`, the manifest as `body`) when it
 * failed or timed out at the platform, `translation_stalled` when it stayed pending too long, and
 * `timeout` when `timeoutMs` passed first.
 *
 * Time pending is measured by the local clock and, when answers carry one, by the server's `Date`
 * header, whichever is longer: a server whose clock jumps ahead (the sandbox's) is believed.
 */
export async function waitForJob(http: Http, urn: Urn, opts: JobWaitOptions = {}): Promise<Manifest> {
  const now = opts.now ?? Date.now;
  const stallAfterMs = opts.stallAfterMs ?? DEFAULT_STALL_AFTER_MS;
  const { startPollClock } = await import("../../http/poll.ts"); // loaded only for a wait
  const clock = startPollClock(opts);
  let pendingSince: { local: number; server?: number } | undefined;
  for (;;) {
    const { manifest, headers } = await getManifestWithHeaders(http, urn, opts);
    opts.onProgress?.(manifest);
    if (manifest.status === "success") return manifest;
    if (DONE.has(manifest.status)) {
      const detail = manifestMessages(manifest).filter((m) => m.type !== "warning")
        .map((m) => (m.code ? `${m.code}: ${m.message}` : m.message)).join("; ");
      throw new DiazoError("translation_failed", {
        body: manifest,
        params: {
          urn,
          status: manifest.status,
          detail: detail || `the manifest's status is ${manifest.status}`,
        },
      });
    }
    const server = serverTime(headers);
    if (manifest.status === "pending") {
      pendingSince ??= { local: opts.startedAt ?? now(), server };
      const pendingFor = Math.max(
        now() - pendingSince.local,
        server !== undefined && pendingSince.server !== undefined ? server - pendingSince.server : 0,
      );
      if (pendingFor > stallAfterMs) {
        throw new DiazoError("translation_stalled", {
          body: manifest,
          params: { urn, minutes: Number((pendingFor / 60_000).toFixed(pendingFor < 60_000 ? 2 : 0)) },
        });
      }
    } else {
      pendingSince = undefined;
    }
    await clock.pause();
  }
}

/** The server's time from a `Date` header, or undefined. */
function serverTime(headers: Headers): number | undefined {
  const value = headers.get("date");
  if (!value) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
