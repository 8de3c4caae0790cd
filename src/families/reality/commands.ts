/** `diazo reality-capture ...`: photo-to-3D photoscenes, a thin commander adapter over families/reality/verbs.ts. */
import { Option } from "@commander-js/extra-typings";
import { usageError } from "../../core/errors.ts";
import {
  checkFormats,
  checkSceneId,
  RC_FORMATS,
  runRealityCreate,
  runRealityDelete,
  runRealityProcess,
  runRealityResult,
  runRealityStatus,
  runRealityUpload,
  type SceneStatus,
} from "./verbs.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";
import { byteProgress } from "../../command/progress.ts";

const STATUS_COLUMNS = ["photosceneid", "progressmsg", "progress"] as const;

/** Waits for a scene (or reads its status once), a line on stderr each time its progress changes. */
async function showStatus(ctx: Ctx, sceneId: string): Promise<SceneStatus> {
  let last = "";
  const status = await runRealityStatus({
    sceneId,
    wait: ctx.flags.wait,
    timeoutMs: ctx.flags.timeout !== undefined ? ctx.flags.timeout * 1000 : undefined,
    signal: ctx.interruptSignal(),
    onProgress: (s) => {
      const line = `Photoscene ${sceneId}: ${s.progressmsg || "?"} (${s.percent}%)`;
      if (ctx.flags.wait && line !== last) ctx.info(line);
      last = line;
    },
  }, ctx);
  return status;
}

/** `--per-request`: 1 to 20 photos, the platform's limit per request. */
function perRequest(value: string): number {
  const n = positiveNumber("--per-request", true)(value);
  if (n > 20) {
    throw usageError(
      `--per-request must be at most 20, got ${n}`,
      "The platform takes at most 20 files per request.",
    );
  }
  return n;
}

/** Emits the scene's status (after waiting for it with --wait). */
async function emitStatus(ctx: Ctx, sceneId: string): Promise<void> {
  await ctx.emit(await showStatus(ctx, sceneId), { columns: STATUS_COLUMNS });
}

/** Registers the reality-capture family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  // long: the family's verbs, each a short commander declaration over families/reality/verbs.ts, read in one place
  const rc = program.command("reality-capture")
    .description("photo to 3D: photoscenes from photos to meshes (2-legged; scopes data:read, data:write)");
  examples(rc, [
    "diazo reality-capture create --name site-scan --format rcm,obj",
    "diazo reality-capture upload <scene> photos/",
    "diazo reality-capture process <scene> && diazo reality-capture status <scene> --wait",
    "diazo reality-capture result <scene> --format obj -o results/",
  ]);

  const create = rc.command("create")
    .description("create a photoscene; prints its photosceneid")
    .requiredOption("--name <name>", "the scene's name")
    .addOption(
      new Option("--format <list>", `output formats, comma-separated (${RC_FORMATS.join(", ")})`)
        .argParser(checkFormats).default(["rcm"] as string[], "rcm"),
    )
    .addOption(
      new Option("--scene-type <type>", "what the photos show").choices(["object", "aerial"] as const),
    )
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const created = await runRealityCreate(
        { name: opts.name, formats: opts.format, sceneType: opts.sceneType },
        ctx,
      );
      await ctx.emit(created, {
        columns: ["photosceneid", "name", "formats", "scenetype"],
        action: `Created photoscene ${created.photosceneid} (${created.formats.join(", ")})`,
      });
    });
  examples(create, [
    "diazo reality-capture create --name bridge --format rcm,obj,ortho --scene-type aerial",
    "diazo reality-capture create --name statue --format obj -o json --query photosceneid",
  ]);

  const upload = rc.command("upload")
    .description(
      "add photos (JPEG files, or directories of them): streamed, several requests at once (--concurrency), retried; a re-run skips photos the scene already has",
    )
    .argument("<scene>", "photosceneid", checkSceneId)
    .argument("<photos...>", "JPEG files and directories")
    .option("--per-request <n>", "photos per request (1-20; default 5)", perRequest)
    .action(async (sceneId, photos, opts, cmd) => {
      const ctx = makeCtx(cmd);
      let progress: Awaited<ReturnType<typeof byteProgress>> | undefined;
      let started: Promise<unknown> | undefined;
      const up = await runRealityUpload({
        sceneId,
        inputs: photos,
        perRequest: opts.perRequest,
        concurrency: ctx.flags.concurrency,
        signal: ctx.interruptSignal(),
        onProgress: (done, total) => {
          started ??= byteProgress(ctx, "photos", total).then((p) => (progress = p));
          progress?.update(done, total);
        },
      }, ctx).finally(async () => {
        await started;
        progress?.stop();
      });
      ctx.info(up.summary);
      for (const o of up.photos) if (o.status === "failed") ctx.setExitCode(o.exitCode);
      await ctx.emit(up, { columns: ["photosceneid", "uploaded", "skipped", "failed", "bytes"] });
    });
  examples(upload, [
    "diazo reality-capture upload <scene> photos/",
    "diazo reality-capture upload <scene> img1.jpg img2.jpg img3.jpg --concurrency 8",
  ]);

  const process = rc.command("process")
    .description("start processing the scene's photos (at least 3); with --wait, wait until it is done")
    .argument("<scene>", "photosceneid", checkSceneId)
    .action(async (sceneId, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const started = await runRealityProcess({ sceneId }, ctx);
      if (!ctx.flags.wait) {
        return await ctx.emit(started, { action: `Processing photoscene ${sceneId}` });
      }
      ctx.info(`Processing photoscene ${sceneId}`);
      await emitStatus(ctx, sceneId);
    });
  examples(process, [
    "diazo reality-capture process <scene>",
    "diazo reality-capture process <scene> --wait",
  ]);

  const status = rc.command("status")
    .description("the scene's progress; with --wait, poll until it is done (progress on stderr)")
    .argument("<scene>", "photosceneid", checkSceneId)
    .action(async (sceneId, _opts, cmd) => await emitStatus(makeCtx(cmd), sceneId));
  examples(status, [
    "diazo reality-capture status <scene>",
    "diazo reality-capture status <scene> --wait --timeout 3600",
  ]);

  const result = rc.command("result")
    .description("download the scene's result into a directory (written whole or not at all)")
    .argument("<scene>", "photosceneid", checkSceneId)
    .requiredOption("--out <dir>", "directory to write into")
    .option("--format <format>", "which output format (one the scene was created with)", "rcm")
    .option("--force", "overwrite an existing file")
    .action(async (sceneId, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const [format] = checkFormats(opts.format);
      const got = await runRealityResult(
        { sceneId, format, outDir: opts.out, force: opts.force, signal: ctx.interruptSignal() },
        ctx,
      );
      await ctx.emit(got, {
        columns: ["file", "format", "size"],
        action: `Downloaded ${got.format} result of ${sceneId} to ${got.file} (${got.size} bytes)`,
      });
    });
  examples(result, [
    "diazo reality-capture result <scene> --out results/",
    "diazo reality-capture result <scene> --format obj --out results/ --force",
  ]);

  const del = rc.command("delete")
    .description("delete a photoscene with its photos and results (asks first; --yes to skip)")
    .argument("<scene>", "photosceneid", checkSceneId)
    .action(async (sceneId, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const deleted = await runRealityDelete({ sceneId, confirm: (q) => ctx.confirmOrCancel(q) }, ctx);
      if (deleted) await ctx.emit(deleted, { action: `Deleted photoscene ${sceneId}` });
    });
  examples(del, ["diazo reality-capture delete <scene> --yes"]);
}
