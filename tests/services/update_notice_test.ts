/** The update notice's decisions: when to check, when to tell, version order, GitHub's answer. */
import assert from "node:assert/strict";
import {
  afterFetch,
  compareVersions,
  DAY_MS,
  isNewer,
  noticeText,
  parseLatestRelease,
  parseUpdateState,
  planUpdateCheck,
  RETRY_MS,
} from "../../src/front/update_plan.ts";
import { updateCheckDisabled } from "../../src/front/update_notice.ts";

const TTY = { stdoutIsTerminal: true, stderrIsTerminal: true };
const NOW = new Date("2026-11-21T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const REL = { version: "0.2.0", url: "https://example.test/releases/tag/v0.2.0" };

Deno.test("no check when turned off, in CI, or when stdout or stderr is not a terminal", () => {
  assert.equal(updateCheckDisabled({ env: {}, ...TTY }), undefined);
  assert.match(
    updateCheckDisabled({ env: { DIAZO_NO_UPDATE_NOTIFIER: "1" }, ...TTY })!,
    /DIAZO_NO_UPDATE_NOTIFIER/,
  );
  assert.equal(updateCheckDisabled({ env: { DIAZO_NO_UPDATE_NOTIFIER: "" }, ...TTY }), undefined);
  for (const name of ["CI", "BUILD_NUMBER", "RUN_ID", "GITHUB_ACTIONS"]) {
    assert.match(updateCheckDisabled({ env: { [name]: "true" }, ...TTY })!, new RegExp(name));
  }
  assert.equal(updateCheckDisabled({ env: { CI: "false" }, ...TTY }), undefined);
  assert.match(
    updateCheckDisabled({ env: {}, stdoutIsTerminal: false, stderrIsTerminal: true })!,
    /terminal/,
  );
  assert.match(
    updateCheckDisabled({ env: {}, stdoutIsTerminal: true, stderrIsTerminal: false })!,
    /terminal/,
  );
});

Deno.test("semver order: numbers, not strings; pre-releases before their release; v prefix and build metadata", () => {
  assert.ok(compareVersions("0.10.0", "0.9.9") > 0);
  assert.ok(compareVersions("1.0.0", "1.0.0-rc.1") > 0);
  assert.ok(compareVersions("1.0.0-rc.2", "1.0.0-rc.10") < 0);
  assert.ok(compareVersions("1.0.0-alpha", "1.0.0-alpha.1") < 0);
  assert.ok(compareVersions("1.0.0-1", "1.0.0-alpha") < 0);
  assert.equal(compareVersions("v1.2.3", "1.2.3+build.7"), 0);
  assert.ok(Number.isNaN(compareVersions("dev", "1.0.0")));
  assert.equal(isNewer("0.2.0", "0.1.0"), true);
  assert.equal(isNewer("0.1.0", "0.1.0"), false);
  assert.equal(isNewer("garbage", "0.1.0"), false);
});

Deno.test("at most one fetch a day", () => {
  assert.equal(planUpdateCheck({}, NOW, "0.1.0").fetch, true);
  assert.equal(planUpdateCheck({ checked_at: ago(DAY_MS - 60_000) }, NOW, "0.1.0").fetch, false);
  assert.equal(planUpdateCheck({ checked_at: ago(DAY_MS) }, NOW, "0.1.0").fetch, true);
  assert.equal(planUpdateCheck({ checked_at: "not a date" }, NOW, "0.1.0").fetch, true);
  assert.equal(
    planUpdateCheck({ checked_at: ago(-DAY_MS) }, NOW, "0.1.0").fetch,
    true,
    "a time in the future",
  );
});

Deno.test("a fetch that began within the hour and never ended is not begun again yet", () => {
  assert.equal(planUpdateCheck({ started_at: ago(60_000) }, NOW, "0.1.0").fetch, false);
  assert.equal(planUpdateCheck({ started_at: ago(RETRY_MS + 1) }, NOW, "0.1.0").fetch, true);
  assert.equal(
    planUpdateCheck({ started_at: ago(-60_000) }, NOW, "0.1.0").fetch,
    true,
    "a time in the future",
  );
  assert.equal(
    planUpdateCheck({ started_at: ago(RETRY_MS + 1), checked_at: ago(60_000) }, NOW, "0.1.0").fetch,
    false,
    "one that ended counts for the day",
  );
});

Deno.test("a newer release found earlier is told at most once a day; an older or equal one never", () => {
  const base = { checked_at: ago(1000), latest: REL };
  assert.deepEqual(planUpdateCheck(base, NOW, "0.1.0").notice, REL);
  assert.equal(planUpdateCheck({ ...base, notified_at: ago(3600_000) }, NOW, "0.1.0").notice, undefined);
  assert.deepEqual(planUpdateCheck({ ...base, notified_at: ago(DAY_MS + 1) }, NOW, "0.1.0").notice, REL);
  assert.equal(planUpdateCheck(base, NOW, "0.2.0").notice, undefined);
  assert.equal(planUpdateCheck(base, NOW, "0.3.0").notice, undefined);
});

Deno.test("afterFetch records the attempt and the answer; a failed fetch keeps what was known", () => {
  const found = afterFetch({}, REL, NOW, "0.1.0");
  assert.deepEqual(found.state, { checked_at: NOW.toISOString(), latest: REL });
  assert.deepEqual(found.notice, REL);
  const failed = afterFetch({ latest: REL, notified_at: ago(60_000) }, undefined, NOW, "0.1.0");
  assert.deepEqual(failed.state.latest, REL);
  assert.equal(failed.state.checked_at, NOW.toISOString());
  assert.equal(failed.notice, undefined, "told a minute ago");
  assert.equal(afterFetch({}, { ...REL, version: "0.1.0" }, NOW, "0.1.0").notice, undefined);
});

Deno.test("GitHub's latest-release JSON: tag without v, page URL; drafts, pre-releases and junk are not releases", () => {
  assert.deepEqual(
    parseLatestRelease({ tag_name: "v1.4.0", html_url: "https://github.com/o/r/releases/tag/v1.4.0" }),
    {
      version: "1.4.0",
      url: "https://github.com/o/r/releases/tag/v1.4.0",
    },
  );
  assert.match(parseLatestRelease({ tag_name: "1.4.0" })!.url, /releases\/tag\/v1\.4\.0$/);
  assert.equal(parseLatestRelease({ tag_name: "v2.0.0", prerelease: true }), undefined);
  assert.equal(parseLatestRelease({ tag_name: "v2.0.0", draft: true }), undefined);
  assert.equal(parseLatestRelease({ tag_name: "nightly" }), undefined);
  assert.equal(parseLatestRelease({ message: "Not Found" }), undefined);
  assert.equal(parseLatestRelease(null), undefined);
  assert.equal(
    parseLatestRelease({ tag_name: "v1.0.0", html_url: "javascript:alert(1)" })!.url.startsWith("https://"),
    true,
  );
});

Deno.test("the notice names both versions, the URL and how to turn it off; a broken state file is an empty state", () => {
  const text = noticeText("0.1.0", REL);
  assert.match(text, /0\.1\.0 → 0\.2\.0/);
  assert.ok(text.includes(REL.url));
  assert.match(text, /DIAZO_NO_UPDATE_NOTIFIER/);
  assert.deepEqual(parseUpdateState("{not json"), {});
  assert.deepEqual(parseUpdateState("[1]"), {});
  assert.deepEqual(parseUpdateState(undefined), {});
  assert.deepEqual(parseUpdateState('{"checked_at":"x"}'), { checked_at: "x" });
});
