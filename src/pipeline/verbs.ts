/**
 * The pipeline verbs, front-end free, in the `run<Verb>(opts, deps)` shape of ops/ (they live beside
 * the engine because ops/ may not import pipeline/): validate a file, plan it (dry run), run it. The
 * command tree, the aliases and plugins, and the step runners are the front end's, given in `deps`
 * and `opts`; steps keep entering through the CLI's runCli, which gives them aliases and hooks.
 */
import { knownSecrets, redact } from "../core/redact.ts";
import {
  type CommandSpec,
  effectiveVariables,
  invalidPipelineError,
  loadPipeline,
  MAX_PROBLEMS_SHOWN,
  parseVarFlags,
  type Pipeline,
  type PipelineReport,
  type PlannedStep,
  planSteps,
  type Problem,
  problemReport,
  runPipeline,
  type StepExtensions,
  type StepRunners,
  summaryText,
} from "./pipeline.ts";

/** What the pipeline verbs need from the front end. */
export interface PipelineDeps {
  readonly cwd: string;
  /** A progress line on stderr. */
  info(message: string): void;
  /** One problem of the file, as `file:line:col: message` with its caret, on stderr. */
  problem(text: string): void;
  /** The command tree steps are checked against. */
  tree(): Promise<CommandSpec>;
  /** The aliases and plugins a step's command word may name. */
  extensions(): Promise<StepExtensions>;
}

/** Options shared by the verbs: the file, `--var name=value` pairs, whether shell steps are allowed. */
export interface PipelineFileOptions {
  file: string;
  vars?: readonly string[];
  allowShell?: boolean;
}

interface Loaded {
  pipeline?: Pipeline;
  problems: Problem[];
  overrides: Record<string, string>;
}

async function load(opts: PipelineFileOptions, deps: PipelineDeps, checkOnly = false): Promise<Loaded> {
  const overrides = parseVarFlags(opts.vars ?? []);
  const [tree, extensions] = await Promise.all([deps.tree(), deps.extensions()]);
  const { pipeline, problems } = await loadPipeline(opts.file, deps.cwd, {
    tree,
    extensions,
    allowShell: opts.allowShell === true,
    extraVariables: Object.keys(overrides),
    checkOnly,
  });
  for (const text of problemReport(opts.file, problems)) deps.problem(text);
  return { pipeline, problems, overrides };
}

/** Loads a file that must be valid (else the invalid-pipeline error) with its effective variables. */
async function loadValid(opts: PipelineFileOptions, deps: PipelineDeps) {
  const { pipeline, problems, overrides } = await load(opts, deps);
  if (!pipeline) throw invalidPipelineError(opts.file, problems);
  return { pipeline, vars: effectiveVariables(pipeline, overrides) };
}

/** What `runPipelineValidate` found: a valid pipeline's steps, or the problems and the error to raise. */
export type ValidateResult =
  | { valid: true; record: Record<string, unknown> }
  | { valid: false; record: Record<string, unknown>; error: Error };

/** Checks a pipeline file; every problem is also reported through `deps.problem`. */
export async function runPipelineValidate(
  opts: PipelineFileOptions,
  deps: PipelineDeps,
): Promise<ValidateResult> {
  const { file } = opts;
  const { pipeline, problems } = await load(opts, deps, true);
  if (!pipeline) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN)
      .map(({ line, column, message, source }) => ({ line, column, message, source }));
    const more = problems.length - shown.length;
    return {
      valid: false,
      record: { file, valid: false, problems: shown, ...(more > 0 ? { moreProblems: more } : {}) },
      error: invalidPipelineError(file, problems),
    };
  }
  deps.info(`${file}: a valid pipeline '${pipeline.name}' with ${pipeline.steps.length} step(s)`);
  const steps = pipeline.steps.map((s) => ({
    index: s.index,
    name: s.name,
    id: s.id,
    kind: s.shell ? "shell" : "command",
    command: s.command?.text ?? s.shell?.text,
    continueOnError: s.continueOnError,
  }));
  return { valid: true, record: { file, valid: true, name: pipeline.name, steps } };
}

/** The steps a run would execute, interpolated and redacted; nothing runs. */
export async function runPipelinePlan(opts: PipelineFileOptions, deps: PipelineDeps): Promise<PlannedStep[]> {
  const { pipeline, vars } = await loadValid(opts, deps);
  const secrets = knownSecrets();
  const plan = planSteps(pipeline, vars).map((s) => ({
    ...s,
    command: redact(s.command, secrets),
    argv: s.argv?.map((a) => redact(a, secrets)),
  }));
  deps.info(`Dry run of '${pipeline.name}' (${pipeline.steps.length} step(s)); nothing was executed.`);
  return plan;
}

/** Runs a valid pipeline's steps in order with `runners`; the report has secrets redacted from steps' command lines. */
export async function runPipelineRun(
  opts: PipelineFileOptions & { runners: (total: number) => StepRunners },
  deps: PipelineDeps,
): Promise<PipelineReport> {
  const { pipeline, vars } = await loadValid(opts, deps);
  const report = await runPipeline(pipeline, opts.file, vars, opts.runners(pipeline.steps.length));
  deps.info(summaryText(report).trimEnd());
  // A secret passed on a step's command line (e.g. a client secret) stays out of the report.
  const secrets = knownSecrets();
  for (const step of report.steps) {
    step.argv = step.argv?.map((a) => redact(a, secrets));
    if (step.shell !== undefined) step.shell = redact(step.shell, secrets);
  }
  return report;
}
