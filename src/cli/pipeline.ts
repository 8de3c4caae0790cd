/** `diazo pipeline ...`: run, validate and describe pipeline files of diazo steps (YAML or JSON). */
import {
  effectiveVariables,
  formatProblem,
  invalidPipelineError,
  loadPipeline,
  parseVarFlags,
  type Pipeline,
  planSteps,
  type Problem,
  runPipeline,
  summaryText,
} from "../pipeline/pipeline.ts";
import { schemaText } from "../pipeline/schema.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import type { Ctx } from "./context.ts";
import { commandTree, stepExtensions, stepRunners } from "./pipeline_steps.ts";

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

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
\${{ steps.<id>.exit_code }}, \${{ steps.<id>.status }}. A value is always one argument (never re-split).
Write $\${{ for a literal \${{. A missing variable, step or field is an error, never an empty string.

Shell steps (\`shell: <command>\` instead of \`command\`) run through sh -c (Windows cmd /C) only with
--allow-shell; values are inserted as text, so prefer the environment: every variable is also
DIAZO_VAR_<name>. Their output goes to stderr; they time out after --timeout seconds (default 600).

Output: each step's progress and errors go to stderr and a per-step summary follows. With -o json|yaml
(the default when stdout is not a terminal) stdout carries only the run report (per-step status, exit
code, duration and result); otherwise the steps' own data is printed as they run. The exit code is the
failing step's (0 when every failure was allowed by continue_on_error); an invalid file exits 2 and
runs nothing. Steps inherit --profile, --debug, --quiet, --non-interactive, --yes, --wait, --timeout,
--concurrency, --no-color, and --output unless the report is the data (a step's own flags win).
Editors: \`diazo pipeline schema\` prints the file's JSON Schema.`;

interface LoadOptions {
  var?: string[];
  allowShell?: boolean;
}

async function load(
  ctx: Ctx,
  file: string,
  opts: LoadOptions,
): Promise<{ pipeline?: Pipeline; problems: Problem[]; overrides: Record<string, string> }> {
  const overrides = parseVarFlags(opts.var ?? []);
  const [tree, extensions] = await Promise.all([commandTree(ctx.io), stepExtensions(ctx)]);
  const { pipeline, problems } = await loadPipeline(file, ctx.cwd, {
    tree,
    extensions,
    allowShell: opts.allowShell === true,
    extraVariables: Object.keys(overrides),
  });
  for (const p of problems) ctx.io.stderr.write(formatProblem(file, p) + "\n");
  return { pipeline, problems, overrides };
}

async function isReportFormat(ctx: Ctx): Promise<boolean> {
  const format = await ctx.format();
  return format === "json" || format === "yaml";
}

async function runAction(ctx: Ctx, file: string, opts: LoadOptions & { dryRun?: boolean }): Promise<void> {
  const { pipeline, problems, overrides } = await load(ctx, file, opts);
  if (!pipeline) throw invalidPipelineError(file, problems);
  const vars = effectiveVariables(pipeline, overrides);
  const total = pipeline.steps.length;
  if (opts.dryRun) {
    const secrets = knownSecrets();
    const plan = planSteps(pipeline, vars).map((s) => ({
      ...s,
      command: redact(s.command, secrets),
      argv: s.argv?.map((a) => redact(a, secrets)),
    }));
    ctx.info(`Dry run of '${pipeline.name}' (${total} step(s)); nothing was executed.`);
    await ctx.emit(plan, { columns: ["index", "name", "kind", "command", "continueOnError"] });
    return;
  }
  const reportMode = await isReportFormat(ctx);
  const report = await runPipeline(
    pipeline,
    file,
    vars,
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
    }),
  );
  ctx.info(summaryText(report).trimEnd());
  if (reportMode) {
    // A secret passed on a step's command line (e.g. a client secret) stays out of the report.
    const secrets = knownSecrets();
    for (const step of report.steps) {
      step.argv = step.argv?.map((a) => redact(a, secrets));
      if (step.shell !== undefined) step.shell = redact(step.shell, secrets);
    }
    await ctx.emit(report);
  }
  ctx.setExitCode(report.exitCode);
}

async function validateAction(ctx: Ctx, file: string, opts: LoadOptions): Promise<void> {
  const { pipeline, problems } = await load(ctx, file, opts);
  if (!pipeline) {
    if (await isReportFormat(ctx)) {
      await ctx.emit({
        file,
        valid: false,
        problems: problems.map(({ line, column, message, source }) => ({ line, column, message, source })),
      });
    }
    throw invalidPipelineError(file, problems);
  }
  ctx.info(`${file}: a valid pipeline '${pipeline.name}' with ${pipeline.steps.length} step(s)`);
  await ctx.emit({
    file,
    valid: true,
    name: pipeline.name,
    steps: pipeline.steps.map((s) => ({
      index: s.index,
      name: s.name,
      id: s.id,
      kind: s.shell ? "shell" : "command",
      command: s.command?.text ?? s.shell?.text,
      continueOnError: s.continueOnError,
    })),
  }, { columns: ["file", "valid", "name"] });
}

/** Registers the pipeline family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const pipeline = program.command("pipeline").alias("pipelines")
    .description("run and validate pipeline files of diazo steps (YAML or JSON)");

  const run = pipeline.command("run")
    .description("validate a pipeline file, then run its steps in order (in this process)")
    .argument("<file>", "the pipeline file (.yaml, .yml or .json)")
    .option(
      "--var <name=value>",
      "set a variable (repeatable); overrides the file's value",
      collect,
      [] as string[],
    )
    .option("--dry-run", "print the resolved steps and run nothing")
    .option("--allow-shell", "allow `shell` steps (they run through the OS shell)")
    .action(async (file, opts, cmd) => await runAction(makeCtx(cmd), file, opts));
  run.addHelpText("after", FILE_HELP);
  examples(run, [
    "diazo pipeline run examples/pipelines/upload-translate.yaml",
    "diazo pipeline run build.yaml --var bucket=my-bucket --var file=house.ifc",
    "diazo pipeline run build.yaml --dry-run",
    "diazo pipeline run build.yaml -o json | jq '.steps[] | {name, status}'",
  ]);

  const validate = pipeline.command("validate").alias("check")
    .description("check a pipeline file and report every problem with file:line:column (exit 2 if any)")
    .argument("<file>", "the pipeline file (.yaml, .yml or .json)")
    .option("--var <name=value>", "a variable given at run time (repeatable)", collect)
    .option("--allow-shell", "accept `shell` steps (as `pipeline run --allow-shell` would)")
    .action(async (file, opts, cmd) => await validateAction(makeCtx(cmd), file, opts));
  validate.addHelpText("after", FILE_HELP);
  examples(validate, [
    "diazo pipeline validate build.yaml",
    "diazo pipeline validate build.yaml --var file=house.ifc -o json",
  ]);

  const schema = pipeline.command("schema")
    .description("print the JSON Schema of pipeline files (for editor completion and checks)")
    .action((_opts, cmd) => {
      makeCtx(cmd).io.stdout.write(schemaText());
    });
  schema.addHelpText(
    "after",
    "\nIn a YAML pipeline, editors with the YAML language server pick it up from a first line\n" +
      '  # yaml-language-server: $schema=./pipeline.schema.json\nand JSON files from a "$schema" key.\n',
  );
  examples(schema, ["diazo pipeline schema > pipeline.schema.json"]);
  examples(pipeline, [
    "diazo pipeline run examples/pipelines/upload-translate.yaml --var bucket=my-bucket",
    "diazo pipeline validate build.yaml",
    "diazo pipeline schema",
  ]);
}
