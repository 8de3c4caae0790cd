/**
 * Design Automation tools (families/da/verbs.ts and families/da/workitem.ts, as `diazo da ...`): the engines, app
 * bundles and activities, and work items run and followed. Local inputs and outputs are files of
 * the directories the server allows (`serve --allow-dir`), never others.
 */
import path from "node:path";
import { z } from "zod";
import { fieldError } from "../../core/field_error.ts";
import { type DaListKind, runDaListPage } from "./verbs.ts";
import { runDaWorkItemGet, runDaWorkItemRun, type WorkItemWait } from "./workitem.ts";
import { toolFile } from "../../session/file_roots.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { listAnswer } from "../../mcp/result.ts";
import { DA } from "./commands.ts";
import { type AnyTool, defineTool, listOutput, READ, type ToolContext } from "../../mcp/tool.ts";
import { pageByCursor } from "../../http/list.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const APP = "Acts as the app (its own 2-legged login, scope code:all).";
const WAIT_DEFAULT_S = 300;

/** A list tool of one kind of id. */
function listTool(kind: DaListKind, name: string, what: string): AnyTool {
  return deriveTool(DA, {
    name,
    title: `List ${what}`,
    description: `Lists the ${what} the app can use (ids as Owner.Name+alias, with their parts). ${APP}`,
    derive: { list: what },
    output: listOutput(z.looseObject({ id: z.string() })),
    annotations: READ,
    scopes: toolScopes(name),
    login: "app",
    async run(args, ctx) {
      const read = (cursor?: string) => runDaListPage({ kind, limit: args.limit, cursor }, ctx);
      const page = await pageByCursor(read, args, name);
      return listAnswer(page, page.items.map((r) => ({ ...r })));
    },
  });
}

/** Where an argument's bytes are: exactly one of a local file, an OSS object or a URL. */
const placeInput = z.object({
  file: z.string().min(1).optional().describe("A local file inside the directories the server allows."),
  urn: z.string().min(1).optional().describe(
    "An OSS object: urn:adsk.objects:os.object:<bucket>/<key> or its base64.",
  ),
  url: z.string().url().optional().describe("A URL the work item reads (input) or writes with PUT (output)."),
});
type Place = z.output<typeof placeInput>;

/** The value families/da/workitem.ts takes for a place: a local file as its checked real path. */
async function placeValue(
  name: string,
  place: Place,
  output: boolean,
  ctx: ToolContext,
  field: string,
): Promise<string> {
  const given = [place.file, place.urn, place.url].filter((v) => v !== undefined);
  if (given.length !== 1) {
    throw fieldError({
      field,
      problem: `${name}: give exactly one of file, urn or url`,
      help: 'e.g. {"input": {"file": "drawing.dwg"}}.',
    });
  }
  if (place.file === undefined) return (place.urn ?? place.url)!;
  if (!output) return await toolFile(place.file, ctx.cwd, ctx.fileRoots);
  // An output file need not exist yet: its directory must be an allowed one.
  const dir = await toolFile(
    path.dirname(path.resolve(ctx.fileRoots.allowed[0] ?? ctx.cwd, place.file)),
    ctx.cwd,
    ctx.fileRoots,
  );
  return path.join(dir, path.basename(place.file));
}

const waitInputs = {
  wait: z.boolean().default(true).describe(
    "Wait for the end (outputs are then fetched); false answers at once.",
  ),
  timeout: z.number().int().min(1).max(3600).default(WAIT_DEFAULT_S).describe(
    "Longest wait in seconds; past it the call fails with a timeout and the work item runs on (da_workitem_status).",
  ),
};

/** How a tool waits: within `timeout`, cancelled with the call, progress reported per status read. */
function waitOf(args: { wait: boolean; timeout: number }, ctx: ToolContext): WorkItemWait | undefined {
  if (!args.wait) return undefined;
  let reads = 0;
  return {
    timeoutMs: args.timeout * 1000,
    signal: ctx.signal,
    onStatus: (s) => ctx.progress?.(++reads, undefined, `work item ${s.id}: ${s.status}`),
  };
}

const workItem = z.looseObject({
  id: z.string(),
  status: z.string().describe("pending, inprogress, success, or a failure (failedInstructions, ...)."),
  activityId: z.string().optional(),
  reportUrl: z.string().optional(),
  outputs: z.array(z.object({ name: z.string(), file: z.string(), size: z.number(), sha1: z.string() }))
    .optional().describe("Local outputs fetched (SHA-1 checked)."),
});

const workItemRun = defineTool({
  name: "da_workitem_run",
  title: "Run a work item",
  description:
    "Runs a work item of an activity: each input and output parameter is a local file (inputs are uploaded to a " +
    "staging bucket; local outputs are fetched back when it ends), an OSS object or a URL. Local files must be " +
    "inside the directories the server allows. With wait (default) it answers at the end; a failure is an error " +
    `with the report. ${APP}`,
  input: {
    activity: z.string().min(1).describe("Name, Name+alias (the app's own) or Owner.Name+alias."),
    inputs: z.record(z.string(), placeInput).default({}).describe("Input parameters by name."),
    outputs: z.record(z.string(), placeInput).default({}).describe("Output parameters by name."),
    values: z.record(z.string(), z.string()).optional().describe(
      "Values of read parameters, e.g. a JSON text.",
    ),
    ...waitInputs,
  },
  output: { workitem: workItem },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("da_workitem_run"),
  login: "app",
  async run(args, ctx) {
    const places = async (given: Record<string, Place>, output: boolean) =>
      await Promise.all(
        Object.entries(given).map(async ([name, p]) =>
          [name, await placeValue(name, p, output, ctx, output ? "outputs" : "inputs")] as [string, string]
        ),
      );
    const result = await runDaWorkItemRun({
      activity: args.activity,
      inputs: await places(args.inputs, false),
      outputs: await places(args.outputs, true),
      values: Object.entries(args.values ?? {}),
      wait: waitOf(args, ctx),
    }, ctx);
    return { workitem: { ...result } };
  },
});

const workItemStatus = defineTool({
  name: "da_workitem_status",
  title: "Get a work item's status",
  description:
    "Reads a work item's status; with wait, waits for its end and fetches the local outputs its run named. " +
    APP,
  input: { id: z.string().min(1).describe("The work item id da_workitem_run answered."), ...waitInputs },
  output: { workitem: workItem },
  annotations: READ,
  scopes: toolScopes("da_workitem_status"),
  login: "app",
  run: async (args, ctx) => ({
    workitem: { ...await runDaWorkItemGet({ id: args.id, wait: waitOf({ ...args }, ctx) }, ctx) },
  }),
});

/** The Design Automation tools. */
export const DA_TOOLS: readonly AnyTool[] = [
  listTool("engines", "da_engine_list", "engines"),
  listTool("appbundles", "da_appbundle_list", "app bundles"),
  listTool("activities", "da_activity_list", "activities"),
  workItemRun,
  workItemStatus,
];
