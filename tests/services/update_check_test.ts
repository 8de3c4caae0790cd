/** The background update check against a local "latest release" endpoint. */
import assert from "node:assert/strict";
import path from "node:path";
import { startUpdateCheck, updateStatePath } from "../../src/front/update_check.ts";

interface Endpoint {
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}

/** Answers that never came: released when the endpoint closes. */
const pending: ((r: Response) => void)[] = [];

function endpoint(handler: (req: Request) => Response | Promise<Response>): Endpoint {
  let hits = 0;
  const ac = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} }, (req) => {
    hits++;
    return handler(req);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/repos/o/r/releases/latest`,
    hits: () => hits,
    close: async () => {
      for (const answer of pending.splice(0)) answer(new Response(null));
      ac.abort();
      await server.finished;
    },
  };
}

const TTY = { stdoutIsTerminal: true, stderrIsTerminal: true };

async function withStateDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "diazo-update-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a newer release is told once, the answer is kept, and the next run within a day asks nobody", async () => {
  const ep = endpoint(() => Response.json({ tag_name: "v9.0.0", html_url: "https://example.test/v9.0.0" }));
  try {
    await withStateDir(async (stateDir) => {
      const env = { DIAZO_UPDATE_URL: ep.url };
      const first = startUpdateCheck({ env, ...TTY, stateDir, version: "0.1.0" })!;
      await first.settled;
      const notice = first.finish();
      assert.match(notice ?? "", /0\.1\.0 → 9\.0\.0/);
      assert.match(notice ?? "", /https:\/\/example\.test\/v9\.0\.0/);
      assert.equal(first.finish(), undefined, "told once per run");
      assert.equal(ep.hits(), 1);
      const state = JSON.parse(await Deno.readTextFile(updateStatePath(stateDir)));
      assert.equal(state.latest.version, "9.0.0");
      assert.ok(state.checked_at && state.notified_at);

      const second = startUpdateCheck({ env, ...TTY, stateDir, version: "0.1.0" })!;
      await second.settled;
      assert.equal(second.finish(), undefined, "already told today");
      assert.equal(ep.hits(), 1, "no second request within a day");

      const tomorrow = new Date(Date.now() + 25 * 3600_000);
      const third = startUpdateCheck({ env, ...TTY, stateDir, version: "0.1.0", now: () => tomorrow })!;
      await third.settled;
      assert.match(third.finish() ?? "", /9\.0\.0/);
      assert.equal(ep.hits(), 2);
    });
  } finally {
    await ep.close();
  }
});

Deno.test("a slow endpoint never delays the command: no notice yet, and the fetch gives up after its timeout", async () => {
  const ep = endpoint(() => new Promise<Response>((resolve) => pending.push(resolve)));
  try {
    await withStateDir(async (stateDir) => {
      const check = startUpdateCheck({
        env: { DIAZO_UPDATE_URL: ep.url },
        ...TTY,
        stateDir,
        version: "0.1.0",
        timeoutMs: 300,
      })!;
      const t0 = performance.now();
      assert.equal(check.finish(), undefined);
      assert.ok(performance.now() - t0 < 200, "finish() does not wait for the fetch");
      await check.settled;
      assert.ok(performance.now() - t0 < 3000, "the timeout ends the fetch");
      assert.equal(check.finish(), undefined);
      const state = JSON.parse(await Deno.readTextFile(path.join(stateDir, "update-check.json")));
      assert.ok(state.checked_at, "the attempt counts: no retry within the day");
      assert.equal(state.latest, undefined);
    });
  } finally {
    await ep.close();
  }
});

Deno.test("a failing endpoint, or a release that is not newer, gives no notice", async () => {
  for (
    const answer of [() => new Response("boom", { status: 500 }), () => Response.json({ tag_name: "v0.1.0" })]
  ) {
    const ep = endpoint(answer);
    try {
      await withStateDir(async (stateDir) => {
        const check = startUpdateCheck({
          env: { DIAZO_UPDATE_URL: ep.url },
          ...TTY,
          stateDir,
          version: "0.1.0",
        })!;
        await check.settled;
        assert.equal(check.finish(), undefined);
        assert.equal(ep.hits(), 1);
      });
    } finally {
      await ep.close();
    }
  }
});

Deno.test("in CI, without a terminal, or turned off: no check at all", async () => {
  const ep = endpoint(() => Response.json({ tag_name: "v9.0.0" }));
  try {
    await withStateDir(async (stateDir) => {
      const base = { stateDir, version: "0.1.0" };
      assert.equal(
        startUpdateCheck({ env: { DIAZO_UPDATE_URL: ep.url, CI: "1" }, ...TTY, ...base }),
        undefined,
      );
      assert.equal(
        startUpdateCheck({
          env: { DIAZO_UPDATE_URL: ep.url },
          stdoutIsTerminal: false,
          stderrIsTerminal: true,
          ...base,
        }),
        undefined,
      );
      assert.equal(
        startUpdateCheck({
          env: { DIAZO_UPDATE_URL: ep.url, DIAZO_NO_UPDATE_NOTIFIER: "1" },
          ...TTY,
          ...base,
        }),
        undefined,
      );
      await assert.rejects(Deno.stat(updateStatePath(stateDir)), Deno.errors.NotFound, "no state is written");
      assert.equal(ep.hits(), 0);
    });
  } finally {
    await ep.close();
  }
});

Deno.test("a command faster than the check: the end of the run waits for the answer and tells it", async () => {
  const ep = endpoint(() =>
    new Promise<Response>((resolve) =>
      setTimeout(
        () => resolve(Response.json({ tag_name: "v9.1.0", html_url: "https://example.test/v9.1.0" })),
        300,
      )
    )
  );
  try {
    await withStateDir(async (stateDir) => {
      const check = startUpdateCheck({
        env: { DIAZO_UPDATE_URL: ep.url },
        ...TTY,
        stateDir,
        version: "0.1.0",
      })!;
      // The command is done at once; before, its notice was lost and the day's check spent.
      assert.match((await check.finishWithin(10_000)) ?? "", /0\.1\.0 → 9\.1\.0/);
      assert.equal(ep.hits(), 1);
    });
  } finally {
    await ep.close();
  }
});

Deno.test("a fetch cut short by its command's end is tried again within the hour, not every run", async () => {
  const ep = endpoint(() => Response.json({ tag_name: "v9.2.0" }));
  try {
    await withStateDir(async (stateDir) => {
      const start = (startedAgoMs: number) => {
        Deno.writeTextFileSync(
          updateStatePath(stateDir),
          JSON.stringify({ started_at: new Date(Date.now() - startedAgoMs).toISOString() }),
        );
        return startUpdateCheck({ env: { DIAZO_UPDATE_URL: ep.url }, ...TTY, stateDir, version: "0.1.0" })!;
      };
      await start(5 * 60_000).settled;
      assert.equal(ep.hits(), 0, "a fetch began 5 minutes ago: not again yet");
      const later = start(2 * 3600_000);
      await later.settled;
      assert.equal(ep.hits(), 1, "one that began 2 hours ago never ended: tried again");
      assert.match(later.finish() ?? "", /9\.2\.0/);
    });
  } finally {
    await ep.close();
  }
});
