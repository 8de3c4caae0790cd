/** Tools over translation (Model Derivative): start, status, manifest, properties (as `diazo translate ...`). */
import { z } from "zod";
import { invalidCursor } from "../../http/list.ts";
import { formatsFromFlags, OUTPUT_TYPES, VIEWS } from "../../aps/derivative_formats.ts";
import { DATA_CENTRES, parseDataCentre } from "../../aps/regions.ts";
import { parseUrn } from "../../aps/urn.ts";
import {
  type Manifest,
  manifestProgress,
  runTranslateManifest,
  runTranslateProperties,
  runTranslateStart,
  runTranslateStatus,
} from "./verbs.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { listAnswer, MAX_RESULT_CHARS } from "../../mcp/result.ts";
import { TRANSLATE, URN_TEXT } from "./commands.ts";
import { type AnyTool, cursorInput, defineTool, limitInput, listOutput, READ } from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

/** The `urn` argument of the derivative tools not derived from a command (mcp/derive.ts). */
export const urnInput = z.string().min(1).describe(URN_TEXT);
/** The `region` argument of the derivative tools. */
export const regionInput = z.enum(DATA_CENTRES).optional().describe(
  "Model Derivative region where the derivatives live (default US).",
);
/** The data centre a `region` argument names. */
export const region = (r?: string) => (r === undefined ? undefined : parseDataCentre(r));

const problem = z.object({ type: z.string(), code: z.string().optional(), message: z.string() });

const statusOutput = {
  urn: z.string(),
  objectId: z.string(),
  status: z.string().describe("pending, inprogress, success, failed or timeout."),
  progress: z.string(),
  percent: z.number(),
  done: z.boolean().describe("True once the job has ended (success, failed or timeout)."),
  outputs: z.array(z.object({
    outputType: z.string().optional(),
    status: z.string().optional(),
    progress: z.string().optional(),
    percent: z.number(),
  })),
  problems: z.array(problem).describe("Errors and warnings the platform reported."),
};

/** The statuses of a job that has ended. */
const ENDED: readonly string[] = ["success", "failed", "timeout"];

function statusOf(manifest: Manifest, objectId: string): z.input<z.ZodObject<typeof statusOutput>> {
  return {
    urn: manifest.urn,
    objectId,
    status: manifest.status,
    progress: manifest.progress ?? "",
    done: ENDED.includes(manifest.status),
    ...manifestProgress(manifest),
  };
}

/** What translate_start answers in `result`: the job is queued, or there was nothing to build. */
const START_RESULTS = ["queued", "already_translated"] as const;

const translateStart = defineTool({
  name: "translate_start",
  title: "Start a translation",
  description:
    "Starts translating an uploaded design into viewable (svf2, default) or other formats (obj, stl, step, iges, ifc, " +
    "dwg, fbx, thumbnail). It only queues the job and returns at once: the translation is not done when this " +
    "answers (result 'queued', status as the platform says, usually pending or inprogress). Poll translate_status " +
    "(with wait_seconds) until done is true. When the derivatives exist already, result is 'already_translated' " +
    "and nothing is rebuilt unless force is true.",
  input: {
    urn: urnInput,
    formats: z.array(z.enum(OUTPUT_TYPES)).min(1).optional().describe('Output types; default ["svf2"].'),
    views: z.array(z.enum(VIEWS)).min(1).optional().describe(
      "Views of svf/svf2 output; default both 2d and 3d.",
    ),
    force: z.boolean().default(false).describe("Rebuild derivatives that exist already."),
    region: regionInput,
    root_filename: z.string().optional().describe("The top file when the source object is a zip."),
  },
  output: {
    result: z.enum(START_RESULTS).describe(
      "queued: the platform accepted the job, which runs on (poll translate_status); already_translated: " +
        "the derivatives exist and nothing was rebuilt.",
    ),
    status: z.string().describe(
      "The job's status as the platform reports it right after the start: pending or inprogress while it " +
        "runs, success, failed or timeout once it ended.",
    ),
    done: z.boolean().describe("True only when the job has ended already (e.g. already_translated)."),
    urn: z.string(),
    objectId: z.string(),
    alreadyTranslated: z.boolean(),
    formats: z.array(z.string()),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("translate_start"),
  login: "app",
  async run(args, ctx) {
    const { urn, objectId } = parseUrn(args.urn);
    const formats = formatsFromFlags(args.formats ?? ["svf2"], args.views);
    const started = { urn, region: region(args.region) };
    const { job } = await runTranslateStart({
      ...started,
      formats,
      rootFilename: args.root_filename,
      force: args.force,
    }, ctx);
    // The platform's "result": "success" says the job was accepted, not that it is done: ask where it stands.
    const status = (await runTranslateManifest(started, ctx)).status;
    const alreadyTranslated = job.status === 201;
    return {
      result: alreadyTranslated ? "already_translated" as const : "queued" as const,
      status,
      done: ENDED.includes(status),
      urn: job.data.urn ?? urn,
      objectId,
      alreadyTranslated,
      formats: formats.map((f) => f.type),
    };
  },
});

/** A manifest's progress as a number: its "45% complete", 100 once it succeeded. */
function percentOf(m: Manifest): number {
  if (m.status === "success") return 100;
  const n = parseInt(m.progress ?? "", 10);
  return Number.isFinite(n) ? n : 0;
}

const translateStatus = defineTool({
  name: "translate_status",
  title: "Show a translation's status",
  description:
    "Shows a translation job's status and progress per output, and any errors the platform reported. With " +
    "wait_seconds, waits up to that long for the job to end before answering (poll again if done is false), " +
    "reporting progress; a cancelled call stops waiting. " +
    "A design never translated answers 'Not found'.",
  input: {
    urn: urnInput,
    region: regionInput,
    wait_seconds: z.number().int().min(0).max(120).default(0).describe(
      "Wait up to this long for the job to end.",
    ),
  },
  output: statusOutput,
  annotations: READ,
  scopes: toolScopes("translate_status"),
  login: "app",
  async run(args, ctx) {
    const { urn, objectId } = parseUrn(args.urn);
    // A failed job is an answer here, and so is one still running when the wait ends.
    const manifest = await runTranslateStatus({
      urn,
      region: region(args.region),
      wait: args.wait_seconds === 0 ? undefined : {
        timeoutMs: args.wait_seconds * 1000,
        signal: ctx.signal,
        onProgress: (m) => ctx.progress?.(percentOf(m), 100, `${m.status} (${m.progress ?? ""})`),
      },
      endedIsAnswer: true,
    }, ctx);
    return statusOf(manifest, objectId);
  },
});

const translateManifest = deriveTool(TRANSLATE, {
  name: "translate_manifest",
  title: "Show a translation's manifest",
  description:
    "Shows the whole manifest of a translated design: every derivative with its output type, status, messages and " +
    "child nodes (views, geometry, resources with their URNs). A very large manifest comes back with each " +
    "derivative's children replaced by childCount (truncated: true).",
  output: {
    urn: z.string(),
    objectId: z.string(),
    type: z.string().optional(),
    status: z.string(),
    progress: z.string().optional(),
    region: z.string().optional(),
    hasThumbnail: z.string().optional(),
    version: z.string().optional(),
    derivatives: z.array(z.looseObject({})),
    messages: z.array(z.looseObject({})).optional(),
    truncated: z.boolean().optional(),
  },
  annotations: READ,
  scopes: toolScopes("translate_manifest"),
  login: "app",
  async run(args, ctx) {
    const { urn, objectId } = parseUrn(args.urn);
    const m = await runTranslateManifest({ urn, region: region(args.region) }, ctx);
    const answer = {
      urn: m.urn,
      objectId,
      type: m.type,
      status: m.status,
      progress: m.progress,
      region: m.region,
      hasThumbnail: m.hasThumbnail,
      version: m.version,
      derivatives: m.derivatives ?? [],
      messages: m.messages as Record<string, unknown>[] | undefined,
    };
    if (JSON.stringify(answer).length <= MAX_RESULT_CHARS - 1_000) return answer;
    return {
      ...answer,
      derivatives: answer.derivatives.map(({ children, ...d }) => ({
        ...d,
        childCount: children?.length ?? 0,
      })),
      truncated: true,
    };
  },
});

const propertyItem = z.looseObject({
  objectid: z.number(),
  name: z.string().optional(),
  externalId: z.string().optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});

const translateProperties = defineTool({
  name: "translate_properties",
  title: "Show a model's object properties",
  description:
    "Shows the properties (category, dimensions, materials, ...) of the objects of a translated design's model view. " +
    "guid picks the view (default: the master 3D view); object_id (a number from the object tree) picks one object. " +
    "The first call may wait while the platform extracts the properties. When has_more is true, call again with " +
    "cursor = next_cursor.",
  input: {
    urn: urnInput,
    guid: z.string().optional().describe("Model view guid; default the master 3D view."),
    object_id: z.number().int().min(1).optional().describe("Only this object (objectid)."),
    region: regionInput,
    limit: limitInput("objects"),
    cursor: cursorInput,
  },
  output: {
    guid: z.string(),
    ...listOutput(propertyItem),
    total: z.number().describe("Objects in the view (or 1 with object_id)."),
  },
  annotations: READ,
  scopes: toolScopes("translate_properties"),
  login: "app",
  async run(args, ctx) {
    const { urn } = parseUrn(args.urn);
    const { guid, data } = await runTranslateProperties({
      urn,
      region: region(args.region),
      guid: args.guid,
      objectId: args.object_id,
      timeoutMs: 60_000,
    }, ctx);
    const answer = data as { data?: { collection?: z.input<typeof propertyItem>[] } };
    const all = answer?.data?.collection ?? [];
    const offset = args.cursor === undefined ? 0 : offsetOf(args.cursor);
    const items = all.slice(offset, offset + args.limit);
    const cursorAfter = (n: number) => (offset + n < all.length ? offsetCursor(offset + n) : undefined);
    const list = listAnswer({ nextCursor: cursorAfter(items.length), cursorAfter }, items);
    return { guid, total: all.length, ...list };
  },
});

function offsetCursor(offset: number): string {
  return btoa(`offset:${offset}`).replace(/=+$/, "");
}

function offsetOf(cursor: string): number {
  let text = "";
  try {
    text = atob(cursor);
  } catch { /* reported below */ }
  const m = /^offset:(\d+)$/.exec(text);
  if (!m) {
    throw invalidCursor();
  }
  return Number(m[1]);
}

/** The translate area's tools. */
export const TRANSLATE_TOOLS: readonly AnyTool[] = [
  translateStart,
  translateStatus,
  translateManifest,
  translateProperties,
];
