/**
 * The sandbox's built-in engine: what every activity does when a work item runs it. It downloads
 * each input argument (verb `get`/`head`) through its URL, as the platform does; fails the work item
 * (`failedInstructions`) when an input or a `read` value carries the marker `DIAZO_FAIL`; otherwise
 * writes the inputs' bytes, concatenated in parameter order (or, with no downloaded input, the
 * `read` values, one per line), to each output argument (verb `put`/`post`/`patch`) through its URL.
 * Every step is written to the work item's report. Nothing here waits on timers; the sandbox clock
 * decides when the outcome shows (workitems.ts).
 */

import { concatBytes } from "../../core/bytes.ts";
import { nowMs } from "../clock.ts";
import type { SandboxContext } from "../context.ts";
import type { DaFinalStatus, DaParameter, DaWorkItem } from "./store.ts";

/** Text that makes the built-in engine fail a work item. */
export const DA_FAIL_MARKER = "DIAZO_FAIL";
/** Largest input the built-in engine downloads (as `limitPayloadSizeInKB`-style limits elsewhere). */
const INPUT_LIMIT = 100 * 1024 * 1024;

const INPUT_VERBS = new Set(["get", "head"]);
const OUTPUT_VERBS = new Set(["put", "post", "patch"]);

class EngineFailure extends Error {
  constructor(readonly status: DaFinalStatus, message: string) {
    super(message);
  }
}

function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

function headersOf(arg: Record<string, unknown>): Record<string, string> {
  const h = arg.headers;
  if (!h || typeof h !== "object") return {};
  return Object.fromEntries(Object.entries(h as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/** Downloads one input argument; the bytes, or a `failedDownload`. */
async function download(name: string, arg: Record<string, unknown>, log: (l: string) => void) {
  const url = String(arg.url ?? "");
  log(`Downloading input '${name}' from ${shownUrl(url)}`);
  let res: Response;
  try {
    res = await fetch(url, { headers: headersOf(arg) });
  } catch (e) {
    throw new EngineFailure("failedDownload", `Error downloading '${name}': ${String(e)}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new EngineFailure("failedDownload", `Error downloading '${name}': HTTP ${res.status}`);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > INPUT_LIMIT) throw new EngineFailure("failedDownload", `Input '${name}' is over 100 MB`);
  log(`Downloaded '${name}': ${bytes.length} bytes`);
  return bytes;
}

/** Uploads the result to one output argument, or fails with `failedUpload`. */
async function upload(
  name: string,
  param: DaParameter,
  arg: Record<string, unknown>,
  body: Uint8Array<ArrayBuffer>,
  log: (l: string) => void,
): Promise<void> {
  const url = String(arg.url ?? "");
  const verb = String(arg.verb ?? param.verb).toUpperCase();
  log(`Uploading output '${name}' (${body.length} bytes) to ${shownUrl(url)} with ${verb}`);
  let res: Response;
  try {
    res = await fetch(url, { method: verb, headers: headersOf(arg), body });
  } catch (e) {
    throw new EngineFailure("failedUpload", `Error uploading '${name}': ${String(e)}`);
  }
  await res.body?.cancel();
  if (!res.ok) throw new EngineFailure("failedUpload", `Error uploading '${name}': HTTP ${res.status}`);
}

/** The engine's work for `wi` with the activity's `parameters` and `commandLine`. */
async function work(
  sb: SandboxContext,
  wi: DaWorkItem,
  activity: { parameters: Record<string, DaParameter>; commandLine: string[] },
  log: (l: string) => void,
): Promise<void> {
  const stamp = () => new Date(nowMs(sb.clock)).toISOString();
  const entries = Object.entries(activity.parameters);
  const inputs: Uint8Array[] = [];
  const values: string[] = [];
  wi.stats.timeDownloadStarted = stamp();
  for (const [name, param] of entries) {
    const arg = wi.arguments[name];
    if (!arg) continue;
    if (param.verb === "read" || arg.value !== undefined) {
      const text = typeof arg.value === "string" ? arg.value : JSON.stringify(arg.value);
      values.push(text);
      if (text.includes(DA_FAIL_MARKER)) {
        throw new EngineFailure("failedInstructions", `Value '${name}' is marked to fail`);
      }
    } else if (INPUT_VERBS.has(String(arg.verb ?? param.verb).toLowerCase())) {
      const bytes = await download(name, arg, log);
      wi.stats.bytesDownloaded = Number(wi.stats.bytesDownloaded ?? 0) + bytes.length;
      inputs.push(bytes);
      if (new TextDecoder().decode(bytes).includes(DA_FAIL_MARKER)) {
        wi.stats.timeInstructionsStarted = stamp();
        log(`Running: ${activity.commandLine.join(" ")}`);
        throw new EngineFailure(
          "failedInstructions",
          `Input '${name}' is marked to fail (it contains ${DA_FAIL_MARKER})`,
        );
      }
    }
  }
  wi.stats.timeInstructionsStarted = stamp();
  log(`Running: ${activity.commandLine.join(" ")}`);
  const result = inputs.length > 0 ? concatBytes(inputs) : new TextEncoder().encode(values.join("\n"));
  wi.stats.timeInstructionsEnded = stamp();
  for (const [name, param] of entries) {
    const arg = wi.arguments[name];
    if (!arg || !OUTPUT_VERBS.has(String(arg.verb ?? param.verb).toLowerCase())) continue;
    await upload(name, param, arg, result, log);
    wi.stats.bytesUploaded = Number(wi.stats.bytesUploaded ?? 0) + result.length;
  }
  wi.stats.timeUploadEnded = stamp();
}

/** Runs the engine for `wi` in the background; `done` is called once its outcome is set. */
export function startEngine(
  sb: SandboxContext,
  wi: DaWorkItem,
  activity: { engine: string; parameters: Record<string, DaParameter>; commandLine: string[] },
  done: () => void,
): void {
  const log = (line: string) => wi.report.push(`[${new Date(nowMs(sb.clock)).toISOString()}] ${line}`);
  log(`Starting work item ${wi.id}`);
  log(`Activity ${wi.activityId} on engine ${activity.engine} (the sandbox's built-in engine)`);
  void work(sb, wi, activity, log).then(
    () => "success" as const,
    (e) => {
      log(e instanceof EngineFailure ? `Error: ${e.message}` : `Error: ${String(e)}`);
      return e instanceof EngineFailure ? e.status : "failedInstructions" as const;
    },
  ).then((status) => {
    if (wi.outcome === "cancelled") return;
    log(`Finished: ${status}`);
    wi.outcome = status;
    done();
  });
}
