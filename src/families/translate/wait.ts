/** Waiting for a translation in the CLI: a progress display on stderr, Ctrl-C, and the platform's messages on failure. */
import { DiazoError } from "../../core/errors.ts";
import { type Manifest, manifestMessages, progressPercent, type TranslationWait } from "./verbs.ts";
import type { Ctx } from "../../command/context.ts";

function envNumber(ctx: Ctx, name: string): number | undefined {
  const raw = ctx.env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Poll delays of this run (see `pollOptionsFrom`). */
export function pollOptions(ctx: Ctx): Ctx["poll"] {
  return ctx.poll;
}

/** Shows progress: a spinner when stderr is a terminal, else a line each time the status changes. */
interface ProgressDisplay {
  update(manifest: Manifest): void;
  stop(): void;
}

async function progressDisplay(ctx: Ctx): Promise<ProgressDisplay> {
  const text = (m: Manifest) => `Translation ${m.status} (${m.progress ?? `${progressPercent(m)}%`})`;
  if (ctx.flags.quiet) return { update() {}, stop() {} };
  if (!ctx.io.stderr.isTerminal || ctx.env.TERM === "dumb") {
    let last = "";
    return {
      update(m) {
        const line = text(m);
        if (line !== last) ctx.info(line);
        last = line;
      },
      stop() {},
    };
  }
  const { default: yoctoSpinner } = await import("yocto-spinner");
  const spinner = yoctoSpinner({
    text: "Waiting for the translation",
    stream: (await import("node:process")).stderr,
  })
    .start();
  return {
    update: (m) => void (spinner.text = text(m)),
    stop: () => void spinner.stop(),
  };
}

/**
 * Runs a wait (`run`, given how to wait) with a progress display. `--timeout` limits the wait,
 * `DIAZO_STALL_MINUTES` overrides the 30 minutes after which a pending job counts as stalled,
 * Ctrl-C stops waiting (the job goes on). A failed job prints the platform's messages on stderr
 * before the error.
 */
export async function withProgress<T>(
  ctx: Ctx,
  urn: string,
  run: (wait: TranslationWait) => Promise<T>,
): Promise<T> {
  const signal = ctx.interruptSignal();
  const stallMinutes = envNumber(ctx, "DIAZO_STALL_MINUTES");
  const display = await progressDisplay(ctx);
  try {
    return await run({
      timeoutMs: ctx.flags.timeout !== undefined ? ctx.flags.timeout * 1000 : undefined,
      stallAfterMs: stallMinutes !== undefined ? stallMinutes * 60_000 : undefined,
      signal,
      onProgress: (m) => display.update(m),
    });
  } catch (e) {
    display.stop();
    if (e instanceof DiazoError && e.code === "translation_failed") {
      const manifest = e.body as Manifest | undefined;
      const problems = manifest ? manifestMessages(manifest).filter((m) => m.type !== "warning") : [];
      for (const p of problems) ctx.io.stderr.write(`platform: ${p.code ? `${p.code}: ` : ""}${p.message}\n`);
      if (problems.length === 0) {
        ctx.io.stderr.write(`platform: the manifest's status is ${manifest?.status}\n`);
      }
    } else if (e instanceof DiazoError && e.code === "interrupted") {
      ctx.io.stderr.write(
        `\nStopped waiting; the job goes on. Check it with: diazo translate status ${urn}\n`,
      );
    }
    throw e;
  } finally {
    display.stop();
  }
}
