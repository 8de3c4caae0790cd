/**
 * Pipelines (README.md, "Pipelines"): load and validate a file, resolve variables, run the steps in order
 * through injected runners (diazo commands in-process, opted-in shell steps), and report.
 */
import path from "node:path";
import { DiazoError, isDiazoError, usageError } from "../core/errors.ts";
import { INPUT_LIMITS, readInputText } from "../core/input_file.ts";
import { NAME_PATTERN } from "./schema.ts";
import { MAX_ENV_RESULT_BYTES, shellEnv } from "./shell_env.ts";
import {
  type Expression,
  referenceText,
  renderParts,
  resolveReference,
  type Scope,
  type StepOutcome,
} from "./interpolate.ts";
import {
  type Pipeline,
  type PipelineStep,
  type Problem,
  type ValidateOptions,
  validatePipelineText,
} from "./validate.ts";

export type { Pipeline, PipelineStep, Problem } from "./validate.ts";
export type { CommandSpec, OptionSpec } from "./command.ts";
export type { StepExtensions } from "./alias.ts";

/** The largest pipeline file read, bytes (1 MiB: a file people write; about 10,000 steps fit). */
export const MAX_PIPELINE_BYTES = INPUT_LIMITS.pipeline;

/** The most problems printed for one file; a count of the rest follows. */
export const MAX_PROBLEMS_SHOWN = 50;

/**
 * Reads a pipeline file; a missing file is "File not found" (exit 2); a directory, a FIFO, a device
 * or a file over MAX_PIPELINE_BYTES is a usage error before anything is read (core/input_file.ts).
 */
export async function readPipelineFile(file: string, cwd: string): Promise<string> {
  try {
    return (await readInputText(path.resolve(cwd, file), "pipeline", { shown: file }))!;
  } catch (e) {
    throw e instanceof DiazoError ? e : readError(file, e);
  }
}

function readError(file: string, e: unknown): DiazoError {
  if (e instanceof Deno.errors.NotFound) return new DiazoError("file_not_found", { params: { file } });
  if (e instanceof Deno.errors.IsADirectory || (e as { code?: string }).code === "EISDIR") {
    return usageError(`${file} is a directory`, "Pass a pipeline file (.yaml, .yml or .json).");
  }
  return usageError(`cannot read ${file}: ${(e as Error).message}`, "Check the path and its permissions.");
}

/** Reads and validates a pipeline file; `pipeline` is set only when there is no problem. */
export async function loadPipeline(
  file: string,
  cwd: string,
  opts: ValidateOptions,
): Promise<{ pipeline?: Pipeline; problems: Problem[] }> {
  return await validatePipelineText(await readPipelineFile(file, cwd), opts);
}

/**
 * One problem in the style of compilers: `file:line:col: message`, the line (cut around the spot when
 * long), and a caret under the spot.
 */
export function formatProblem(file: string, p: Problem): string {
  const num = String(p.line);
  const pad = " ".repeat(num.length);
  const lead = p.source.slice(0, p.sourceColumn - 1).replace(/[^\t]/g, " ");
  return `${file}:${p.line}:${p.column}: ${p.message}\n` +
    ` ${num} | ${p.source}\n` +
    ` ${pad} | ${lead}${"^".repeat(Math.max(1, p.length))}\n`;
}

/**
 * The problems as printed: the first MAX_PROBLEMS_SHOWN formatted, then one line counting the rest, so
 * that a file with thousands of mistakes prints a bounded report.
 */
export function problemReport(file: string, problems: readonly Problem[]): string[] {
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => formatProblem(file, p));
  const rest = problems.length - shown.length;
  if (rest > 0) {
    shown.push(
      `${file}: ${rest} more problem${rest === 1 ? "" : "s"} not shown (fix the ones above first)\n`,
    );
  }
  return shown;
}

/** The error that stops an invalid pipeline (exit 2), after its problems were shown. */
export function invalidPipelineError(file: string, problems: readonly Problem[]): DiazoError {
  const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
  return new DiazoError("invalid_pipeline", { params: { file, count } });
}

/** Parses `--var name=value` flags (the last of a name wins). */
export function parseVarFlags(pairs: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (eq < 0 || !NAME_PATTERN.test(name)) {
      throw usageError(`invalid --var '${pair}'`, "Write --var name=value, e.g. --var bucket=my-bucket.");
    }
    vars[name] = pair.slice(eq + 1);
  }
  return vars;
}

/** The pipeline's variables with `--var` values over the file's. */
export function effectiveVariables(
  pipeline: Pipeline,
  overrides: Record<string, string>,
): Record<string, string> {
  return { ...pipeline.variables, ...overrides };
}

/** Quotes a word for display only when it needs it (the argv itself is never re-split). */
export function displayWord(word: string): string {
  return /^[\w@%+=:,./<>\[\]-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** One step as a dry run shows it: variables filled in, step results as `<steps.id.result...>`. */
export interface PlannedStep {
  index: number;
  name: string;
  id?: string;
  kind: "command" | "shell";
  /** The command line (or shell text) as it would run. */
  command: string;
  argv?: string[];
  continueOnError: boolean;
}

/** The resolved steps of a dry run; nothing is executed. */
export function planSteps(pipeline: Pipeline, vars: Record<string, string>): PlannedStep[] {
  const resolve = (e: Expression) =>
    e.ref.kind === "var" ? resolveReference(e.ref, { vars, steps: new Map() }) : `<${referenceText(e.ref)}>`;
  return pipeline.steps.map((step) => {
    const base = { index: step.index, name: step.name, id: step.id, continueOnError: step.continueOnError };
    if (step.shell) return { ...base, kind: "shell", command: step.shell.script };
    const argv = step.command!.words.map((w) => renderParts(w.parts, resolve));
    return { ...base, kind: "command", command: argv.map(displayWord).join(" "), argv };
  });
}

/** What one step run ended with. */
export interface StepRun {
  exitCode: number;
  /** The value the command emitted (null when none). */
  result?: unknown;
  /** The step's error message, when it failed. */
  error?: string;
}

/** One step in the run report. */
export interface StepReport {
  index: number;
  name: string;
  id?: string;
  kind: "command" | "shell";
  /** The argv run (command steps) — absent when the step did not get that far. */
  argv?: string[];
  shell?: string;
  status: "ok" | "failed" | "not_run";
  exitCode: number | null;
  continueOnError: boolean;
  durationMs: number;
  result?: unknown;
  error?: string;
}

/** The run report (`pipeline run -o json`). */
export interface PipelineReport {
  pipeline: string;
  file: string;
  status: "ok" | "failed";
  exitCode: number;
  durationMs: number;
  steps: StepReport[];
}

/** How steps are executed: injected by the CLI layer (core runs nothing itself). */
export interface StepRunners {
  /** Runs a diazo command (argv without `diazo`) in-process. */
  command(argv: string[], step: PipelineStep): Promise<StepRun>;
  /** Runs a shell step; `env` carries every value it may read (shell_env.ts), its text none. */
  shell(text: string, env: Record<string, string>, step: PipelineStep): Promise<StepRun>;
  /** A note about a step on stderr (e.g. a result too large for a shell step's environment). */
  warn?(message: string): void;
  /** Called before a step starts, with the command as shown. */
  onStart?(step: PipelineStep, shown: string): void;
  /** Called when a step ended. */
  onEnd?(report: StepReport): void;
}

/**
 * Runs the steps in order. A failing step stops the pipeline unless it has `continue_on_error`; the
 * exit code is the first stopping step's (0 when every failure was allowed).
 */
export async function runPipeline(
  pipeline: Pipeline,
  file: string,
  vars: Record<string, string>,
  runners: StepRunners,
): Promise<PipelineReport> {
  const started = performance.now();
  const outcomes = new Map<string, StepOutcome>();
  const scope: Scope = { vars, steps: outcomes };
  const resolve = (e: Expression) => resolveReference(e.ref, scope);
  const reports: StepReport[] = [];
  let exitCode = 0;
  for (const step of pipeline.steps) {
    const base = {
      index: step.index,
      name: step.name,
      id: step.id,
      kind: step.shell ? "shell" as const : "command" as const,
      continueOnError: step.continueOnError,
    };
    if (exitCode !== 0) {
      reports.push({ ...base, status: "not_run", exitCode: null, durationMs: 0 });
      continue;
    }
    const t0 = performance.now();
    const report: StepReport = { ...base, status: "ok", exitCode: 0, durationMs: 0 };
    let run: StepRun;
    let announced = false;
    const announce = (shown: string) => {
      if (!announced) runners.onStart?.(step, shown);
      announced = true;
    };
    try {
      if (step.shell) {
        report.shell = step.shell.script;
        announce(report.shell);
        const { env, omitted } = shellEnv(vars, outcomes);
        for (const o of omitted) {
          runners.warn?.(
            `step ${step.index}: ${o.name} is not set: the result is ${o.bytes} bytes of JSON, ` +
              `over the ${MAX_ENV_RESULT_BYTES} an environment variable may carry here`,
          );
        }
        run = await runners.shell(report.shell, env, step);
      } else {
        report.argv = step.command!.words.map((w) => renderParts(w.parts, resolve));
        announce(report.argv.map(displayWord).join(" "));
        run = await runners.command(report.argv, step);
      }
    } catch (e) {
      if (!isDiazoError(e)) throw e;
      run = { exitCode: e.exitCode, error: e.message };
      announce(step.command?.text ?? step.shell?.text ?? "");
    }
    report.durationMs = Math.round(performance.now() - t0);
    report.exitCode = run.exitCode;
    report.status = run.exitCode === 0 ? "ok" : "failed";
    if (report.kind === "command") report.result = run.result ?? null;
    if (run.error !== undefined && run.exitCode !== 0) report.error = run.error;
    if (step.id) {
      outcomes.set(step.id, { status: report.status, exitCode: run.exitCode, result: run.result ?? null });
    }
    reports.push(report);
    runners.onEnd?.(report);
    if (run.exitCode !== 0 && !step.continueOnError) exitCode = run.exitCode;
  }
  return {
    pipeline: pipeline.name,
    file,
    status: exitCode === 0 ? "ok" : "failed",
    exitCode,
    durationMs: Math.round(performance.now() - started),
    steps: reports,
  };
}

/** How a step is marked in the summary: a failure that `continue_on_error` allowed is not one that stopped the run. */
function stepMark(s: StepReport): string {
  if (s.status === "ok") return "ok";
  if (s.status === "not_run") return "not run";
  return s.continueOnError ? "FAILED (allowed)" : "FAILED";
}

/**
 * The per-step summary printed on stderr after a run. Failures that `continue_on_error` allowed are
 * counted apart from those that failed the run: "1 failed" only when a step stopped it.
 */
export function summaryText(report: PipelineReport): string {
  const failures = report.steps.filter((s) => s.status === "failed");
  const allowed = failures.filter((s) => s.continueOnError).length;
  const head = `Pipeline '${report.pipeline}' ${report.status === "ok" ? "finished" : "failed"}: ` +
    `${report.steps.length} step(s), ${failures.length - allowed} failed` +
    `${allowed ? `, ${allowed} allowed to fail` : ""}, ${(report.durationMs / 1000).toFixed(1)} s`;
  const width = Math.max(...report.steps.map((s) => s.name.length), 4);
  const markWidth = Math.max(...report.steps.map((s) => stepMark(s).length));
  const lines = report.steps.map((s) => {
    const time = s.status === "not_run" ? "" : `${(s.durationMs / 1000).toFixed(1)} s`;
    const note = s.status !== "failed"
      ? ""
      : `exit ${s.exitCode}${s.continueOnError ? ", continued (continue_on_error)" : ""}`;
    return `  ${stepMark(s).padEnd(markWidth)} ${String(s.index).padStart(2)}. ${s.name.padEnd(width)}  ${
      time.padStart(7)
    }  ${note}`.trimEnd();
  });
  return [head, ...lines].join("\n") + "\n";
}
