/**
 * Item 9: a pipeline file is written by people: at most 1 MiB, read by the `yaml` library alone, and a
 * file with thousands of mistakes prints a bounded report (50 problems, each line cut to 200 characters
 * around its column, then a count of the rest) instead of quoting a one-line file once per problem.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cpuUsage } from "node:process";
import { assertUsageError, cliEnv, makeHome, type RunResult } from "../e2e/harness.ts";
import { run } from "./_run.ts";

async function validate(name: string, text: string, extra: string[] = []): Promise<RunResult> {
  const home = await makeHome();
  try {
    await Deno.writeTextFile(path.join(home.cwd, name), text);
    return await run(["pipeline", "validate", name, ...extra], cliEnv(home), home.cwd);
  } finally {
    await home.cleanup();
  }
}

/** A one-line flow pipeline of `item(i)` steps, as long as fits in `bytes`. */
function flowLine(
  bytes: number,
  item: (i: number) => string,
  head = "name: flow",
): { text: string; steps: number } {
  const parts: string[] = [];
  let size = head.length + 16;
  for (let i = 0; size + item(i).length + 2 < bytes; i++) {
    parts.push(item(i));
    size += item(i).length + 2;
  }
  return { text: `{${head}, steps: [${parts.join(", ")}]}\n`, steps: parts.length };
}

Deno.test("item 9: a pipeline file over 1 MiB is refused by its size, naming the file and the cap, before it is parsed", async () => {
  const { text } = flowLine(1.5 * 1024 * 1024, (i) => `{name: s${i}, command: bucket list}`);
  const started = performance.now();
  const r = await validate("big.yaml", text);
  const ms = performance.now() - started;
  assertUsageError(r, /^error: big\.yaml is 1\.5 MiB: a pipeline file is at most 1 MiB$/);
  // A bound against a hang, not a speed goal: reading a 1 MiB file took seconds where it was parsed.
  assert.ok(ms < 15_000, `refused in ${Math.round(ms)} ms`);
});

Deno.test("item 9: a 1 MB one-line flow pipeline of nameless steps prints 50 problems and a count of the rest", async () => {
  const { text, steps } = flowLine(1_000_000, () => "{command: bucket list}");
  assert.ok(steps > 30_000, `${steps} steps`);
  const r = await validate("nameless.yaml", text, ["-o", "json"]);
  assert.equal(r.code, 2, r.stderr.slice(0, 2000));
  assert.ok(r.stderr.length < 64 * 1024, `${r.stderr.length} bytes of stderr`);
  const shown = r.stderr.match(/^nameless\.yaml:1:\d+: /gm) ?? [];
  assert.equal(shown.length, 50, r.stderr.slice(0, 2000));
  assert.match(r.stderr, /^nameless\.yaml:1:\d+: step 1 has no `name`$/m);
  assert.match(r.stderr, new RegExp(`^nameless\\.yaml: ${steps - 50} more problems not shown`, "m"));
  assert.match(r.stderr, new RegExp(`^error: .*${steps} problems`, "m"));
  const quoted = r.stderr.split("\n").filter((l) => /^ 1 \| /.test(l));
  assert.equal(quoted.length, 50);
  for (const line of quoted) assert.ok(line.length <= 205, `a quoted line of ${line.length} characters`);
  // The report on stdout is bounded the same way.
  const record = JSON.parse(r.stdout) as { problems: unknown[]; moreProblems: number };
  assert.equal(record.problems.length, 50);
  assert.equal(record.moreProblems, steps - 50);
});

Deno.test("item 9: a valid one-line flow pipeline near the cap (100,000 variables) validates in under 30 s of CPU", async () => {
  // JSON-style keys (`"v1a":0`) pack the most keys in the cap.
  const vars = Array.from({ length: 100_000 }, (_, i) => `"v${i.toString(36)}":${i % 10}`).join(",");
  const head = `name: flow, variables: {${vars}}`;
  const { text, steps } = flowLine(
    1024 * 1024 - 1024,
    (i) => `{name: s${i}, id: s${i}, command: 'bucket list --region US'}`,
    head,
  );
  assert.ok(text.length > 1_000_000 && text.length <= 1024 * 1024 && steps > 100, `${text.length} bytes`);
  const before = cpuUsage();
  const r = await validate("flow.yaml", text);
  const used = cpuUsage(before);
  const seconds = (used.user + used.system) / 1e6;
  assert.equal(r.code, 0, r.stderr.slice(0, 2000));
  assert.match(r.stderr + r.stdout, new RegExp(`a valid pipeline 'flow' with ${steps} step`));
  // The yaml library's own duplicate-key check compares each key with every earlier one: minutes here.
  assert.ok(seconds < 30, `validated in ${seconds.toFixed(1)} s of CPU`);
});

Deno.test("item 9: problems of a flow pipeline keep their line and column; a JSON pipeline's too", async () => {
  const yaml = "name: x\nsteps: [{name: a, comand: bucket list},\n  {name: b, command: bucket lst}]\n";
  const r = await validate("p.yaml", yaml);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^p\.yaml:2:19: unknown key 'comand' in step 1 \(did you mean 'command'\?\)$/m);
  assert.match(r.stderr, /^p\.yaml:3:29: unknown command 'bucket lst'/m);
  const json = '{\n  "name": "x",\n  "steps": [{"name": "a", "command": "bucket list", "id": "1x"}]\n}\n';
  const j = await validate("p.json", json);
  assert.equal(j.code, 2, j.stderr);
  assert.match(j.stderr, /^p\.json:3:59: invalid step id '1x'/m);
});
