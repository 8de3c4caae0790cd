/** Unit: one token per process — reuse while fresh, one fetch or renewal shared by concurrent callers. */
import assert from "node:assert/strict";
import { type HeldToken, tokenMemo } from "../../src/auth/token_memo.ts";

const HOUR = 3_600_000;

/** A source that counts its calls and answers when told to. */
function source(clock: { t: number }) {
  let n = 0;
  const calls: string[] = [];
  const gates: (() => void)[] = [];
  const next = async (kind: string): Promise<HeldToken> => {
    calls.push(kind);
    await new Promise<void>((r) => gates.push(r));
    return { access_token: `t${++n}`, expires_at: clock.t + HOUR };
  };
  return {
    calls,
    open: () => gates.splice(0).forEach((g) => g()),
    fetch: () => next("fetch"),
    renew: (rejected: string) => next(`renew ${rejected}`),
    now: () => clock.t,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("tokenMemo: eight concurrent callers share one fetch; later callers reuse the token until near expiry", async () => {
  const clock = { t: 0 };
  const src = source(clock);
  const memo = tokenMemo(src);
  const all = Promise.all(Array.from({ length: 8 }, () => memo.get()));
  await tick();
  src.open();
  assert.deepEqual(await all, Array(8).fill("t1"));
  assert.deepEqual(src.calls, ["fetch"]);
  clock.t = HOUR - 61_000;
  assert.equal(await memo.get(), "t1", "still more than the margin left");
  clock.t = HOUR - 59_000;
  const again = memo.get();
  await tick();
  src.open();
  assert.equal(await again, "t2", "within the margin: fetched again");
  assert.deepEqual(src.calls, ["fetch", "fetch"]);
});

Deno.test("tokenMemo: callers refused together share one renewal; a refusal of an already replaced token renews nothing", async () => {
  const clock = { t: 0 };
  const src = source(clock);
  const memo = tokenMemo(src);
  const first = memo.get();
  await tick();
  src.open();
  assert.equal(await first, "t1");
  const renewals = Promise.all(Array.from({ length: 5 }, () => memo.renew("t1")));
  await tick();
  src.open();
  assert.deepEqual(await renewals, Array(5).fill(true));
  assert.deepEqual(src.calls, ["fetch", "renew t1"]);
  assert.equal(await memo.get(), "t2");
  assert.equal(await memo.renew("t1"), true, "a late refusal of t1: t2 is already held");
  assert.deepEqual(src.calls, ["fetch", "renew t1"]);
});

Deno.test("tokenMemo: a failed fetch reaches every waiting caller and the next call tries again", async () => {
  let fail = true;
  let calls = 0;
  const memo = tokenMemo({
    fetch: async () => {
      calls++;
      await tick();
      if (fail) throw new Error("token endpoint down");
      return { access_token: "ok", expires_at: Date.now() + HOUR };
    },
    renew: () => Promise.reject(new Error("unused")),
  });
  const results = await Promise.allSettled([memo.get(), memo.get(), memo.get()]);
  assert.deepEqual(results.map((r) => r.status), ["rejected", "rejected", "rejected"]);
  assert.equal(calls, 1);
  fail = false;
  assert.equal(await memo.get(), "ok");
  assert.equal(calls, 2);
});

Deno.test("tokenMemo: a renewal that yields the refused token again says so (false)", async () => {
  const memo = tokenMemo({
    fetch: () => Promise.resolve({ access_token: "same", expires_at: Date.now() + HOUR }),
    renew: () => Promise.resolve({ access_token: "same", expires_at: Date.now() + HOUR }),
  });
  assert.equal(await memo.get(), "same");
  assert.equal(await memo.renew("same"), false);
});
