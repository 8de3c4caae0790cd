/**
 * e2e: `diazo sandbox` as a process: its start banner gives one line to paste into another shell
 * (address and credentials), the dashboard and the data dir; a kept data dir's signing key is
 * readable by its owner only.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cliEnv, makeHome, spawnChild, type TestHome } from "./harness.ts";

/** Starts `diazo sandbox <args>` and returns its stdout's first line and its stderr up to "Press Ctrl-C". */
async function banner(home: TestHome, args: string[]) {
  const child = spawnChild(["sandbox", "--port", "0", ...args], { env: cliEnv(home) });
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const err = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("Press Ctrl-C to stop.")) {
    const { value, done } = await err.read();
    if (done) throw new Error(`the sandbox ended before its banner:\n${text}`);
    text += value;
  }
  const url = (await out.read()).value!.split("\n")[0];
  const stop = async () => {
    child.kill("SIGTERM");
    while (!(await err.read()).done) { /* drain */ }
    while (!(await out.read()).done) { /* drain */ }
    return await child.status;
  };
  return { url, text, stop };
}

Deno.test("sandbox banner: one pasteable export line, the dashboard URL and the data dir", async () => {
  const home = await makeHome();
  try {
    const s = await banner(home, []);
    try {
      assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const exports = s.text.split("\n").filter((l) => l.includes("export "));
      assert.deepEqual(exports.map((l) => l.trim()), [
        `export DIAZO_BASE_URL=${s.url} SVC_CLIENT_ID=diazo-sandbox SVC_CLIENT_SECRET=diazo-sandbox-secret`,
      ]);
      assert.match(s.text, new RegExp(`dashboard: +${s.url}/_sandbox/ui\\n`));
      assert.match(s.text, /data dir: +\S+diazo-sandbox-\S+ \(removed on exit\)\n/);
      const ui = await fetch(`${s.url}/_sandbox/ui`);
      await ui.body?.cancel();
      assert.equal(ui.status, 200, "the dashboard it names is served");
    } finally {
      await s.stop();
    }
  } finally {
    await home.cleanup();
  }
});

Deno.test("sandbox --data-dir: the banner names the kept dir; state/signing-key.json is written 0600", async () => {
  const home = await makeHome();
  try {
    const dataDir = join(home.dir, "data");
    const s = await banner(home, ["--data-dir", dataDir]);
    try {
      assert.match(s.text, new RegExp(`data dir: +${dataDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n`));
      if (Deno.build.os !== "windows") {
        const mode = (await Deno.stat(join(dataDir, "state", "signing-key.json"))).mode! & 0o777;
        assert.equal(mode.toString(8), "600");
      }
    } finally {
      await s.stop();
    }
  } finally {
    await home.cleanup();
  }
});

Deno.test("sandbox --data, the old spelling of --data-dir: every service's state is kept; both together are refused", async () => {
  const home = await makeHome();
  try {
    const dataDir = join(home.dir, "data");
    const s = await banner(home, ["--data", dataDir]);
    try {
      assert.match(s.text, /data dir: +\S+data\n/, "kept, not removed on exit");
      // Written only when the state is kept (src/sandbox/persist/durable.ts).
      assert.ok((await Deno.stat(join(dataDir, "state", "signing-key.json"))).isFile);
    } finally {
      await s.stop();
    }
    const both = spawnChild(["sandbox", "--port", "0", "--data", dataDir, "--data-dir", dataDir], {
      env: cliEnv(home),
    });
    const [{ code }, stdout, stderr] = await Promise.all([
      both.status,
      new Response(both.stdout).text(),
      new Response(both.stderr).text(),
    ]);
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.deepEqual(stderr.trimEnd().split("\n"), [
      "error: --data and --data-dir cannot be combined",
      "hint: --data is the old spelling of --data-dir: give `diazo sandbox --data-dir <dir>` alone.",
    ]);
  } finally {
    await home.cleanup();
  }
});
