/**
 * `diazo demo`: declared as data (command/decl.ts) over families/demo/verbs.ts; it picks the platform — an in-process
 * sandbox when no credentials are configured (or with --sandbox) — asks before it spends on an account
 * (families/demo/gate.ts), and shows the steps.
 */
import { throwawayTokenStore } from "../auth/verbs.ts";
import type { CommandDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";
import { DiazoError } from "../../core/errors.ts";
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from "../sandbox/commands.ts";
import { agreeToSpend, demoStop, spendsNothing } from "./gate.ts";

/** Why the demo runs against an in-process sandbox: asked to, or no credentials to use. */
export function demoPlatformLine(forceSandbox: boolean, configured: boolean): string {
  const why = forceSandbox
    ? `--sandbox${configured ? " (your credentials are not used)" : ""}`
    : "No credentials configured";
  return `${why}: running against an in-process sandbox (no account, no network needed).`;
}

/** The context of the demo: the caller's, or one pointed at a fresh in-process sandbox. */
async function demoContext(
  outer: Ctx,
  forceSandbox: boolean,
): Promise<{ ctx: Ctx; close?: () => Promise<void> }> {
  const resolved = await outer.settings();
  const configured = Boolean(resolved.clientId.value && resolved.clientSecret.value);
  if (!forceSandbox && configured) return { ctx: outer };
  outer.info(demoPlatformLine(forceSandbox, configured));
  const { startSandbox } = await import("../../sandbox/server.ts");
  const sandbox = await startSandbox({ port: 0 });
  const ctx = outer.derive({
    env: {
      DIAZO_BASE_URL: sandbox.url,
      SVC_CLIENT_ID: SANDBOX_CLIENT_ID,
      SVC_CLIENT_SECRET: SANDBOX_CLIENT_SECRET,
    },
    tokenStore: throwawayTokenStore(),
  });
  return { ctx, close: () => sandbox.close() };
}

/** Runs the demo in `ctx`, stopped by Ctrl-C or SIGTERM after deleting what it made; its result, or none when stopped. */
async function runStoppable(ctx: Ctx, opts: { keep?: boolean; inProcess: boolean }) {
  // The demo's verbs reach node:path and node:crypto, which a declaration must not load.
  const { runDemo } = await import("./verbs.ts");
  const stop = demoStop(ctx);
  try {
    return await runDemo(
      { keep: opts.keep, sandbox: opts.inProcess, timeoutSec: ctx.flags.timeout, signal: stop.signal },
      ctx,
    );
  } catch (e) {
    if (stop.by() === "SIGINT") throw new DiazoError("interrupted", { cause: e });
    if (stop.by() !== "SIGTERM") throw e;
    ctx.setExitCode(SIGTERM_EXIT);
    try {
      ctx.info("Terminated.");
    } catch { /* nobody is reading */ }
    return undefined;
  } finally {
    stop.dispose();
  }
}

/** The exit code of a run ended by SIGTERM: 128 + 15, as a shell reports a process it killed. */
const SIGTERM_EXIT = 143;

/** The demo family: one command. */
export const DEMO: CommandDecl = {
  name: "demo",
  description:
    "run the whole flow: bucket, generated model, multipart upload, translation, properties, derivative download, clean-up; uses the sandbox when no credentials are set, asks before it uses a real account",
  options: [
    { flags: "--sandbox", description: "use the in-process sandbox even when credentials are configured" },
    { flags: "--keep", description: "leave the bucket and the local files in place" },
  ],
  examples: ["diazo demo", "diazo demo --sandbox -o json", "diazo demo --keep", "diazo demo --yes"],
  run: async (outer, _args, opts: { sandbox?: boolean; keep?: boolean }) => {
    const { ctx, close } = await demoContext(outer, Boolean(opts.sandbox));
    const inProcess = close !== undefined;
    try {
      const free = spendsNothing(inProcess, (await ctx.settings()).clientId.value);
      if (!free && !(await agreeToSpend(ctx))) {
        ctx.info("Cancelled; nothing was created.");
        ctx.setExitCode(1);
        return;
      }
      const result = await runStoppable(ctx, { keep: opts.keep, inProcess });
      if (!result) return;
      const { summary, steps } = result;
      ctx.info(`Demo finished: ${steps.length} steps ok.`);
      // A table of a nested summary is unreadable: show the steps there, everything elsewhere.
      if ((await ctx.format()) === "table" && !ctx.flags.query) {
        await ctx.emit(steps, { columns: ["step", "ok", "ms", "detail"] });
      } else {
        const base = (await ctx.settings()).baseUrl.value;
        await ctx.emit({ base_url: base, sandbox: inProcess, ...summary, steps });
      }
    } finally {
      await close?.();
    }
  },
};
