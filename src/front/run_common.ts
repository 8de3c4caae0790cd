/**
 * The parts of every run (root.ts, run_line.ts): one `error:`/`hint:` report per failure, the closed-pipe exit, the scope-usage
 * record, Ctrl-C, the global flags as a command sees them, and the run's skeleton around an action.
 */
import { ExitCode, isDiazoError, toDiazoError } from "../core/errors.ts";
import { phrased } from "../core/field_error.ts";
import { visible } from "../core/sanitize.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import { appendScopeUse } from "../config/scope_usage.ts";
import { stateDirFor } from "../platform/dirs.ts";
import type { RunGlobals } from "./argv.ts";
import type { GlobalFlags, RunState } from "../command/context.ts";
import type { Extensions } from "./extend.ts";
import type { Io } from "../command/io.ts";
import { CLOSED_OUTPUT_EXIT, isClosedOutput } from "../command/closed_output.ts";
import { CLI_SURFACE } from "../command/field_names.ts";

export { CLOSED_OUTPUT_EXIT, isClosedOutput };

/** The global flags as a command sees them, from the program's options as the parser read them (parse.ts). */
export function globalFlagsOf(o: Record<string, unknown>): GlobalFlags {
  return {
    output: o.output as string | undefined,
    query: o.query as string | undefined,
    profile: o.profile as string | undefined,
    debug: Boolean(o.debug),
    quiet: Boolean(o.quiet),
    nonInteractive: Boolean(o.nonInteractive),
    yes: Boolean(o.yes || o.confirm),
    wait: Boolean(o.wait),
    timeout: o.timeout as number | undefined,
    concurrency: o.concurrency as number | undefined,
    color: o.color !== false,
    wide: Boolean(o.wide),
  };
}

/** Writes `e` (already a DiazoError, or unexpected) as `error:`/`hint:` lines (and JSON when asked); its exit code. */
export function reportError(e: unknown, io: Io, globals: RunGlobals): number {
  // The JSON object only when json is asked for (flag, DIAZO_OUTPUT, setting), not for a mere pipe.
  const asked = globals.outputSource !== "terminal" && globals.outputError === undefined;
  const opts = { json: asked && globals.output === "json", debug: globals.debug };
  const stack = isDiazoError(e) ? undefined : (e as Error)?.stack;
  if (opts.debug && stack) io.stderr.write(redact(stack, knownSecrets()) + "\n");
  const de = toDiazoError(e, "Run again with --debug for details, and report it if it persists.");
  const secrets = knownSecrets();
  const words = phrased(de, CLI_SURFACE);
  const message = redact(words.message, secrets);
  const hint = redact(words.hint, secrets);
  // Messages quote platform text (keys, answers): no raw control character reaches the terminal.
  const shown = (text: string) => visible(text, { keepLines: true });
  io.stderr.write(`error: ${shown(message)}\nhint: ${shown(hint)}\n`);
  if (opts.json) {
    io.stderr.write(
      JSON.stringify({ error: { code: de.code, message, hint, status: de.status ?? null } }) + "\n",
    );
  }
  if (opts.debug && de.cause instanceof Error && de.cause.stack) {
    io.stderr.write(redact(de.cause.stack, secrets) + "\n");
  }
  return de.exitCode;
}

/** `reportError`, except that a closed stderr cannot turn one failure into a crash. */
function reportErrorSafely(e: unknown, io: Io, globals: RunGlobals): number {
  try {
    return reportError(e, io, globals);
  } catch (writeError) {
    if (!isClosedOutput(writeError)) throw writeError;
    return isDiazoError(e) ? e.exitCode : ExitCode.failure;
  }
}

/** Appends the run's scope use to the local log; a log that cannot be written never fails a command. */
async function recordUsage(
  state: RunState,
  exit: number,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (!state.usage || state.usage.scopes.size === 0 || !state.command) return;
  try {
    await appendScopeUse(stateDirFor((k) => env[k], Deno.build.os), {
      time: new Date().toISOString(),
      command: state.command,
      profile: state.usage.profile,
      mode: state.usage.mode,
      scopes: [...state.usage.scopes].sort(),
      exit,
    });
  } catch { /* best effort */ }
}

/** What `guardedRun` wraps. */
export interface GuardedRun {
  io: Io;
  env: Record<string, string | undefined>;
  state: RunState;
  ext: Extensions;
  /** The run's globals as they stand when a failure is reported. */
  globals(): RunGlobals;
}

/**
 * Runs `body` (the command) with Ctrl-C handled, then the post hooks and the scope-usage record;
 * a failure becomes one reported error and its exit code. `body` returns undefined when the command
 * ran to its end (the run's exit code then stands), or an exit code of its own (help, plugins).
 */
export async function guardedRun(run: GuardedRun, body: () => Promise<number | undefined>): Promise<number> {
  const { io, env, state, ext } = run;
  const onSigint = () => {
    if (state.interruptHandler) return state.interruptHandler();
    io.stderr.write("\nerror: Interrupted\n");
    // Exit from a task of its own, after the listener returns: on Windows a Ctrl-C runs on a thread of
    // the console's, and exiting while that thread is still inside its handler list lost the exit code
    // (0 instead of 130 in about one run of ten under Wine).
    setTimeout(() => Deno.exit(ExitCode.interrupted), 0);
  };
  try {
    Deno.addSignalListener("SIGINT", onSigint);
  } catch { /* not supported here (e.g. some Windows consoles) */ }
  try {
    const own = await body();
    if (own !== undefined) return own;
    await ext.afterAction(state.exitCode, state.result);
    await recordUsage(state, state.exitCode, env);
    return state.exitCode;
  } catch (e) {
    const code = isClosedOutput(e) ? CLOSED_OUTPUT_EXIT : reportErrorSafely(e, io, run.globals());
    await ext.afterAction(code, state.result);
    await recordUsage(state, code, env);
    return code;
  } finally {
    try {
      Deno.removeSignalListener("SIGINT", onSigint);
    } catch { /* ignore */ }
  }
}
