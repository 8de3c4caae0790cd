/** The workflows pass actionlint, and the linter catches what GitHub refuses (the runner context in a job's env). */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { lintWorkflowTexts, workflowFiles } from "../../scripts/lint_workflows.ts";

const ROOT = path.resolve(fileURLToPath(new URL("../../", import.meta.url)));

Deno.test("workflows: every workflow of .github/workflows passes actionlint (stale runner labels aside)", async () => {
  const files = await workflowFiles(ROOT);
  assert.ok(files.some((f) => f.endsWith("release.yml")) && files.some((f) => f.endsWith("ci.yml")));
  const texts = await Promise.all(
    files.map(async (f) => [f, await Deno.readTextFile(f)] as [string, string]),
  );
  const problems = await lintWorkflowTexts(texts);
  assert.deepEqual(problems.map((p) => `${p.file}:${p.line}: ${p.message}`), []);
});

Deno.test("workflows: the linter refuses the runner context in a job-level env, and ignores only runner labels", async () => {
  const planted = [
    "on: push",
    "jobs:",
    "  smoke:",
    "    runs-on: macos-15-intel",
    "    env:",
    "      DIR: ${{ runner.temp }}/x",
    "    steps:",
    "      - run: echo $DIR",
    "",
  ].join("\n");
  const problems = await lintWorkflowTexts([["planted.yml", planted]]);
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.equal(problems[0].kind, "expression");
  assert.equal(problems[0].line, 6);
  assert.match(problems[0].message, /context "runner" is not allowed here/);
});
