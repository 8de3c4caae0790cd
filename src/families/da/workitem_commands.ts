/**
 * `diazo da workitem run|get`: work items with their inputs and outputs, and with --wait the
 * status changes on stderr, Ctrl-C (stop waiting; the work item goes on), the report on stderr
 * when one fails (then exit 1), and local outputs downloaded when one succeeds.
 */
import { parseAssignment } from "../../aps/da_ids.ts";
import { parseBucketKey } from "../../aps/ids.ts";
import { DiazoError } from "../../core/errors.ts";
import {
  runDaWorkItemGet,
  runDaWorkItemRun,
  type WorkItemFailure,
  type WorkItemResult,
  type WorkItemStatus,
  type WorkItemWait,
} from "./workitem.ts";
import { type AnyCommand, collect, type ContextFactory, examples } from "../../command/command.ts";
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

/** Registers `da workitem run|get`. */
export function registerWorkItems(da: AnyCommand, makeCtx: ContextFactory): void {
  const workitem = da.command("workitem").description(
    "run an activity on your inputs and follow the work item",
  );
  examples(workitem, [
    "diazo da workitem run CountLines+prod --input input=drawing.dwg --out result=result.txt --wait",
    "diazo da workitem get f62103c311a54a6ba571a0950ce6eca3 --wait",
  ]);

  const run = workitem.command("run")
    .description(
      "start a work item: local files go up to OSS as signed URLs; with --wait, poll until it ends and fetch local outputs",
    )
    .argument("<activity>", "Name, Name+alias (the app's own: needs SVC_DA_NICKNAME) or Owner.Name+alias")
    .option(
      "--input <name=file|urn|url>",
      "an input argument: a local file, an OSS object's URN, or a URL (repeatable)",
      collect((v) => parseAssignment("--input", v)),
    )
    .option(
      "--out <name=bucket/key|file|url>",
      "where an output argument goes: an OSS object bucket/key, a local file (./name forces a file), or a URL (repeatable)",
      collect((v) => parseAssignment("--out", v)),
    )
    .option(
      "--value <name=text>",
      'a value argument of a `read` parameter, e.g. params={"scale":2} (repeatable)',
      collect((v) => parseAssignment("--value", v)),
    )
    .option(
      "--bucket <key>",
      "staging bucket for local files (default: diazo-da-<hash of the client id>)",
      parseBucketKey,
    )
    .action(async (activity, opts, cmd) => {
      const ctx = makeCtx(cmd);
      let id: string | undefined;
      const wait = waitOptions(ctx);
      const onStatus = wait?.onStatus;
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
    });
  examples(run, [
    "diazo da workitem run CountLines+prod --input input=drawing.dwg --out result=result.txt --wait",
    "diazo da workitem run MyCompany.CountLines+prod --input input=urn:adsk.objects:os.object:my-bucket/a.dwg --out result=my-bucket/result.txt",
    "diazo da workitem run AutoCAD.PlotToPDF+prod --input HostDwg=https://example.com/a.dwg --out Result=./a.pdf --wait --timeout 900",
  ]);

  const get = workitem.command("get")
    .description(
      "show a work item's status; with --wait, poll until it ends (a failed one shows its report, exit 1)",
    )
    .argument("<id>", "work item id, as `da workitem run` printed it")
    .action(async (id, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await show(ctx, () => id, () => runDaWorkItemGet({ id, wait: waitOptions(ctx) }, ctx));
    });
  examples(get, [
    "diazo da workitem get f62103c311a54a6ba571a0950ce6eca3",
    "diazo da workitem get f62103c311a54a6ba571a0950ce6eca3 --wait --timeout 600",
  ]);
}
