/**
 * `diazo pipeline ...`: run, validate and describe pipeline files of diazo steps (YAML or JSON),
 * declared as data (command/decl.ts).
 */
import { schemaText } from "../../pipeline/schema.ts";
import type { PipelineDeps } from "../../pipeline/verbs.ts";
import { knownSecrets, redact } from "../../core/redact.ts";
import { collect } from "../../command/command.ts";
import type { CommandDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";

const FILE_HELP = `
Pipeline files (YAML or JSON):
  name: upload-and-translate          # required
  variables: { bucket: my-bucket }    # defaults; --var bucket=x overrides
  steps:                              # run in order
    - name: Upload                    # required
      id: up                          # lets later steps read this step's result
      command: object upload \${{ vars.bucket }} model.obj   # a diazo command line, without "diazo"
    - name: Translate
      command: translate start \${{ steps.up.result.urn }} --format svf2 --wait
      continue_on_error: false        # true: a failure does not stop the pipeline

Interpolation (one syntax): \${{ vars.<name> }}, \${{ steps.<id>.result.<path> }} (e.g. .urn, .items[0].objectKey),
\${{ steps.<id>.exit_code }}, \${{ steps.<id>.status }}. In a command a value is one argument (never
re-split). Write $\${{ for a literal \${{. A missing variable, step or field is an error, never "".

Shell steps (\`shell: <command>\` instead of \`command\`) run through sh -c (Windows cmd /C) only with
--allow-shell. They take no \${{ }}: values reach them only in their environment, as DIAZO_VAR_<name>
and, per earlier step with an id, DIAZO_STEP_<id>_RESULT (JSON), DIAZO_STEP_<id>_EXIT_CODE and
DIAZO_STEP_<id>_STATUS, e.g. shell: printf '%s' "$DIAZO_VAR_bucket". Their output goes to stderr; they
time out after --timeout seconds (default 600). A pipeline file is at most 1 MiB.

Output: each step's progress and errors go to stderr and a per-step summary follows. With -o json|yaml
(the default when stdout is not a terminal) stdout carries only the run report (per-step status, exit
code, duration and result); otherwise the steps' own data is printed as they run. The exit code is the
failing step's (0 when every failure was allowed by continue_on_error); an invalid file exits 2 and
runs nothing. Steps inherit --profile, --debug, --quiet, --non-interactive, --yes, --wait, --timeout,
--concurrency, --no-color, and --output unless the report is the data (a step's own flags win).
Editors: \`diazo pipeline schema\` prints the file's JSON Schema.`;

/**
 * The pipeline verbs and the step runners, loaded when a command runs (they reach node:path, which a
 * declaration must not load).
 */
const verbs = () => import("../../pipeline/verbs.ts");
const steps = () => import("./steps.ts");

/** The options `pipeline run` and `pipeline validate` share. */
interface LoadOptions {
  var?: string[];
  allowShell?: boolean;
}

/** The pipeline verbs' view of a context. */
function pipelineDeps(ctx: Ctx): PipelineDeps {
  return {
    cwd: ctx.cwd,
    info: (line) => ctx.info(line),
    problem: (text) => ctx.io.stderr.write(text + "\n"),
    tree: async () => (await import("../../front/describe.ts")).commandTree(ctx.io),
    extensions: async () => (await steps()).stepExtensions(ctx),
  };
}

/** Whether the output format makes the run report the data (json, yaml). */
async function isReportFormat(ctx: Ctx): Promise<boolean> {
  const format = await ctx.format();
  return format === "json" || format === "yaml";
}

/** `pipeline run`: the plan with --dry-run, else every step, then the report. */
async function runAction(ctx: Ctx, file: string, opts: LoadOptions & { dryRun?: boolean }): Promise<void> {
  const fileOpts = { file, vars: opts.var, allowShell: opts.allowShell };
  const { runPipelinePlan, runPipelineRun } = await verbs();
  if (opts.dryRun) {
    const plan = await runPipelinePlan(fileOpts, pipelineDeps(ctx));
    await ctx.emit(plan, { columns: ["index", "name", "kind", "command", "continueOnError"] });
    return;
  }
  const reportMode = await isReportFormat(ctx);
  const { stepRunners } = await steps();
  const runners = (total: number) =>
    stepRunners(ctx, {
      quietData: reportMode,
      onStart: (step, shown) =>
        ctx.info(`==> [${step.index}/${total}] ${step.name}: ${redact(shown, knownSecrets())}`),
      onEnd: (r) => {
        if (r.status !== "failed") return;
        const why = r.error ? `: ${r.error}` : "";
        ctx.info(
          `==> step ${r.index} (${r.name}) failed with exit ${r.exitCode}${why}` +
            (r.continueOnError ? "; continuing (continue_on_error)" : ""),
        );
      },
    });
  const report = await runPipelineRun({ ...fileOpts, runners }, pipelineDeps(ctx));
  if (reportMode) await ctx.emit(report);
  ctx.setExitCode(report.exitCode);
}

/** `pipeline validate`: the file's problems, or its steps when it is valid. */
async function validateAction(ctx: Ctx, file: string, opts: LoadOptions): Promise<void> {
  const { runPipelineValidate } = await verbs();
  const checked = await runPipelineValidate(
    { file, vars: opts.var, allowShell: opts.allowShell },
    pipelineDeps(ctx),
  );
  if (!checked.valid) {
    if (await isReportFormat(ctx)) await ctx.emit(checked.record);
    throw checked.error;
  }
  await ctx.emit(checked.record, { columns: ["file", "valid", "name"], longList: "steps" });
}

/** The argument `run` and `validate` take. */
const FILE_ARG = { spec: "<file>", description: "the pipeline file (.yaml, .yml or .json)" };

/** `pipeline run`. */
const RUN: CommandDecl = {
  name: "run",
  description: "validate a pipeline file, then run its steps in order (in this process)",
  args: [FILE_ARG],
  options: [
    {
      flags: "--var <name=value>",
      description: "set a variable (repeatable); overrides the file's value",
      parse: collect(),
      default: [] as string[],
    },
    { flags: "--dry-run", description: "print the resolved steps and run nothing" },
    { flags: "--allow-shell", description: "allow `shell` steps (they run through the OS shell)" },
  ],
  helpText: FILE_HELP,
  examples: [
    "diazo pipeline run examples/pipelines/upload-translate.yaml",
    "diazo pipeline run build.yaml --var bucket=my-bucket --var file=house.ifc",
    "diazo pipeline run build.yaml --dry-run",
    "diazo pipeline run build.yaml -o json | jq '.steps[] | {name, status}'",
  ],
  run: async (ctx, [file]: string[], opts: LoadOptions & { dryRun?: boolean }) =>
    await runAction(ctx, file, opts),
};

/** `pipeline validate`. */
const VALIDATE: CommandDecl = {
  name: "validate",
  aliases: ["check"],
  description: "check a pipeline file and report every problem with file:line:column (exit 2 if any)",
  args: [FILE_ARG],
  options: [
    {
      flags: "--var <name=value>",
      description: "a variable given at run time (repeatable)",
      parse: collect(),
    },
    { flags: "--allow-shell", description: "accept `shell` steps (as `pipeline run --allow-shell` would)" },
  ],
  helpText: FILE_HELP,
  examples: [
    "diazo pipeline validate build.yaml",
    "diazo pipeline validate build.yaml --var file=house.ifc -o json",
  ],
  run: async (ctx, [file]: string[], opts: LoadOptions) => await validateAction(ctx, file, opts),
};

/** `pipeline schema`. */
const SCHEMA: CommandDecl = {
  name: "schema",
  description: "print the JSON Schema of pipeline files (for editor completion and checks)",
  helpText: "\nIn a YAML pipeline, editors with the YAML language server pick it up from a first line\n" +
    '  # yaml-language-server: $schema=./pipeline.schema.json\nand JSON files from a "$schema" key.\n',
  examples: ["diazo pipeline schema > pipeline.schema.json"],
  run: (ctx) => {
    ctx.io.stdout.write(schemaText());
  },
};

/** The pipeline family. */
export const PIPELINE: CommandDecl = {
  name: "pipeline",
  aliases: ["pipelines"],
  description: "run and validate pipeline files of diazo steps (YAML or JSON)",
  examples: [
    "diazo pipeline run examples/pipelines/upload-translate.yaml --var bucket=my-bucket",
    "diazo pipeline validate build.yaml",
    "diazo pipeline schema",
  ],
  commands: [RUN, VALIDATE, SCHEMA],
};
