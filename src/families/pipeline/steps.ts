/**
 * What `pipeline run` needs from the CLI layer besides the command tree's description (describe.ts):
 * the aliases and plugins a step may name, and the step runners (diazo commands in-process through `runCli`, shell steps via the OS shell).
 */
import type { PipelineStep, StepExtensions, StepRun, StepRunners } from "../../pipeline/pipeline.ts";
import { ExitCode } from "../../core/errors.ts";
import { resolvePlugin } from "../../extend/plugins.ts";
import { loadPluginsFile } from "../../extend/plugins_config.ts";
import { lookupOptions } from "../../platform/which.ts";
import { runShell } from "../../platform/shell.ts";
import { childEnv } from "../../extend/child_env.ts";
import type { Ctx, RunState } from "../../command/context.ts";
import { GLOBAL_OPTIONS, OUTPUT_FLAGS, parseFlags } from "../../command/global_options.ts";
import type { Io } from "../../command/io.ts";

/**
 * The aliases of plugins.json and the plugins a step's command word may name. A plugins.json that
 * cannot be read is said once on stderr; the steps are then checked against the built-ins only.
 */
export async function stepExtensions(ctx: Ctx): Promise<StepExtensions> {
  try {
    const loaded = await loadPluginsFile(ctx.configDir);
    const lookup = lookupOptions(ctx.env, Deno.build.os);
    return {
      aliases: loaded.config.aliases,
      isPlugin(name) {
        try {
          return resolvePlugin(name, { config: loaded.config, configFile: loaded.file, lookup }, ctx.env) !==
            undefined;
        } catch {
          return true; // configured but disabled or missing: a plugin all the same
        }
      },
    };
  } catch (e) {
    ctx.warn(`${(e as Error).message}; pipeline steps are checked without aliases and plugins`);
    return { aliases: {}, isPlugin: () => false };
  }
}

const OUTPUT = parseFlags(OUTPUT_FLAGS);

/** The global options a step inherits from the pipeline run (not -o, given apart, nor --query). */
const STEP_INHERITS = GLOBAL_OPTIONS.map((o) => parseFlags(o.flags)).filter((f) =>
  f.key !== "output" && f.key !== "query"
);

/** Global flags of the pipeline run that every step inherits (a step's own flags come later and win). */
export function inheritedFlags(ctx: Ctx, output?: string): string[] {
  const flags = ctx.flags as unknown as Record<string, unknown>;
  const args: string[] = output === undefined ? [] : [OUTPUT.long, output];
  for (const f of STEP_INHERITS) {
    const v = flags[f.key];
    if (f.takesValue) {
      if (v !== undefined) args.push(f.long, String(v));
    } else if (f.negate ? v === false : v === true) args.push(f.long);
  }
  return args;
}

/** The last `error: ...` line a step wrote on stderr. */
function lastError(stderr: string): string | undefined {
  const all = [...stderr.matchAll(/^error: (.*)$/gm)];
  return all.length ? all[all.length - 1][1] : undefined;
}

/** Default limit of a shell step when --timeout is not given. */
const SHELL_TIMEOUT_S = 600;

/**
 * Step runners for `ctx`: commands run in this process with a capturing Io (their data goes to our
 * stdout unless `quietData`, e.g. when the report is the data); shell output goes to stderr.
 */
export function stepRunners(
  ctx: Ctx,
  opts: { quietData: boolean; onStart?: StepRunners["onStart"]; onEnd?: StepRunners["onEnd"] },
): StepRunners {
  // A format asked for explicitly applies to the steps' data too, unless the report is the data.
  const inherited = inheritedFlags(ctx, opts.quietData ? undefined : ctx.flags.output);
  return {
    async command(argv: string[]): Promise<StepRun> {
      const { runCli } = await import("../../front/root.ts");
      const state: RunState = { exitCode: 0 };
      let tail = "";
      const io: Io = {
        stdout: {
          write: (t) => opts.quietData || ctx.io.stdout.write(t),
          isTerminal: ctx.io.stdout.isTerminal,
          get columns() {
            return ctx.io.stdout.columns;
          },
        },
        stderr: {
          write: (t) => {
            ctx.io.stderr.write(t);
            tail = (tail + t).slice(-8192);
          },
          isTerminal: ctx.io.stderr.isTerminal,
        },
        stdin: ctx.io.stdin,
      };
      const exitCode = await runCli([...inherited, ...argv], io, ctx.env, ctx.cwd, { state });
      return { exitCode, result: state.result ?? null, error: lastError(tail) };
    },
    async shell(text: string, env: Record<string, string>, _step: PipelineStep): Promise<StepRun> {
      const seconds = ctx.flags.timeout ?? SHELL_TIMEOUT_S;
      const decoder = new TextDecoder();
      const r = await runShell(text, {
        env,
        inherit: childEnv(ctx.env),
        cwd: ctx.cwd,
        timeoutMs: seconds * 1000,
        onOutput: (chunk) => ctx.io.stderr.write(decoder.decode(chunk, { stream: true })),
      });
      if (r.timedOut) {
        return { exitCode: ExitCode.transient, error: `the shell step timed out after ${seconds} s` };
      }
      return {
        exitCode: r.code ?? 1,
        error: r.code === 0 ? undefined : `the shell step exited with ${r.code}`,
      };
    },
    warn: (message) => ctx.warn(message),
    onStart: opts.onStart,
    onEnd: opts.onEnd,
  };
}
