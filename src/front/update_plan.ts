/**
 * The update notice, pure: whether to look for a newer release (at most daily), whether to tell the
 * user, and what to say. Loaded with the check (update_check.ts), in a run that has one
 * (update_notice.ts decides).
 */
import { RELEASES_REPO } from "./update_notice.ts";

/** One day in milliseconds: the least time between two checks, and between two notices. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** A published release. */
export interface Release {
  version: string;
  url: string;
}

/** What is kept between runs in the state dir. */
export interface UpdateState {
  /** ISO time the last fetch of the newest release ended (with an answer or not). */
  checked_at?: string;
  /** ISO time the last fetch began; one cut short by the end of its command never ends. */
  started_at?: string;
  /** The newest release found by the last successful fetch. */
  latest?: Release;
  /** ISO time the user was last told about `latest`. */
  notified_at?: string;
}

interface Semver {
  core: [number, number, number];
  pre: string[];
}

/** A semantic version (`v` prefix allowed, build metadata ignored), or undefined. */
export function parseSemver(s: string): Semver | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(s.trim());
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split(".") : [] };
}

/** Semver order of a and b: negative, 0 or positive; NaN when either is not a version. */
export function compareVersions(a: string, b: string): number {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (!x || !y) return NaN;
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i] - y.core[i];
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length; // a release outranks its pre-releases
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** True when `latest` is a newer version than `current`. */
export function isNewer(latest: string, current: string): boolean {
  return compareVersions(latest, current) > 0;
}

function olderThanADay(iso: string | undefined, now: Date): boolean {
  const t = iso ? Date.parse(iso) : NaN;
  // A time in the future (a clock set back) counts as old, or the check would stop for good.
  return Number.isNaN(t) || now.getTime() - t >= DAY_MS || t > now.getTime();
}

/** A fetch cut short by its command's end is tried again after this long, not a day. */
export const RETRY_MS = 60 * 60 * 1000;

/** Whether to fetch now, and a notice already due from what an earlier run found. */
export function planUpdateCheck(
  state: UpdateState,
  now: Date,
  current: string,
): { fetch: boolean; notice?: Release } {
  const started = state.started_at ? Date.parse(state.started_at) : NaN;
  const recentlyStarted = now.getTime() - started < RETRY_MS && started <= now.getTime();
  const fetch = olderThanADay(state.checked_at, now) && !recentlyStarted;
  const due = state.latest && isNewer(state.latest.version, current) && olderThanADay(state.notified_at, now);
  return due ? { fetch, notice: state.latest } : { fetch };
}

/** The state after a fetch (undefined when it failed), and the notice it makes due. */
export function afterFetch(
  state: UpdateState,
  latest: Release | undefined,
  now: Date,
  current: string,
): { state: UpdateState; notice?: Release } {
  const next: UpdateState = { ...state, checked_at: now.toISOString(), ...(latest ? { latest } : {}) };
  const due = next.latest && isNewer(next.latest.version, current) && olderThanADay(next.notified_at, now);
  return due ? { state: next, notice: next.latest } : { state: next };
}

/** The newest release from GitHub's "latest release" JSON, or undefined when the answer is not one. */
export function parseLatestRelease(body: unknown): Release | undefined {
  const b = body as { tag_name?: unknown; html_url?: unknown; draft?: unknown; prerelease?: unknown } | null;
  if (!b || typeof b.tag_name !== "string" || b.draft === true || b.prerelease === true) return undefined;
  const version = b.tag_name.replace(/^v/, "");
  if (!parseSemver(version)) return undefined;
  const url = typeof b.html_url === "string" && /^https?:\/\//.test(b.html_url)
    ? b.html_url
    : `https://github.com/${RELEASES_REPO}/releases/tag/v${version}`;
  return { version, url };
}

/** The lines printed on stderr at the end of a command. */
export function noticeText(current: string, latest: Release): string {
  return `\nA new release of diazo is available: ${current} → ${latest.version}\n${latest.url}\n` +
    `(turn this notice off with DIAZO_NO_UPDATE_NOTIFIER=1)\n`;
}

/** Parses the state file's text; anything unreadable is an empty state. */
export function parseUpdateState(text: string | undefined): UpdateState {
  try {
    const v = JSON.parse(text ?? "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v as UpdateState : {};
  } catch {
    return {};
  }
}
