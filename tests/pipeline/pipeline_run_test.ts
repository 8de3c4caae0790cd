/** Pipelines: interpolation and escapes, the step runner, dry-run plans and --var flags. */
import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import {
  parseVarFlags,
  type Pipeline,
  planSteps,
  runPipeline,
  type StepRun,
} from "../../src/pipeline/pipeline.ts";
import {
  parseTemplate,
  resolveReference,
  splitTemplateWords,
  type StepOutcome,
} from "../../src/pipeline/interpolate.ts";
import { MAX_ENV_RESULT_BYTES } from "../../src/pipeline/shell_env.ts";
import { check } from "./pipeline_tree.ts";

Deno.test("interpolation: references, paths, escapes and malformed expressions", () => {
  const { parts, problems } = parseTemplate(
    "a ${{vars.x}} $${{ vars.y }} ${{ steps.up.result.items[0].key }}",
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(parts.map((p) => (p.kind === "text" ? p.value : p.ref)), [
    "a ",
    { kind: "var", name: "x" },
    " ${{ vars.y }} ",
    { kind: "step", id: "up", field: "result", path: ["items", 0, "key"] },
  ]);
  const bad = parseTemplate(
    "${{ }} ${{ vars }} ${{ steps.up }} ${{ steps.up.outputs }} ${{ steps.up.status.x }} ${{ x",
  );
  assert.deepEqual(bad.problems.map((p) => [p.offset, p.message.split(/[:(]/)[0].trim()]), [
    [0, "empty expression"],
    [7, "'vars' is not a variable reference"],
    [19, "'steps.up' needs a field"],
    [35, "unknown step field 'outputs' in 'steps.up.outputs'"],
    [59, "steps.up.status has no fields"],
    [84, "unclosed ${{"],
  ]);
});

Deno.test("interpolation: a value is one word, never re-split or re-quoted; quoting as in a shell", () => {
  const { parts } = parseTemplate(
    `object upload \${{ vars.b }} "my \${{ vars.f }}" --key=k-\${{ vars.f }} '$x'`,
  );
  const words = splitTemplateWords(parts, "test");
  const vars = { b: "bucket; rm -rf /", f: "a b.obj" };
  const scope = { vars, steps: new Map<string, StepOutcome>() };
  const argv = words.map((w) =>
    w.parts.map((p) => p.kind === "text" ? p.value : resolveReference(p.ref, scope)).join("")
  );
  assert.deepEqual(argv, ["object", "upload", "bucket; rm -rf /", "my a b.obj", "--key=k-a b.obj", "$x"]);
  assert.deepEqual(words.map((w) => w.literal), ["object", "upload", undefined, undefined, undefined, "$x"]);
  assert.equal(words[2].offset, 14);
  assert.throws(
    () => splitTemplateWords(parseTemplate("a 'b").parts, "step 1"),
    /step 1 has an unterminated/,
  );
});

Deno.test("interpolation: step results by path; missing values are errors, never empty strings", () => {
  const steps = new Map<string, StepOutcome>([
    ["up", { status: "ok", exitCode: 0, result: { urn: "dXJu", items: [{ n: 1 }], meta: { a: true } } }],
    ["bad", { status: "failed", exitCode: 4, result: null }],
  ]);
  const scope = { vars: { x: "1" }, steps };
  const ref = (text: string) => {
    const p = parseTemplate(text).parts[0];
    assert.ok(p.kind === "expr");
    return resolveReference(p.ref, scope);
  };
  assert.equal(ref("${{ steps.up.result.urn }}"), "dXJu");
  assert.equal(ref("${{ steps.up.result.items[0].n }}"), "1");
  assert.equal(ref("${{ steps.up.result.meta }}"), '{"a":true}');
  assert.equal(ref("${{ steps.bad.exit_code }}"), "4");
  assert.equal(ref("${{ steps.bad.status }}"), "failed");
  assert.throws(() => ref("${{ steps.up.result.nope }}"), /has no result\.nope/);
  assert.throws(() => ref("${{ steps.bad.result.urn }}"), /step 'bad' failed and has no result/);
  assert.throws(() => ref("${{ vars.y }}"), (e: unknown) => e instanceof DiazoError && e.exitCode === 2);
});

const PIPELINE_TEXT = [
  "name: run-test",
  "variables: { bucket: b1 }",
  "steps:",
  "  - name: Upload",
  "    id: up",
  "    command: object upload ${{ vars.bucket }} a.obj",
  "  - name: Allowed to fail",
  "    id: maybe",
  "    command: bucket create --key ${{ vars.bucket }}",
  "    continue_on_error: true",
  "  - name: Translate",
  "    command: translate start ${{ steps.up.result.urn }} -f obj",
  "  - name: Status",
  "    command: translate status ${{ steps.up.result.urn }}",
  "",
].join("\n");

async function validPipeline(): Promise<Pipeline> {
  const { pipeline, problems } = await check(PIPELINE_TEXT);
  assert.deepEqual(problems, []);
  return pipeline!;
}

function fakeRunners(codes: Record<string, number>) {
  const calls: string[][] = [];
  return {
    calls,
    runners: {
      command(argv: string[]): Promise<StepRun> {
        calls.push(argv);
        const code = codes[argv.slice(0, 2).join(" ")] ?? 0;
        const result = argv[1] === "upload" ? { urn: `urn-of-${argv[2]}` } : { ran: argv.join(" ") };
        return Promise.resolve(code === 0 ? { exitCode: 0, result } : { exitCode: code, error: "boom" });
      },
      shell(): Promise<StepRun> {
        throw new Error("no shell steps here");
      },
    },
  };
}

Deno.test("runPipeline: steps run in order with results feeding later steps; an allowed failure continues", async () => {
  const { calls, runners } = fakeRunners({ "bucket create": 6 });
  const report = await runPipeline(await validPipeline(), "p.yaml", { bucket: "over" }, runners);
  assert.deepEqual(calls, [
    ["object", "upload", "over", "a.obj"],
    ["bucket", "create", "--key", "over"],
    ["translate", "start", "urn-of-over", "-f", "obj"],
    ["translate", "status", "urn-of-over"],
  ]);
  assert.equal(report.status, "ok");
  assert.equal(report.exitCode, 0);
  assert.deepEqual(report.steps.map((s) => [s.status, s.exitCode, s.continueOnError]), [
    ["ok", 0, false],
    ["failed", 6, true],
    ["ok", 0, false],
    ["ok", 0, false],
  ]);
  assert.equal(report.steps[1].error, "boom");
  assert.deepEqual(report.steps[0].result, { urn: "urn-of-over" });
});

Deno.test("runPipeline: a failing step stops the rest and gives its exit code", async () => {
  const { calls, runners } = fakeRunners({ "translate start": 4 });
  const report = await runPipeline(await validPipeline(), "p.yaml", { bucket: "b1" }, runners);
  assert.equal(calls.length, 3);
  assert.equal(report.status, "failed");
  assert.equal(report.exitCode, 4);
  assert.deepEqual(report.steps.map((s) => s.status), ["ok", "ok", "failed", "not_run"]);
  assert.equal(report.steps[3].exitCode, null);
});

Deno.test("runPipeline: a result without the referenced field fails that step (exit 2) without running it", async () => {
  const calls: string[][] = [];
  const report = await runPipeline(await validPipeline(), "p.yaml", { bucket: "b1" }, {
    command(argv) {
      calls.push(argv);
      return Promise.resolve({ exitCode: 0, result: { objectKey: "a.obj" } }); // no urn
    },
    shell: () => Promise.reject(new Error("unused")),
  });
  assert.equal(calls.length, 2, "translate start never ran");
  assert.equal(report.exitCode, 2);
  assert.match(report.steps[2].error ?? "", /result of step 'up' has no result\.urn/);
});

Deno.test("planSteps (dry run): variables filled in, step results shown as placeholders", async () => {
  const plan = planSteps(await validPipeline(), { bucket: "my bucket" });
  assert.deepEqual(plan.map((s) => s.command), [
    "object upload 'my bucket' a.obj",
    "bucket create --key 'my bucket'",
    "translate start <steps.up.result.urn> -f obj",
    "translate status <steps.up.result.urn>",
  ]);
  assert.deepEqual(plan[0].argv, ["object", "upload", "my bucket", "a.obj"]);
  assert.equal(plan[1].continueOnError, true);
});

Deno.test("--var flags: name=value, the last wins, a bad one is a usage error", () => {
  assert.deepEqual(parseVarFlags(["a=1", "b=x=y", "a=2", "e="]), { a: "2", b: "x=y", e: "" });
  for (const bad of ["novalue", "=x", "1a=x", "a b=c"]) {
    assert.throws(
      () => parseVarFlags([bad]),
      (e: unknown) => e instanceof DiazoError && e.exitCode === 2,
      bad,
    );
  }
});

Deno.test("runPipeline: a shell step gets values only in its environment — variables and earlier steps' outcomes", async () => {
  const text = [
    "name: env",
    "variables: { bucket: '$(touch PWNED)' }",
    "steps:",
    "  - { name: List, id: objs, command: bucket list }",
    "  - { name: Big, id: big, command: bucket list }",
    "  - { name: Use, shell: 'printf %s \"$DIAZO_STEP_objs_RESULT\" $${{ x' }",
    "",
  ].join("\n");
  const { pipeline, problems } = await check(text, { allowShell: true });
  assert.deepEqual(problems, []);
  const shells: { text: string; env: Record<string, string> }[] = [];
  const warnings: string[] = [];
  const results = [[{ objectKey: "$(touch PWNED)" }], "x".repeat(MAX_ENV_RESULT_BYTES)];
  const report = await runPipeline(pipeline!, "p.yaml", { ...pipeline!.variables }, {
    command: () => Promise.resolve({ exitCode: 0, result: results.shift() }),
    shell(text, env) {
      shells.push({ text, env });
      return Promise.resolve({ exitCode: 0 });
    },
    warn: (m) => warnings.push(m),
  });
  assert.equal(report.exitCode, 0);
  assert.equal(shells[0].text, 'printf %s "$DIAZO_STEP_objs_RESULT" ${{ x');
  assert.equal(report.steps[2].shell, shells[0].text);
  assert.deepEqual(shells[0].env, {
    DIAZO_VAR_bucket: "$(touch PWNED)",
    DIAZO_STEP_objs_RESULT: '[{"objectKey":"$(touch PWNED)"}]',
    DIAZO_STEP_objs_EXIT_CODE: "0",
    DIAZO_STEP_objs_STATUS: "ok",
    DIAZO_STEP_big_EXIT_CODE: "0",
    DIAZO_STEP_big_STATUS: "ok",
  });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /^step 3: DIAZO_STEP_big_RESULT is not set: the result is 98306 bytes of JSON/);
});
