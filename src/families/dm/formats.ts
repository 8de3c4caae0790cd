/**
 * `item formats` and `item download --format`: the other formats a version can be downloaded as, and
 * a download in one of them: a download job (download_api.ts) polled with the wait's backoff
 * (http/poll.ts) until it has finished, then its file through the `object download` machinery
 * (atomic, resumable, SHA-1 checked), named after the version with the format's extension.
 */
import type { DmProjectId, ItemId, VersionId } from "../../aps/ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import type { Http } from "../../http/http.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { downloadTarget } from "../../transfer/download_target.ts";
import { noProgress, type StartProgress } from "../../transfer/progress.ts";
import { downloadShown } from "../object/download.ts";
import { type DmResource, getItemWithTip, getVersion } from "./api.ts";
import { createDownload, getDownloadFormats, getDownloadJob } from "./download_api.ts";
import { dmHttp, type LoginChoice } from "./verbs.ts";
import type { ItemDownloaded } from "./write.ts";
import { storageObject } from "./write.ts";

/** An item (its tip) or a version. */
export type ItemOrVersion = { item: ItemId } | { version: VersionId };

/** How long a download job is waited for without `--timeout`. */
export const DOWNLOAD_JOB_TIMEOUT_MS = 10 * 60_000;

/** The version an item or version id names: the item's tip, or the version itself. */
async function versionOf(http: Http, project: DmProjectId, target: ItemOrVersion): Promise<DmResource> {
  const version = "item" in target
    ? (await getItemWithTip(http, project, target.item)).tip
    : await getVersion(http, project, target.version);
  if (!version) {
    throw usageError(
      "this item has no version",
      "Pick a version with `diazo item versions <project> <item>`.",
    );
  }
  return version;
}

/** One format a version can be downloaded as. */
export interface FormatRow {
  format: string;
  version: string;
  name: string;
}

/** `item formats`: the formats the version (or the item's tip) can be downloaded as. */
export async function runItemFormats(
  opts: LoginChoice & { project: DmProjectId; target: ItemOrVersion },
  deps: OpsDeps,
): Promise<FormatRow[]> {
  const http = await dmHttp(deps, opts);
  const version = await versionOf(http, opts.project, opts.target);
  const formats = await getDownloadFormats(http, opts.project, version.id as VersionId);
  const name = String(version.attributes.name ?? version.attributes.displayName ?? "");
  return formats.map((format) => ({ format, version: version.id, name }));
}

/** What `item download --format` takes. */
export interface FormatDownloadOpts extends LoginChoice {
  project: DmProjectId;
  target: ItemOrVersion;
  format: string;
  out?: string;
  force?: boolean;
  resume?: boolean;
  /** The longest wait for the job (default DOWNLOAD_JOB_TIMEOUT_MS). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** `name` with its extension replaced by `format` (`Tower.rvt` → `Tower.pdf`). */
export function convertedName(name: string, format: string): string {
  const dot = name.lastIndexOf(".");
  return `${dot > 0 ? name.slice(0, dot) : name}.${format}`;
}

/** Polls job `jobId` until it has finished; its download. A failed job is a failure naming the version. */
async function finishedDownload(
  http: Http,
  deps: OpsDeps,
  o: FormatDownloadOpts & { jobId: string; version: string },
): Promise<DmResource> {
  const { startPollClock } = await import("../../http/poll.ts"); // loaded only for a wait
  const clock = startPollClock({
    ...deps.poll,
    timeoutMs: o.timeoutMs ?? DOWNLOAD_JOB_TIMEOUT_MS,
    signal: o.signal,
  });
  for (;;) {
    const poll = await getDownloadJob(http, o.project, o.jobId);
    if ("download" in poll) return poll.download;
    if (poll.job.status === "failed") {
      throw new DiazoError("failure", {
        params: {
          detail:
            `the platform could not convert version ${o.version} to ${o.format} (job ${o.jobId} failed)`,
          hint: "Try another format (`diazo item formats <project> <item>` lists them) or a later version.",
        },
      });
    }
    deps.debug(`download job ${o.jobId}: ${poll.job.status}`);
    await clock.pause();
  }
}

/**
 * `item download --format`: checks the format against the version's formats before anything starts,
 * starts the job, waits for it, and downloads its file into `out` (default: the working directory,
 * under the version's name with the format's extension).
 */
export async function runFormatDownload(
  opts: FormatDownloadOpts,
  deps: OpsDeps,
  progress: StartProgress = noProgress,
): Promise<ItemDownloaded & { format: string }> {
  const http = await dmHttp(deps, opts);
  const version = await versionOf(http, opts.project, opts.target);
  const versionId = version.id as VersionId;
  const formats = await getDownloadFormats(http, opts.project, versionId);
  const format = opts.format.trim().replace(/^\./, "").toLowerCase();
  if (!formats.includes(format)) {
    throw usageError(
      `version ${versionId} cannot be downloaded as '${opts.format}': its formats are ${
        formats.join(", ") || "none"
      }`,
      `Run \`diazo item formats ${opts.project} <item>\` for the formats a version offers, or drop --format for the file itself.`,
    );
  }
  const name = convertedName(
    String(version.attributes.name ?? version.attributes.displayName ?? "download"),
    format,
  );
  const target = await downloadTarget(deps.cwd, name, opts.out);
  const job = await createDownload(http, opts.project, versionId, format);
  const download = await finishedDownload(http, deps, { ...opts, format, jobId: job.id, version: versionId });
  const storage = (download.relationships?.storage as { data?: { id?: string } } | undefined)?.data?.id;
  if (!storage) {
    throw new DiazoError("failure", {
      params: {
        detail: `download ${download.id} names no stored file`,
        hint: "Start the download again; the platform answered a download without its file.",
      },
    });
  }
  const got = await downloadShown(
    http,
    deps,
    { ...opts, ...storageObject(storage), target },
    progress(name, 0),
  );
  const itemId = (version.relationships?.item as { data?: { id?: string } } | undefined)?.data?.id ?? "";
  const n = version.attributes.versionNumber;
  return {
    item: itemId,
    version: versionId,
    versionNumber: n,
    format,
    ...got,
    summary:
      `Downloaded version ${n} of ${version.attributes.name} as ${format} to ${got.file} (${got.size} bytes, SHA-1 verified)`,
  };
}
