/** core/deadline.ts: a deadline aborts once at its time unless cleared, as AbortSignal.timeout does. */
import assert from "node:assert/strict";
import { deadline } from "../../src/core/deadline.ts";
import { runProcess } from "../e2e/harness.ts";

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("a deadline aborts at its time with a TimeoutError; its listeners run once, in order", async () => {
  const d = deadline(40);
  const calls: string[] = [];
  d.addEventListener("abort", () => calls.push("a"), { once: true });
  const removed = () => calls.push("removed");
  d.addEventListener("abort", removed);
  d.addEventListener("abort", () => calls.push("b"));
  d.removeEventListener("abort", removed);
  assert.equal(d.aborted, false);
  d.throwIfAborted();
  await settle(20);
  assert.equal(d.aborted, false);
  await settle(80);
  assert.equal(d.aborted, true);
  assert.deepEqual(calls, ["a", "b"]);
  assert.equal((d.reason as DOMException).name, "TimeoutError");
  assert.throws(() => d.throwIfAborted(), (e: unknown) => e === d.reason);
  // A listener added afterwards never runs, and the AbortSignal made now is aborted already.
  d.addEventListener("abort", () => calls.push("late"));
  assert.equal(d.abortSignal().aborted, true);
  assert.equal(d.abortSignal().reason, d.reason);
  assert.deepEqual(calls, ["a", "b"]);
});

Deno.test("a cleared deadline never aborts, and neither does its AbortSignal", async () => {
  const d = deadline(30);
  const signal = d.abortSignal();
  let called = false;
  d.addEventListener("abort", () => called = true);
  d.clear();
  d.clear();
  await settle(80);
  assert.equal(d.aborted, false);
  assert.equal(signal.aborted, false);
  assert.equal(called, false);
});

Deno.test("the AbortSignal of a deadline aborts with it (for fetch)", async () => {
  const d = deadline(30);
  const signal = d.abortSignal();
  assert.equal(d.abortSignal(), signal);
  // Neither keeps the process alive (a request does): a longer timer holds it meanwhile.
  const hold = setTimeout(() => {}, 5000);
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  clearTimeout(hold);
  assert.equal(d.aborted, true);
  assert.equal(signal.reason, d.reason);
});

Deno.test("a time already past aborts at once; NaN and Infinity never come", async () => {
  assert.equal(deadline(-5).aborted, true);
  assert.equal(deadline(0).aborted, true);
  const never = [deadline(NaN), deadline(Infinity)];
  await settle(50);
  assert.deepEqual(never.map((d) => d.aborted), [false, false]);
  for (const d of never) d.clear();
});

Deno.test("a pending deadline does not keep the process alive", async () => {
  const script = `import { deadline } from ${
    JSON.stringify(new URL("../../src/core/deadline.ts", import.meta.url).href)
  };
deadline(60_000).addEventListener("abort", () => console.log("fired"));
console.log("done");`;
  const started = performance.now();
  const out = await runProcess(Deno.execPath(), ["eval", "--no-config", script], { env: {} });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "done\n");
  assert.ok(performance.now() - started < 30_000, "the process waited for the deadline");
});
