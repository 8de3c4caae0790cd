/**
 * The update check in the background of a command: reads the newest release (GitHub's "latest
 * release" JSON at DIAZO_UPDATE_URL) with a short timeout and keeps the answer in the state dir.
 * It never delays or fails a command: `finish()` gives a notice only when the work is already done.
 */
import path from "node:path";
import { DEFAULT_UPDATE_URL, updateCheckDisabled, type UpdateEnvironment } from "./update_notice.ts";
import {
  afterFetch,
  noticeText,
  parseLatestRelease,
  parseUpdateState,
  planUpdateCheck,
  type Release,
  type UpdateState,
} from "./update_plan.ts";
import { writeFileAtomic } from "../platform/fs_write.ts";

/** A check running beside a command. */
export interface UpdateCheck {
  /** The notice to print now, if the check has finished and found one (marks it shown). */
  finish(): string | undefined;
  /**
   * `finish()` after giving a fetch still under way up to `graceMs` to end: a command faster than
   * the check would otherwise end it unanswered (at most one run a day waits, for at most that long).
   */
  finishWithin(graceMs: number): Promise<string | undefined>;
  /** Settles when the background work is over (for tests; commands never wait for it). */
  readonly settled: Promise<void>;
}

/** Everything the check needs from its caller. */
export interface UpdateCheckOptions extends UpdateEnvironment {
  stateDir: string;
  version: string;
  now?: () => Date;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The state file in the state dir. */
export function updateStatePath(stateDir: string): string {
  return path.join(stateDir, "update-check.json");
}

async function fetchLatest(
  url: string,
  version: string,
  timeoutMs: number,
  f: typeof fetch,
): Promise<Release | undefined> {
  try {
    const res = await f(url, {
      headers: { accept: "application/vnd.github+json", "user-agent": `diazo/${version}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return undefined;
    }
    return parseLatestRelease(await res.json());
  } catch {
    return undefined;
  }
}

/** Starts the check, or returns undefined when this run has none (CI, no terminal, turned off). */
export function startUpdateCheck(opts: UpdateCheckOptions): UpdateCheck | undefined {
  if (updateCheckDisabled(opts)) return undefined;
  const now = opts.now ?? (() => new Date());
  const file = updateStatePath(opts.stateDir);
  let notifiedAt: string | undefined;
  const withNotice = (s: UpdateState): UpdateState => (notifiedAt ? { ...s, notified_at: notifiedAt } : s);
  const save = (s: UpdateState) =>
    writeFileAtomic(file, JSON.stringify(withNotice(s), null, 2) + "\n").catch(() => {});
  // The state file is tiny and local: read at once, so that a notice due from an earlier run is ready
  // whatever the command's speed; only the release fetch runs in the background.
  let state: UpdateState = {};
  try {
    state = parseUpdateState(Deno.readTextFileSync(file));
  } catch { /* no state yet, or unreadable: as if never checked */ }
  const plan = planUpdateCheck(state, now(), opts.version);
  let ready: Release | undefined = plan.notice;
  let fetching = plan.fetch;
  const settled = (async () => {
    if (!plan.fetch) return;
    try {
      // The start is recorded first: a fetch that its command's end cuts short is tried again
      // within the hour (planUpdateCheck), not every run; one that ends counts for the day.
      state = { ...state, started_at: now().toISOString() };
      await save(state);
      const url = opts.env.DIAZO_UPDATE_URL || DEFAULT_UPDATE_URL;
      const latest = await fetchLatest(url, opts.version, opts.timeoutMs ?? 2000, opts.fetch ?? fetch);
      const after = afterFetch(withNotice(state), latest, now(), opts.version);
      state = after.state;
      if (!notifiedAt) ready = after.notice;
      await save(state);
    } catch { /* never a failure of the command */ }
    fetching = false;
  })();
  const check: UpdateCheck = {
    settled,
    async finishWithin(graceMs) {
      if (fetching) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
        await Promise.race([settled, grace]);
        clearTimeout(timer);
      }
      return check.finish();
    },
    finish() {
      if (!ready || notifiedAt) return undefined;
      const text = noticeText(opts.version, ready);
      notifiedAt = now().toISOString();
      try {
        Deno.mkdirSync(opts.stateDir, { recursive: true });
        Deno.writeTextFileSync(file, JSON.stringify(withNotice(state), null, 2) + "\n");
      } catch { /* the notice may then come again tomorrow */ }
      return text;
    },
  };
  return check;
}
