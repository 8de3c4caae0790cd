/**
 * Reality capture tools (families/reality/verbs.ts, as `diazo reality-capture ...`): a photoscene created,
 * photos uploaded from the directories the server allows, processed, followed, and its result
 * downloaded into an allowed directory.
 */
import path from "node:path";
import { z } from "zod";
import { toolFile } from "../../session/file_roots.ts";
import {
  checkSceneId,
  RC_FORMATS,
  runRealityCreate,
  runRealityProcess,
  runRealityResult,
  runRealityStatus,
  runRealityUpload,
} from "./verbs.ts";
import { type AnyTool, defineTool, READ } from "../../mcp/tool.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { REALITY } from "./commands.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const APP = "Acts as the app (its own 2-legged login: data:write to change, data:read to read).";
const sceneIdInput = z.string().min(1).describe("The photosceneid reality_create answered.");
const formatInput = z.enum(RC_FORMATS as unknown as [string, ...string[]]);
const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const create = defineTool({
  name: "reality_create",
  title: "Create a photoscene",
  description: `Creates a photoscene that will turn photos into the given result formats. ${APP}`,
  input: {
    name: z.string().min(1).max(200).describe("The scene's name."),
    formats: z.array(formatInput).min(1).describe(`Result formats: ${RC_FORMATS.join(", ")}.`),
    scene_type: z.enum(["object", "aerial"]).default("object").describe(
      "aerial for photos taken from the air.",
    ),
  },
  output: { photosceneid: z.string(), name: z.string(), formats: z.array(z.string()), scenetype: z.string() },
  annotations: WRITES,
  scopes: toolScopes("reality_create"),
  login: "app",
  run: async (args, ctx) => ({
    ...await runRealityCreate({ name: args.name, formats: args.formats, sceneType: args.scene_type }, ctx),
  }),
});

const upload = defineTool({
  name: "reality_upload",
  title: "Upload photos to a photoscene",
  description:
    "Uploads JPEG photos (files, or directories of .jpg files) to a photoscene, skipping those it already has. " +
    `The files must be inside the directories the server allows. Reports progress per photo. ${APP}`,
  input: {
    scene_id: sceneIdInput,
    files: z.array(z.string().min(1)).min(1).describe("Photo files or directories of photos."),
  },
  output: {
    photosceneid: z.string(),
    uploaded: z.number(),
    skipped: z.number(),
    failed: z.number(),
    bytes: z.number(),
    summary: z.string(),
  },
  annotations: WRITES,
  scopes: toolScopes("reality_upload"),
  login: "app",
  async run(args, ctx) {
    const sceneId = checkSceneId(args.scene_id);
    const inputs = await Promise.all(args.files.map((f) => toolFile(f, ctx.cwd, ctx.fileRoots)));
    const done = await runRealityUpload({
      sceneId,
      inputs,
      signal: ctx.signal,
      onProgress: (n, total) => ctx.progress?.(n, total, `${n} of ${total} photos`),
    }, ctx);
    const { photos: _, ...rest } = done;
    return rest;
  },
});

const process = deriveTool(REALITY, {
  name: "reality_process",
  title: "Process a photoscene",
  description: `Starts turning a photoscene's photos into its results; reality_status follows it. ${APP}`,
  output: { photosceneid: z.string(), processing: z.boolean() },
  annotations: WRITES,
  scopes: toolScopes("reality_process"),
  login: "app",
  run: async (args, ctx) => ({ ...await runRealityProcess({ sceneId: checkSceneId(args.scene_id) }, ctx) }),
});

const status = defineTool({
  name: "reality_status",
  title: "Get a photoscene's progress",
  description:
    "Reads a photoscene's progress (percent and message); with wait, waits until it is done, reporting progress. " +
    `A failed scene is an error. ${APP}`,
  input: {
    scene_id: sceneIdInput,
    wait: z.boolean().default(false).describe("Wait until the scene is done."),
    timeout: z.number().int().min(1).max(3600).default(600).describe("Longest wait in seconds."),
  },
  output: {
    photosceneid: z.string(),
    progress: z.string(),
    progressmsg: z.string(),
    percent: z.number(),
    done: z.boolean(),
  },
  annotations: READ,
  scopes: toolScopes("reality_status"),
  login: "app",
  async run(args, ctx) {
    const s = await runRealityStatus({
      sceneId: checkSceneId(args.scene_id),
      wait: args.wait,
      timeoutMs: args.timeout * 1000,
      signal: ctx.signal,
      onProgress: (p) => ctx.progress?.(p.percent, 100, `${p.progressmsg} (${p.percent}%)`),
    }, ctx);
    return { ...s };
  },
});

const result = defineTool({
  name: "reality_result",
  title: "Download a photoscene's result",
  description:
    "Downloads a done photoscene's result in one format into a directory the server allows (default the first " +
    `one), checked by size and SHA-1. ${APP}`,
  input: {
    scene_id: sceneIdInput,
    format: formatInput.describe("One of the scene's formats."),
    out_dir: z.string().min(1).optional().describe("An allowed directory; default the server's first."),
    overwrite: z.boolean().default(false).describe("Replace a file of the same name."),
  },
  output: {
    photosceneid: z.string(),
    format: z.string(),
    file: z.string(),
    size: z.number(),
    sha1: z.string(),
  },
  annotations: { ...WRITES, openWorldHint: true },
  scopes: toolScopes("reality_result"),
  login: "app",
  async run(args, ctx) {
    const sceneId = checkSceneId(args.scene_id);
    const outDir = await toolFile(args.out_dir ?? ctx.fileRoots.allowed[0], ctx.cwd, ctx.fileRoots);
    const got = await runRealityResult(
      {
        sceneId,
        format: args.format,
        outDir: path.resolve(outDir),
        force: args.overwrite,
        signal: ctx.signal,
      },
      ctx,
    );
    return {
      photosceneid: got.photosceneid,
      format: got.format,
      file: got.file,
      size: got.size,
      sha1: got.sha1,
    };
  },
});

/** The reality capture tools. */
export const REALITY_TOOLS: readonly AnyTool[] = [create, upload, process, status, result];
