/** `diazo reality-capture ...`: photo-to-3D photoscenes, declared as data (command/decl.ts) over ./verbs.ts. */
import { usageError } from "../../core/errors.ts";
import { checkFormats, checkSceneId } from "./checks.ts";
import { RC_FORMATS } from "./api.ts";
import type { SceneStatus } from "./verbs.ts";
import { positiveNumber } from "../../command/command.ts";
import type { ArgumentDecl, CommandDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";
import { byteProgress } from "../../command/progress.ts";

/** The verbs, loaded when a command runs (they reach node:path and node:crypto, which a declaration must not load). */
const verbs = () => import("./verbs.ts");

const STATUS_COLUMNS = ["photosceneid", "progressmsg", "progress"] as const;

/** Waits for a scene (or reads its status once), a line on stderr each time its progress changes. */
async function showStatus(ctx: Ctx, sceneId: string): Promise<SceneStatus> {
  let last = "";
  const { runRealityStatus } = await verbs();
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

/** The argument every scene command takes. */
const SCENE: ArgumentDecl = {
  spec: "<scene>",
  description: "photosceneid",
  parse: checkSceneId,
  toolName: "scene_id",
  toolDescription: "The photosceneid reality_create answered.",
};

/** The formats `create` asks for without --format (its help line says so: the value is a list). */
const DEFAULT_FORMATS = ["rcm"];

/** `reality-capture create`. */
const CREATE: CommandDecl = {
  name: "create",
  description: "create a photoscene; prints its photosceneid",
  options: [
    { flags: "--name <name>", description: "the scene's name", required: true },
    {
      flags: "--format <list>",
      description: `output formats, comma-separated (${RC_FORMATS.join(", ")}) (default: rcm)`,
      parse: checkFormats,
    },
    { flags: "--scene-type <type>", description: "what the photos show", choices: ["object", "aerial"] },
  ],
  examples: [
    "diazo reality-capture create --name bridge --format rcm,obj,ortho --scene-type aerial",
    "diazo reality-capture create --name statue --format obj -o json --query photosceneid",
  ],
  run: async (ctx, _args, opts: { name: string; format?: string[]; sceneType?: "object" | "aerial" }) => {
    const { runRealityCreate } = await verbs();
    const created = await runRealityCreate(
      { name: opts.name, formats: opts.format ?? DEFAULT_FORMATS, sceneType: opts.sceneType },
      ctx,
    );
    await ctx.emit(created, {
      columns: ["photosceneid", "name", "formats", "scenetype"],
      action: `Created photoscene ${created.photosceneid} (${created.formats.join(", ")})`,
    });
  },
};

/** `reality-capture upload`. */
const UPLOAD: CommandDecl = {
  name: "upload",
  description:
    "add photos (JPEG files, or directories of them): streamed, several requests at once (--concurrency), retried; a re-run skips photos the scene already has",
  args: [SCENE, { spec: "<photos...>", description: "JPEG files and directories" }],
  options: [{
    flags: "--per-request <n>",
    description: "photos per request (1-20; default 5)",
    parse: perRequest,
  }],
  examples: [
    "diazo reality-capture upload <scene> photos/",
    "diazo reality-capture upload <scene> img1.jpg img2.jpg img3.jpg --concurrency 8",
  ],
  run: async (ctx, args, opts: { perRequest?: number }) => {
    const [sceneId, photos] = args as [string, string[]];
    let progress: Awaited<ReturnType<typeof byteProgress>> | undefined;
    let started: Promise<unknown> | undefined;
    const { runRealityUpload } = await verbs();
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
  },
};

/** `reality-capture process`. */
const PROCESS: CommandDecl = {
  name: "process",
  description: "start processing the scene's photos (at least 3); with --wait, wait until it is done",
  tool: "reality_process",
  args: [SCENE],
  examples: [
    "diazo reality-capture process <scene>",
    "diazo reality-capture process <scene> --wait",
  ],
  run: async (ctx, [sceneId]: string[]) => {
    const { runRealityProcess } = await verbs();
    const started = await runRealityProcess({ sceneId }, ctx);
    if (!ctx.flags.wait) {
      return await ctx.emit(started, { action: `Processing photoscene ${sceneId}` });
    }
    ctx.info(`Processing photoscene ${sceneId}`);
    await emitStatus(ctx, sceneId);
  },
};

/** `reality-capture status`. */
const STATUS: CommandDecl = {
  name: "status",
  description: "the scene's progress; with --wait, poll until it is done (progress on stderr)",
  args: [SCENE],
  examples: [
    "diazo reality-capture status <scene>",
    "diazo reality-capture status <scene> --wait --timeout 3600",
  ],
  run: async (ctx, [sceneId]: string[]) => await emitStatus(ctx, sceneId),
};

/** `reality-capture result`. */
const RESULT: CommandDecl = {
  name: "result",
  description: "download the scene's result into a directory (written whole or not at all)",
  args: [SCENE],
  options: [
    { flags: "--out <dir>", description: "directory to write into", required: true },
    {
      flags: "--format <format>",
      description: "which output format (one the scene was created with)",
      default: "rcm",
    },
    { flags: "--force", description: "overwrite an existing file" },
  ],
  examples: [
    "diazo reality-capture result <scene> --out results/",
    "diazo reality-capture result <scene> --format obj --out results/ --force",
  ],
  run: async (ctx, [sceneId]: string[], opts: { out: string; format: string; force?: true }) => {
    const [format] = checkFormats(opts.format);
    const { runRealityResult } = await verbs();
    const got = await runRealityResult(
      { sceneId, format, outDir: opts.out, force: opts.force, signal: ctx.interruptSignal() },
      ctx,
    );
    await ctx.emit(got, {
      columns: ["file", "format", "size"],
      action: `Downloaded ${got.format} result of ${sceneId} to ${got.file} (${got.size} bytes)`,
    });
  },
};

/** `reality-capture delete`. */
const DELETE: CommandDecl = {
  name: "delete",
  description: "delete a photoscene with its photos and results (asks first; --yes to skip)",
  args: [SCENE],
  examples: ["diazo reality-capture delete <scene> --yes"],
  run: async (ctx, [sceneId]: string[]) => {
    const { runRealityDelete } = await verbs();
    const deleted = await runRealityDelete({ sceneId, confirm: (q) => ctx.confirmOrCancel(q) }, ctx);
    if (deleted) await ctx.emit(deleted, { action: `Deleted photoscene ${sceneId}` });
  },
};

/** The reality-capture family. */
export const REALITY: CommandDecl = {
  name: "reality-capture",
  description: "photo to 3D: photoscenes from photos to meshes (2-legged; scopes data:read, data:write)",
  examples: [
    "diazo reality-capture create --name site-scan --format rcm,obj",
    "diazo reality-capture upload <scene> photos/",
    "diazo reality-capture process <scene> && diazo reality-capture status <scene> --wait",
    "diazo reality-capture result <scene> --format obj -o results/",
  ],
  commands: [CREATE, UPLOAD, PROCESS, STATUS, RESULT, DELETE],
};
