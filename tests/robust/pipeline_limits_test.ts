/**
 * Issue 14 item 8: pipeline files have limits: a size cap (an endless input is refused without being
 * read whole), a nesting bound (a clear error, not a stack overflow), no NUL byte; and validation of
 * many steps is linear (timed in the bench, not here).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { assertUsageError, cliEnv, makeHome } from "../e2e/harness.ts";
import { run } from "./_run.ts";

async function validate(name: string, text: string | undefined): Promise<ReturnType<typeof run>> {
  const home = await makeHome();
  try {
    const file = text === undefined ? name : path.join(home.cwd, name);
    if (text !== undefined) await Deno.writeTextFile(file, text);
    return await run(["pipeline", "validate", file], cliEnv(home), home.cwd);
  } finally {
    await home.cleanup();
  }
}

Deno.test({
  name: "pipeline validate /dev/zero: refused as a device, not a regular file, without reading it",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const before = Deno.memoryUsage().rss;
    const r = await validate("/dev/zero", undefined);
    assertUsageError(r, /^error: \/dev\/zero is a character device, not a regular file$/);
    const grown = Deno.memoryUsage().rss - before;
    assert.ok(grown < 512 * 1024 * 1024, `memory grew by ${grown} bytes`);
  },
});

Deno.test("3,000 levels of nesting (flow and block): a clear error with the place, not a stack overflow", async () => {
  const flow = `name: x\nvariables: { a: ${"[".repeat(3000)}${
    "]".repeat(3000)
  } }\nsteps:\n  - name: a\n    command: bucket list\n`;
  let block = "name: x\nsteps:\n  - name: a\n    command: bucket list\nvariables:\n";
  for (let i = 0; i < 3000; i++) block += `${"  ".repeat(i + 1)}k${i}:\n`;
  for (
    const [name, text, where] of [["flow.yaml", flow, /flow\.yaml:2:\d+:/], [
      "block.yaml",
      block,
      /block\.yaml:69:\d+:/,
    ]] as const
  ) {
    const r = await validate(name, text);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, where);
    assert.match(r.stderr, /nesting deeper than 64 levels/);
    assert.doesNotMatch(r.stderr, /call stack/);
  }
});

Deno.test("a NUL byte is refused with its line and column", async () => {
  const r = await validate("nul.yaml", "name: x\nsteps:\n  - name: a\0\n    command: bucket list\n");
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /nul\.yaml:3:12: the file contains a NUL byte/);
});

Deno.test("20,000 steps that reference earlier ones validate (in linear time: see the bench)", async () => {
  let text = "name: big\nsteps:\n";
  for (let i = 0; i < 20_000; i++) {
    text += `  - name: s${i}\n    id: s${i}\n    command: bucket list --region US${
      i > 0 ? ` --query '\${{ steps.s${i - 1}.exit_code }}'` : ""
    }\n`;
  }
  const r = await validate("big.yaml", text);
  assert.equal(r.code, 0, r.stderr.slice(0, 500));
  assert.match(r.stderr + r.stdout, /20000 step/);
});

Deno.test("a 17 MiB pipeline file (valid YAML) is refused by size", async () => {
  const filler = `# ${"x".repeat(1022)}\n`.repeat(17 * 1024);
  const r = await validate("huge.yaml", `name: x\nsteps:\n  - name: a\n    command: bucket list\n${filler}`);
  assertUsageError(r, /huge\.yaml is 17\.0 MiB: a pipeline file is at most 16 MiB$/);
});

/** Whether `/usr/bin/time` can measure a child's peak RSS here. */
const TIMED = (() => {
  try {
    return Deno.build.os === "linux" && Deno.statSync("/usr/bin/time").isFile;
  } catch {
    return false;
  }
})();

/** A flat pipeline of `steps` steps, the shape the size limit is measured with. */
function flatPipeline(bytes: number): { text: string; steps: number } {
  const parts = ["name: big\nsteps:\n"];
  let size = parts[0].length;
  let steps = 0;
  while (size < bytes) {
    const step = `  - name: s${steps}\n    id: s${steps}\n    command: bucket list --region US\n`;
    parts.push(step);
    size += step.length;
    steps++;
  }
  return { text: parts.join(""), steps };
}

/** Writes `text` as `name`, validates it in a spawned diazo and returns its peak RSS in MiB. */
async function validatePeak(name: string, text: string, steps: number): Promise<number> {
  const home = await makeHome();
  try {
    const file = path.join(home.cwd, name);
    await Deno.writeTextFile(file, text);
    const r = await peakOf(["pipeline", "validate", file], cliEnv(home), home.cwd);
    assert.equal(r.code, 0, r.stderr.slice(0, 500));
    assert.match(r.stderr + r.stdout, new RegExp(`${steps} step`));
    return r.peakMiB;
  } finally {
    await home.cleanup();
  }
}

Deno.test({
  name:
    "item 7: a valid flat pipeline near 16 MiB validates in a process peaking under 400 MiB (2.5 GB before, 1 GB at the first line parser)",
  ignore: !TIMED,
  fn: async () => {
    const { text, steps } = flatPipeline(15.5 * 1024 * 1024);
    const peak = await validatePeak("flat.yaml", text, steps);
    assert.ok(peak > 0 && peak < 400, `peak RSS ${peak.toFixed(0)} MiB`);
  },
});

Deno.test({
  name:
    "item 7: a valid JSON pipeline near 16 MiB validates in a process peaking under 400 MiB (1.6 GB before)",
  ignore: !TIMED,
  fn: async () => {
    const steps = 178_000;
    const list = Array.from(
      { length: steps },
      (_, i) => ({ name: `s${i}`, id: `s${i}`, command: "bucket list" }),
    );
    const text = JSON.stringify({ name: "big", steps: list }, null, 2);
    assert.ok(text.length > 15 * 1024 * 1024 && text.length < 16 * 1024 * 1024, `${text.length} bytes`);
    const peak = await validatePeak("flat.json", text, steps);
    assert.ok(peak > 0 && peak < 400, `peak RSS ${peak.toFixed(0)} MiB`);
  },
});

/** Runs diazo from source under `/usr/bin/time`: its exit code, output and peak RSS. */
async function peakOf(args: string[], env: Record<string, string>, cwd: string) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  const argv = ["run", "-A", "--no-check", "--config", path.join(root, "deno.json")];
  argv.push(path.join(root, "src/main.ts"), ...args);
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "diazo-peak-kb %M", Deno.execPath(), ...argv],
    env,
    cwd,
    clearEnv: true,
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  const kb = /diazo-peak-kb (\d+)/.exec(stderr)?.[1];
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: stderr.replace(/(?:Command exited[^\n]*\n)?diazo-peak-kb \d+\n?/, ""),
    peakMiB: kb ? Number(kb) / 1024 : 0,
  };
}
