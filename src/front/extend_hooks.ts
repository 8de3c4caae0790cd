/**
 * Running a command's pre_/post_ hooks from plugins.json: in order, through the OS shell, output to
 * stderr, each bounded by DIAZO_HOOK_TIMEOUT; a failing or hanging hook is a warning, never an error.
 */
import {
  DEFAULT_HOOK_TIMEOUT_S,
  type HookContext,
  hookEnv,
  hookNames,
  type HookPhase,
  hookStopText,
  hookTimeoutMs,
  postHooksRun,
} from "../extend/hooks.ts";
import type { LoadedPlugins } from "../extend/plugins_file.ts";
import type { Io } from "../command/io.ts";

/** Families that read plugins.json themselves and report it broken as their error. */
const OWN_CONFIG_FAMILIES = new Set(["plugin", "alias"]);

/** A run's pre_ and post_ hooks around its command. */
export interface HookRunner {
  before(cmd: HookSubject): Promise<void>;
  after(exitCode: number, result: unknown): Promise<void>;
}

/** What the hook runner needs from the run. */
export interface HookRunnerInput {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  os: string;
  debug(line: string): void;
  warn(line: string): void;
  /** plugins.json of the run (loaded once). */
  load(): Promise<{ ok?: LoadedPlugins; error?: unknown }>;
}

/** What the pre/post hooks know of the command about to act (from the parsed line, run_line.ts). */
export interface HookSubject {
  commandPath: string[];
  args: Record<string, unknown>;
  options: Record<string, unknown>;
  /** --no-hooks was given. */
  noHooks: boolean;
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

/** How a hook command is shown in debug lines. */
function shown(os: string, command: string): string {
  return os === "windows" ? `cmd /d /s /c "${command}"` : `sh -c '${command}'`;
}

/** Creates the hook runner of one run: `before` on the first action, `after` once the run has ended. */
export function createHookRunner(input: HookRunnerInput): HookRunner {
  // long: a factory whose length is the closures it returns, which share the run's hook state
  const { io, env, os } = input;
  let started = false;
  let subject: Omit<HookContext, "hookName"> | undefined;
  let hooks: Record<string, string[]> = {};

  const timeoutMs = () => hookTimeoutMs(env.DIAZO_HOOK_TIMEOUT) ?? DEFAULT_HOOK_TIMEOUT_S * 1000;

  async function run(phase: HookPhase, extra: Partial<HookContext>): Promise<void> {
    if (!subject) return;
    const names = hookNames(subject.commandPath, phase).filter((n) => (hooks[n] ?? []).length > 0);
    if (names.length === 0) return;
    const limit = timeoutMs();
    // The shell runner loads only when a hook is to run: not on every command's start-up.
    const [{ runShell }, { childEnv }] = await Promise.all([
      import("../platform/shell.ts"),
      import("../extend/child_env.ts"),
    ]);
    for (const hookName of names) {
      for (const command of hooks[hookName]) {
        const decoder = new TextDecoder();
        const ctx = { ...subject, ...extra, hookName };
        try {
          const r = await runShell(command, {
            env: hookEnv(ctx),
            inherit: childEnv(env),
            cwd: input.cwd,
            timeoutMs: limit,
            onOutput: (chunk) => io.stderr.write(decoder.decode(chunk, { stream: true })),
          });
          const tail = decoder.decode();
          if (tail) io.stderr.write(tail);
          input.debug(
            `hook ${hookName}: ${shown(os, command)} → ${
              r.timedOut ? "timed out" : `exit ${r.code}`
            } in ${r.elapsedMs} ms`,
          );
          if (r.timedOut) {
            input.warn(
              `hook ${hookName}: \`${command}\` timed out after ${limit / 1000} s and ${hookStopText(os, r)}`,
            );
          } else if (r.code !== 0) {
            input.warn(`hook ${hookName}: \`${command}\` exited with ${r.code}`);
          }
        } catch (e) {
          input.warn(`hook ${hookName}: \`${command}\` could not be run: ${(e as Error).message}`);
        }
      }
    }
  }

  return {
    async before(cmd) {
      // `translate <urn>` acts again through `translate start`: the first action is the command.
      if (started) return;
      started = true;
      if (cmd.noHooks || truthy(env.DIAZO_NO_HOOKS)) return;
      const { commandPath } = cmd;
      const { ok, error } = await input.load();
      if (!ok) {
        if (!OWN_CONFIG_FAMILIES.has(commandPath[0])) {
          input.warn(`hooks skipped: ${(error as Error)?.message ?? String(error)}`);
        }
        return;
      }
      hooks = ok.config.hooks;
      // A bad DIAZO_HOOK_TIMEOUT is a usage error before the command runs, not after it.
      if (Object.values(hooks).some((list) => list.length > 0)) timeoutMs();
      subject = { commandPath, args: cmd.args, options: cmd.options };
      await run("pre", {});
    },
    async after(exitCode, result) {
      if (!subject || !postHooksRun(subject.commandPath, exitCode)) return;
      const names = hookNames(subject.commandPath, "post").filter((n) => (hooks[n] ?? []).length > 0);
      if (names.length === 0) return;
      let resultFile: string | undefined;
      try {
        if (result !== undefined) {
          resultFile = await Deno.makeTempFile({ prefix: "diazo-result-", suffix: ".json" });
          if (os !== "windows") await Deno.chmod(resultFile, 0o600);
          await Deno.writeTextFile(resultFile, JSON.stringify(result, null, 2) + "\n");
        }
        await run("post", { exitCode, result, resultFile });
      } catch (e) {
        input.warn(`post hooks not run: ${(e as Error).message}`);
      } finally {
        if (resultFile) await Deno.remove(resultFile).catch(() => {});
      }
    },
  };
}
