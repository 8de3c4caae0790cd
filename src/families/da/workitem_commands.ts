/**
 * `diazo da workitem run|get`, declared as data (command/decl.ts): work items with their inputs and outputs, and with --wait the
 * status changes on stderr, Ctrl-C (stop waiting; the work item goes on), the report on stderr
 * when one fails (then exit 1), and local outputs downloaded when one succeeds.
 */
import { parseAssignment } from "../../aps/da_ids.ts";
import { type BucketKey, parseBucketKey } from "../../aps/ids.ts";
import { DiazoError } from "../../core/errors.ts";
import type { WorkItemFailure, WorkItemResult, WorkItemStatus, WorkItemWait } from "./workitem.ts";
import { collect } from "../../command/command.ts";
import type { CommandDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";

const COLUMNS = ["id", "status", "progress", "activityId", "reportUrl"] as const;

/** How to wait in this run: --timeout, Ctrl-C, and a line on stderr each time the status changes. */
function waitOptions(ctx: Ctx): WorkItemWait | undefined {
  if (!ctx.flags.wait) return undefined;
  let last = "";
  return {
    timeoutMs: ctx.flags.timeout !== undefined ? ctx.flags.timeout * 1000 : undefined,
    signal: ctx.interruptSignal(),
    onStatus: (s: WorkItemStatus) => {
      const line = `Work item ${s.id}: ${s.status}${s.progress ? ` (${s.progress})` : ""}`;
      if (line !== last) ctx.info(line);
      last = line;
    },
  };
}

/** Shows a work item; a failed one's report goes to stderr, its status to stdout, then the error. */
async function show(
  ctx: Ctx,
  id: () => string | undefined,
  run: () => Promise<WorkItemResult>,
): Promise<void> {
  try {
    await ctx.emit(await run(), { columns: COLUMNS });
  } catch (e) {
    if (e instanceof DiazoError && e.code === "workitem_failed") {
      const failure = e.body as WorkItemFailure;
      for (const line of failure.report.trimEnd().split("\n")) ctx.io.stderr.write(`report: ${line}\n`);
      await ctx.emit(failure.status, { columns: COLUMNS });
    } else if (e instanceof DiazoError && e.code === "interrupted" && id()) {
      ctx.io.stderr.write(
        `\nStopped waiting; the work item goes on. Check it with: diazo da workitem get ${id()} --wait\n`,
      );
    }
    throw e;
  }
}

/** The options `da workitem run` is given. */
interface RunOpts {
  input?: ReturnType<typeof parseAssignment>[];
  out?: ReturnType<typeof parseAssignment>[];
  value?: ReturnType<typeof parseAssignment>[];
  bucket?: BucketKey;
}

/** `da workitem run`. */
const RUN: CommandDecl = {
  name: "run",
  description:
    "start a work item: local files go up to OSS as signed URLs; with --wait, poll until it ends and fetch local outputs",
  args: [{
    spec: "<activity>",
    description: "Name, Name+alias (the app's own: needs SVC_DA_NICKNAME) or Owner.Name+alias",
  }],
  options: [
    {
      flags: "--input <name=file|urn|url>",
      description: "an input argument: a local file, an OSS object's URN, or a URL (repeatable)",
      parse: collect((v) => parseAssignment("--input", v)),
    },
    {
      flags: "--out <name=bucket/key|file|url>",
      description:
        "where an output argument goes: an OSS object bucket/key, a local file (./name forces a file), or a URL (repeatable)",
      parse: collect((v) => parseAssignment("--out", v)),
    },
    {
      flags: "--value <name=text>",
      description: 'a value argument of a `read` parameter, e.g. params={"scale":2} (repeatable)',
      parse: collect((v) => parseAssignment("--value", v)),
    },
    {
      flags: "--bucket <key>",
      description: "staging bucket for local files (default: diazo-da-<hash of the client id>)",
      parse: parseBucketKey,
      complete: "bucket",
    },
  ],
  examples: [
    "diazo da workitem run CountLines+prod --input input=drawing.dwg --out result=result.txt --wait",
    "diazo da workitem run MyCompany.CountLines+prod --input input=urn:adsk.objects:os.object:my-bucket/a.dwg --out result=my-bucket/result.txt",
    "diazo da workitem run AutoCAD.PlotToPDF+prod --input HostDwg=https://example.com/a.dwg --out Result=./a.pdf --wait --timeout 900",
  ],
  run: async (ctx, [activity]: string[], opts: RunOpts) => {
    let id: string | undefined;
    const wait = waitOptions(ctx);
    const onStatus = wait?.onStatus;
    // The work item verbs reach node:path and node:crypto, which a declaration must not load.
    const { runDaWorkItemRun } = await import("./workitem.ts");
    await show(ctx, () => id, () =>
      runDaWorkItemRun({
        activity,
        inputs: opts.input ?? [],
        outputs: opts.out ?? [],
        values: opts.value,
        bucket: opts.bucket,
        wait: wait && {
          ...wait,
          onStatus: (s) => {
            id = s.id;
            onStatus?.(s);
          },
        },
      }, ctx).then((r) => {
        if (!wait) ctx.info(`Follow it with: diazo da workitem get ${r.id} --wait`);
        return r;
      }));
  },
};

/** `da workitem get`. */
const GET: CommandDecl = {
  name: "get",
  description:
    "show a work item's status; with --wait, poll until it ends (a failed one shows its report, exit 1)",
  args: [{ spec: "<id>", description: "work item id, as `da workitem run` printed it" }],
  examples: [
    "diazo da workitem get f62103c311a54a6ba571a0950ce6eca3",
    "diazo da workitem get f62103c311a54a6ba571a0950ce6eca3 --wait --timeout 600",
  ],
  run: async (ctx, [id]: string[]) => {
    const { runDaWorkItemGet } = await import("./workitem.ts");
    await show(ctx, () => id, () => runDaWorkItemGet({ id, wait: waitOptions(ctx) }, ctx));
  },
};

/** `da workitem run|get`. */
export const WORKITEM: CommandDecl = {
  name: "workitem",
  description: "run an activity on your inputs and follow the work item",
  examples: [
    "diazo da workitem run CountLines+prod --input input=drawing.dwg --out result=result.txt --wait",
    "diazo da workitem get f62103c311a54a6ba571a0950ce6eca3 --wait",
  ],
  commands: [RUN, GET],
};
