/**
 * Completion values from the platform: the app's bucket keys and the projects the login can see, for
 * the profile in use (or the `--profile` typed on the line). Asked at most REMOTE_LIMIT_MS (then no
 * values), kept CACHE_TTL_MS in the cache dir (platform/dirs.ts `cacheDirFor`) per source, profile,
 * app and platform address. Never prompts, never logs in: without credentials (or a stored user
 * login for projects) there are no values; nothing is written to the terminal.
 */
import { resolve, type Resolved } from "../config/config.ts";
import { loadConfig, loadDotenv } from "../config/store.ts";
import { cacheDirFor, configDirFor, stateDirFor } from "../platform/dirs.ts";
import { writeFileAtomic } from "../platform/fs_write.ts";
import { osPath } from "../platform/path.ts";
import { createSession } from "../session/session.ts";
import type { OpsDeps } from "../session/deps.ts";
import type { Candidate } from "./complete_words.ts";

/** How long a TAB waits for the platform before it offers nothing. */
export const REMOTE_LIMIT_MS = 1500;
/** How long values read from the platform are offered again without asking. */
export const CACHE_TTL_MS = 60_000;

/** At most this many buckets, hubs and projects per hub are asked for. */
const MAX_BUCKETS = 1000;
const MAX_HUBS = 20;
const MAX_PROJECTS = 500;

/** Where a completion runs: its environment, working directory and the `--profile` typed on the line. */
export interface SourceInput {
  env: Record<string, string | undefined>;
  cwd: string;
  profile?: string;
}

/** A remote source. */
export type RemoteSource = "bucket" | "project";

/** The values of a remote source within REMOTE_LIMIT_MS; none on any failure or when the time is up. */
export async function remoteValues(
  source: RemoteSource,
  input: SourceInput,
  limitMs = REMOTE_LIMIT_MS,
): Promise<Candidate[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Candidate[]>((done) => timer = setTimeout(() => done([]), limitMs));
  try {
    return await Promise.race([lookup(source, input).catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The values from the cache while fresh, else from the platform (then cached). */
async function lookup(source: RemoteSource, input: SourceInput): Promise<Candidate[]> {
  const env = (k: string) => input.env[k];
  const configDir = configDirFor(env, Deno.build.os);
  const [config, dotenv] = await Promise.all([loadConfig(configDir), loadDotenv(input.cwd)]);
  const resolved = resolve({ flags: { profile: input.profile }, env: input.env, dotenv, config });
  if (!resolved.clientId.value) return [];
  const key = {
    source,
    profile: resolved.profileName,
    clientId: resolved.clientId.value,
    baseUrl: resolved.baseUrl.value,
  };
  const file = await cacheFile(cacheDirFor(env, Deno.build.os), key);
  const cached = await readCache(file, key);
  if (cached) return cached;
  const deps = quietDeps(input, configDir, resolved);
  const values = source === "bucket" ? await buckets(deps) : await projects(deps);
  await writeFileAtomic(file, JSON.stringify({ ...key, at: Date.now(), values }), 0o600).catch(() => {});
  return values;
}

/** What a cache file is kept for. */
type CacheKey = { source: RemoteSource; profile: string; clientId: string; baseUrl: string };

/** The cache file of a key: `completion/<source>-<16 hex digits of its SHA-256>.json`. */
async function cacheFile(dir: string, key: CacheKey): Promise<string> {
  const text = new TextEncoder().encode([key.profile, key.clientId, key.baseUrl].join("\n"));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", text));
  const hex = [...hash.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return osPath().join(dir, "completion", `${key.source}-${hex}.json`);
}

/** The cached values of `key` if the file holds them and is younger than CACHE_TTL_MS. */
async function readCache(file: string, key: CacheKey): Promise<Candidate[] | undefined> {
  try {
    const data = JSON.parse(await Deno.readTextFile(file));
    const age = Date.now() - data.at;
    const same = data.source === key.source && data.profile === key.profile &&
      data.clientId === key.clientId && data.baseUrl === key.baseUrl;
    if (!same || !(age >= 0 && age < CACHE_TTL_MS) || !Array.isArray(data.values)) return undefined;
    return cleaned(data.values.map((v: Candidate) => ({ value: v?.value, description: v?.description })));
  } catch {
    return undefined; // absent or damaged: only a cache
  }
}

/** True for a character that has no place in a completion line: a control (and, in a value, a space). */
const isControl = (ch: string) => ch < " " || ch === "\x7f";

/** The values a shell can take: one word without controls, and a description without them. */
function cleaned(list: readonly { value: unknown; description: unknown }[]): Candidate[] {
  const word = (v: unknown): v is string =>
    typeof v === "string" && v !== "" && ![...v].some((ch) => ch === " " || isControl(ch));
  return list.filter((c) => word(c.value)).map((c) => ({
    value: c.value as string,
    description: typeof c.description === "string"
      ? [...c.description].map((ch) => (isControl(ch) ? " " : ch)).join("")
      : "",
  }));
}

/**
 * The dependencies of a verb for a completion: silent (no warning, notice or debug line), one attempt
 * per request and a request timeout of the completion's own limit, never a prompt.
 */
function quietDeps(input: SourceInput, configDir: string, resolved: Resolved): OpsDeps {
  const quiet = () => {};
  const settings = {
    ...resolved,
    timeoutSec: Math.min(resolved.timeoutSec, REMOTE_LIMIT_MS / 1000),
    maxAttempts: 1,
  };
  const stateDir = stateDirFor((k) => input.env[k], Deno.build.os);
  const session = createSession({
    env: input.env,
    configDir,
    stateDir,
    settings: () => Promise.resolve(settings),
    debugEnabled: false,
    debug: quiet,
    warn: quiet,
    run: {},
  });
  return {
    ...session,
    settings: () => Promise.resolve(settings),
    cwd: input.cwd,
    stateDir,
    info: quiet,
    warn: quiet,
    debug: quiet,
  };
}

/** The app's bucket keys in every region, with their region and policy. */
async function buckets(deps: OpsDeps): Promise<Candidate[]> {
  const { runBucketList } = await import("../families/bucket/verbs.ts");
  const page = await runBucketList({ limit: MAX_BUCKETS }, deps);
  return cleaned(page.items.map((b) => ({
    value: b.bucketKey,
    description: [b.region, b.policyKey].filter(Boolean).join(", "),
  })));
}

/** The projects of every hub the login sees (the user's when stored and usable, else the app's), with their names. */
async function projects(deps: OpsDeps): Promise<Candidate[]> {
  const [{ runHubList, runProjectList }, { dmHubId }] = await Promise.all([
    import("../families/dm/verbs.ts"),
    import("../aps/dm_ids.ts"),
  ]);
  const hubs = await runHubList({ usable: true, limit: MAX_HUBS }, deps);
  const pages = await Promise.all(
    hubs.items.map((h) =>
      runProjectList({ usable: true, limit: MAX_PROJECTS, hub: dmHubId(h.id) }, deps).catch(() => undefined)
    ),
  );
  return cleaned(
    pages.flatMap((p) => p?.items ?? []).map((p) => ({
      value: p.id,
      description: typeof p.attributes?.name === "string" ? p.attributes.name : "project",
    })),
  );
}
