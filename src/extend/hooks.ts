/**
 * Hook rules (README.md, "Plugins, hooks and aliases"): which `pre_`/`post_` hook names a command has, when
 * its post hooks run, and the `DIAZO_*` environment that tells a hook what happened. Running them is the
 * caller's job.
 */
import { timerNumber } from "../core/bounds.ts";
import { type ParsedUrn, parseUrn } from "../aps/urn.ts";

/** Before or after the command. */
export type HookPhase = "pre" | "post";

/** Short names some commands are known by, besides `<family>_<sub>`. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  "object upload": "upload",
  "translate": "translate",
  "translate start": "translate",
  "auth login": "login",
};

/** Commands whose post hooks run when they end either way, not only after success. */
const POST_EITHER_WAY = new Set(["translate", "translate start"]);

/**
 * The hook names of a command path, in the order they run: the short name where there is one
 * (`object upload` → `pre_upload`), then the full one (`pre_object_upload`). Dashes become `_`.
 */
export function hookNames(commandPath: readonly string[], phase: HookPhase): string[] {
  const key = commandPath.join(" ");
  const full = commandPath.map((w) => w.replace(/-/g, "_")).join("_");
  const names = [SHORT_NAMES[key], full].filter((n): n is string => Boolean(n));
  return [...new Set(names)].map((n) => `${phase}_${n}`);
}

/** Whether post hooks run after a command that ended with `exitCode`. */
export function postHooksRun(commandPath: readonly string[], exitCode: number): boolean {
  return exitCode === 0 || POST_EITHER_WAY.has(commandPath.join(" "));
}

/** What a hook is told about the command. */
export interface HookContext {
  hookName: string;
  commandPath: readonly string[];
  /** The command's arguments by their declared names (e.g. bucketKey, objectKey, urn, files). */
  args: Readonly<Record<string, unknown>>;
  /** The command's own options. */
  options: Readonly<Record<string, unknown>>;
  /** Post hooks: the exit code. */
  exitCode?: number;
  /** Post hooks: the result the command emitted. */
  result?: unknown;
  /** Post hooks: the file holding the result as JSON. */
  resultFile?: string;
}

function text(v: unknown): string | undefined {
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) return text(v[0]);
  return undefined;
}

/** The result's fields when it is one record (or a list of exactly one). */
function resultRecord(result: unknown): Record<string, unknown> {
  const one = Array.isArray(result) && result.length === 1 ? result[0] : result;
  return typeof one === "object" && one !== null && !Array.isArray(one) ? one as Record<string, unknown> : {};
}

/**
 * The URN a command names, read as every spelling gives it: a parsed URN (`translate start`), or the
 * text typed (the `translate <urn>` shorthand, which parses its words itself); base64 or raw. An OSS
 * object's URN names its bucket and key too. Text that is no URN stays as typed.
 */
function urnSubject(v: unknown): { urn?: string; bucketKey?: string; objectKey?: string } {
  if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as ParsedUrn;
  const typed = text(v);
  if (typed === undefined) return {};
  try {
    return parseUrn(typed);
  } catch {
    return { urn: typed };
  }
}

/**
 * The object key `object upload` will write, before it runs: `--key`, else for one file (no --batch)
 * `--prefix` and the file's name, as src/families/object/upload.ts names it.
 */
function uploadKey(args: HookContext["args"], options: HookContext["options"]): unknown {
  if (options.key !== undefined) return options.key;
  const files = Array.isArray(args.files) ? args.files : [];
  if (files.length !== 1 || options.batch || typeof files[0] !== "string") return undefined;
  const name = files[0].split(/[\\/]/).pop();
  return name ? `${typeof options.prefix === "string" ? options.prefix : ""}${name}` : undefined;
}

/**
 * The subject of a command: bucket, object key, URN and file, from its result (post hooks) and
 * else from its arguments and options, the same whichever spelling of the command was typed.
 */
export function subjectEnv(ctx: Pick<HookContext, "commandPath" | "args" | "options" | "result">): Record<
  string,
  string
> {
  const r = resultRecord(ctx.result);
  const a = ctx.args;
  const command = ctx.commandPath.join(" ");
  // `--key` is the bucket key in the bucket family and the object key of `object upload`.
  const bucketOption = ctx.commandPath[0] === "bucket" ? ctx.options.key : ctx.options.bucket;
  const objectKeyOption = command === "object upload" ? uploadKey(a, ctx.options) : undefined;
  const u = urnSubject(a.urn);
  const pick: Record<string, unknown[]> = {
    DIAZO_BUCKET: [r.bucketKey, a.bucketKey, a.bucket, bucketOption, u.bucketKey],
    DIAZO_OBJECT_KEY: [r.objectKey, a.objectKey, a.objectKeys, objectKeyOption, u.objectKey],
    DIAZO_URN: [r.urn, u.urn],
    DIAZO_FILE: [r.file, a.files, a.file],
  };
  const out: Record<string, string> = {};
  for (const [name, candidates] of Object.entries(pick)) {
    for (const c of candidates) {
      const v = text(c);
      if (v !== undefined) {
        out[name] = v;
        break;
      }
    }
  }
  return out;
}

/** The environment added for one hook run (on top of the inherited one). */
export function hookEnv(ctx: HookContext): Record<string, string> {
  const env: Record<string, string> = {
    DIAZO_HOOK_NAME: ctx.hookName,
    DIAZO_HOOK_COMMAND: ctx.commandPath.join(" "),
    ...subjectEnv(ctx),
  };
  if (ctx.exitCode !== undefined) {
    env.DIAZO_HOOK_STATUS = ctx.exitCode === 0 ? "success" : "failure";
    env.DIAZO_EXIT_CODE = String(ctx.exitCode);
  }
  if (ctx.resultFile !== undefined) env.DIAZO_RESULT_JSON = ctx.resultFile;
  return env;
}

/**
 * A hook timeout in ms from DIAZO_HOOK_TIMEOUT (seconds); undefined when unset; a usage error with the
 * range when it is not a positive number a timer can take.
 */
export function hookTimeoutMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return Math.round(timerNumber("DIAZO_HOOK_TIMEOUT", value, "seconds") * 1000);
}

/** The default hook timeout, seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/**
 * How a timed-out hook's warning ends, by what its stop reached on `os`: on Linux every process it
 * started (found through /proc), on Windows its process tree (`taskkill /T`) or, when that failed,
 * the shell alone and why; elsewhere its process group.
 */
export function hookStopText(os: string, r: { escaped?: number; killFailure?: string }): string {
  if (os === "windows") {
    return r.killFailure
      ? `only its shell was stopped: the processes it started may still run (${r.killFailure})`
      : "was stopped with every process it started (taskkill /T)";
  }
  if (os !== "linux") {
    return "was stopped with its process group (a process it moved to a session of its own is not)";
  }
  const other = r.escaped ? ` (${r.escaped} of them in a session of their own)` : "";
  return `was stopped with every process it started${other}`;
}
