/**
 * What `demo` asks before it spends on an account (README.md, "demo"), and how it is stopped: Ctrl-C
 * and SIGTERM abort one signal, so that the demo deletes what it made before the process ends.
 */
import type { Ctx } from "../../command/context.ts";
import { usageError } from "../../core/errors.ts";
import { SANDBOX_CLIENT_ID } from "../sandbox/commands.ts";

/**
 * True when the demo's platform charges no one: its own in-process sandbox, or an app with the sandbox's
 * well-known client id (which only a sandbox accepts). Any other credentials may be a real account's.
 */
export function spendsNothing(inProcess: boolean, clientId: string | undefined): boolean {
  return inProcess || clientId === SANDBOX_CLIENT_ID;
}

/** What the demo does to the account, in one sentence. */
export function demoCost(baseUrl: string, clientId: string | undefined): string {
  return `diazo demo creates a bucket, uploads a 12 MiB model and runs two translations (SVF2, OBJ) on ${baseUrl} as app ${
    clientId ?? "?"
  }`;
}

/**
 * Agreement to spend on a real account: `--yes`, or a "y" at the prompt (default No). Without a
 * terminal, or with CI set, it is a usage error at once, naming `--yes` and `--sandbox`.
 */
export async function agreeToSpend(ctx: Ctx): Promise<boolean> {
  if (ctx.flags.yes) return true;
  const settings = await ctx.settings();
  const what = demoCost(settings.baseUrl.value, settings.clientId.value);
  if (!ctx.interactive) {
    throw usageError(
      `${what}: confirmation required`,
      "Pass --yes to run it on this account, or run `diazo demo --sandbox` to use the built-in sandbox instead.",
    );
  }
  ctx.info(
    `${what}. This uses your account and may cost cloud credits; the demo deletes all it made at the end.`,
  );
  return await ctx.confirm("Run the demo on this account?");
}

/** The signal that stops the demo, and which signal it was (SIGINT or SIGTERM) once one came. */
export interface DemoStop {
  signal: AbortSignal;
  by(): "SIGINT" | "SIGTERM" | undefined;
  /** Stops listening for SIGTERM. */
  dispose(): void;
}

/** Ctrl-C (through the run's interrupt, command/context.ts) and SIGTERM, as one abort signal. */
export function demoStop(ctx: Ctx): DemoStop {
  const controller = new AbortController();
  let by: "SIGINT" | "SIGTERM" | undefined;
  const stop = (name: "SIGINT" | "SIGTERM") => () => {
    by ??= name;
    controller.abort(new DOMException(name === "SIGINT" ? "interrupted" : "terminated", "AbortError"));
  };
  ctx.onInterrupt(stop("SIGINT"));
  const onTerm = stop("SIGTERM");
  const listens = Deno.build.os !== "windows";
  if (listens) Deno.addSignalListener("SIGTERM", onTerm);
  return {
    signal: controller.signal,
    by: () => by,
    dispose: () => listens && Deno.removeSignalListener("SIGTERM", onTerm),
  };
}
