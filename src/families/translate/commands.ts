/** `diazo translate ...`: translation jobs, their status and manifests, model views, properties, downloads. */
import path from "node:path";
import { Option } from "@commander-js/extra-typings";
import { OUTPUT_TYPES, type OutputFormat, parseOutputType } from "../../aps/derivative_formats.ts";
import { DATA_CENTRES, parseDataCentre } from "../../aps/regions.ts";
import { type ParsedUrn, parseUrn } from "../../aps/urn.ts";
import {
  runTranslateDelete,
  runTranslateDownload,
  runTranslateFormats,
  runTranslateManifest,
  runTranslateProperties,
  runTranslateStart,
  runTranslateStatus,
  runTranslateThumbnail,
  runTranslateTree,
  runTranslateViews,
  statusView,
} from "./verbs.ts";
import { type AnyCommand, collect, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";
import { startFormats } from "./preset.ts";
import { registerPresets } from "./preset_commands.ts";
import { withProgress } from "./wait.ts";

const regionOption = () =>
  new Option("--region <region>", `Model Derivative region (${DATA_CENTRES.join(", ")}); default US`)
    .argParser(
      parseDataCentre,
    );

/** The output formats of a start command: a preset's, then --format values (which replace a preset's of the same type). */
function chooseFormats(
  ctx: Ctx,
  opts: { format?: string[]; formats?: string[]; preset?: string; views?: string },
): Promise<OutputFormat[]> {
  return startFormats({
    configDir: ctx.configDir,
    preset: opts.preset,
    types: [...(opts.format ?? []), ...(opts.formats ?? [])],
    views: opts.views?.split(","),
  });
}

type StartOptions = {
  format?: string[];
  formats?: string[];
  preset?: string;
  views?: string;
  force?: boolean;
  region?: string;
  rootFilename?: string;
  workflow?: string;
};

async function runStart(ctx: Ctx, target: ParsedUrn, opts: StartOptions): Promise<void> {
  const { urn, objectId } = target;
  const formats = await chooseFormats(ctx, opts);
  const { job, existed, startedAt } = await runTranslateStart({ ...opts, urn, formats }, ctx);
  const types = formats.map((f) => f.type).join(", ");
  ctx.info(
    existed
      ? `The derivatives (${types}) of ${objectId} exist already; pass --force to build them again`
      : `Started translating ${objectId} to ${types}`,
  );
  if (!ctx.flags.wait) {
    ctx.info(`Follow it with: diazo translate status ${urn} --wait`);
    await ctx.emit({ ...job.data, objectId, alreadyTranslated: existed });
    return;
  }
  const manifest = await withProgress(
    ctx,
    urn,
    (wait) => runTranslateStatus({ urn, region: opts.region, wait: { ...wait, startedAt } }, ctx),
  );
  ctx.info(`Translation of ${objectId} succeeded`);
  await ctx.emit({ ...statusView(manifest, objectId), acceptedJobs: job.data.acceptedJobs });
}

/** The manifest now, or (with --wait) once the job has ended, with progress on stderr. */
function currentManifest(ctx: Ctx, urn: ParsedUrn["urn"], region?: string) {
  return ctx.flags.wait
    ? withProgress(ctx, urn, (wait) => runTranslateStatus({ urn, region, wait }, ctx))
    : runTranslateStatus({ urn, region }, ctx);
}

/** Registers the translate family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const translate = program.command("translate")
    .description("translate models and inspect manifests, metadata and properties")
    .argument("[urn]", "shorthand for `translate start <urn> ...`");

  const start = translate.command("start")
    .description("start a translation job (with --wait: until it succeeds or fails)")
    .argument("<urn>", "base64 URN or raw urn:adsk.objects:os.object:<bucket>/<key>", parseUrn)
    .option(
      "-f, --format <type>",
      `output type, repeatable or comma-separated (${OUTPUT_TYPES.join(", ")}); default svf2`,
      collect(String, true),
    )
    .option("--formats <list>", "same as --format", collect(String, true))
    .option("--preset <name>", "a named output spec (see `diazo translate preset list`)")
    .option("--views <list>", "views of svf/svf2 output: 2d, 3d or 2d,3d (default)")
    .option(
      "--force",
      "rebuild derivatives that exist already (x-ads-force); start even over the 5 GB input limit",
    )
    .addOption(regionOption())
    .option("--root-filename <file>", "the top file when the source is a zip (compressedUrn)")
    .option("--workflow <id>", "a webhooks workflow id to notify")
    .action(async (urn, opts, cmd) => await runStart(makeCtx(cmd), urn, opts));
  examples(start, [
    "diazo translate start dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bXktYnVja2V0L2hvdXNlLnJ2dA --wait",
    "diazo translate start urn:adsk.objects:os.object:my-bucket/part.obj --format obj,stl --wait --timeout 600",
    "diazo translate start <urn> --preset svf2-3d --force",
  ]);

  // `translate <urn> --formats svf2`: the same as `translate start`. Options go to `start` as
  // they are, so that no option of this parent command can shadow one of a subcommand.
  translate.allowUnknownOption().allowExcessArguments()
    .action(async (urn, _opts, cmd) => {
      if (!urn) return cmd.help({ error: true });
      await start.parseAsync(cmd.args, { from: "user" });
    });
  examples(translate, [
    "diazo translate <urn> --formats svf2 --wait",
    "diazo translate status <urn> --wait --timeout 900",
    "diazo translate download <urn> --format obj --out ./out",
  ]);

  registerReads(translate, makeCtx);
  registerFiles(translate, makeCtx);
  registerPresets(translate, makeCtx);
}

/** Registers the reading commands: status, manifest, metadata, tree and properties. */
function registerReads(translate: AnyCommand, makeCtx: ContextFactory): void {
  const status = translate.command("status")
    .description("show a translation's status and progress (with --wait: poll until it ends)")
    .argument("<urn>", "base64 or raw URN", parseUrn)
    .addOption(regionOption())
    .action(async ({ urn, objectId }, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const manifest = await currentManifest(ctx, urn, opts.region);
      await ctx.emit(statusView(manifest, objectId), {
        columns: ["status", "progress", "percent", "objectId"],
      });
    });
  examples(status, ["diazo translate status <urn>", "diazo translate status <urn> --wait --timeout 1800"]);

  const manifest = translate.command("manifest")
    .description("show the whole manifest: every derivative, its status, messages and URNs")
    .argument("<urn>", "base64 or raw URN", parseUrn)
    .addOption(regionOption())
    .action(async ({ urn, objectId }, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const m = await runTranslateManifest({ urn, region: opts.region }, ctx);
      await ctx.emit({ ...m, objectId });
    });
  examples(manifest, ["diazo translate manifest <urn> -o json --query 'derivatives[].outputType'"]);

  const metadata = translate.command("metadata").alias("views")
    .description("list the model views (guid, role, name) of a translated design")
    .argument("<urn>", "base64 or raw URN", parseUrn)
    .addOption(regionOption())
    .action(async ({ urn }, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const views = await runTranslateViews({ urn, region: opts.region }, ctx);
      await ctx.emit(views, { columns: ["guid", "role", "name", "isMasterView"] });
    });
  examples(metadata, [
    "diazo translate metadata <urn>",
    "diazo translate metadata <urn> -o json --query '[].guid'",
  ]);

  const extract = (
    name: string,
    description: string,
    objectHelp: string,
    read: typeof runTranslateTree,
  ) =>
    translate.command(name)
      .description(description)
      .argument("<urn>", "base64 or raw URN", parseUrn)
      .option("--guid <guid>", "the model view (default: the master 3D view)")
      .option("--object-id <n>", objectHelp, positiveNumber("--object-id", true))
      .option("--force-get", "allow answers over 20 MB (forceget)")
      .addOption(regionOption())
      .action(async ({ urn }, opts, cmd) => {
        const ctx = makeCtx(cmd);
        const timeoutMs = ctx.flags.timeout !== undefined ? ctx.flags.timeout * 1000 : undefined;
        await ctx.emit((await read({ ...opts, urn, timeoutMs }, ctx)).data);
      });
  const tree = extract(
    "tree",
    "show the object tree of a model view (waits while it is extracted)",
    "only this object and its children (objectid)",
    runTranslateTree,
  );
  examples(tree, [
    "diazo translate tree <urn>",
    "diazo translate tree <urn> --guid 6bfb4886-... --object-id 1",
  ]);
  const props = extract(
    "properties",
    "show the properties of a model view's objects (waits while they are extracted)",
    "only this object (objectid)",
    runTranslateProperties,
  ).alias("props");
  examples(props, [
    "diazo translate properties <urn> --object-id 2",
    "diazo translate properties <urn> -o json --query 'data.collection[].name'",
  ]);
}

/** Registers the commands over derivatives as files: download, thumbnail, delete, and the formats. */
function registerFiles(translate: AnyCommand, makeCtx: ContextFactory): void {
  const download = translate.command("download")
    .description("download every derivative (of one output type) into a directory, in parallel")
    .argument("<urn>", "base64 or raw URN", parseUrn)
    .option("-f, --format <type>", `only derivatives of this output type (${OUTPUT_TYPES.join(", ")})`)
    .option("--out <dir>", "directory to write into (created if needed); default the current directory")
    .option("--force", "overwrite files that exist")
    .addOption(regionOption())
    .action(async (target, opts, cmd) => await runDownload(makeCtx(cmd), target, opts));
  examples(download, [
    "diazo translate download <urn> --format obj --out ./out",
    "diazo translate download <urn> --out ./derivatives --concurrency 8",
  ]);

  const thumbnail = translate.command("thumbnail")
    .description("save the design's thumbnail as a PNG file")
    .argument("<urn>", "base64 or raw URN", parseUrn)
    .option("--out <file>", "the PNG file to write", "thumbnail.png")
    .addOption(new Option("--size <px>", "width and height").choices(["100", "200", "400"]).default("200"))
    .addOption(regionOption())
    .action(async ({ urn }, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const saved = await runTranslateThumbnail(
        { urn, region: opts.region, file: opts.out, size: Number(opts.size) },
        ctx,
      );
      ctx.info(`Saved the thumbnail to ${saved.file} (${saved.size} bytes)`);
      await ctx.emit(saved);
    });
  examples(thumbnail, ["diazo translate thumbnail <urn> --out house.png --size 400"]);

  const del = translate.command("delete").alias("rm")
    .description("delete the manifest and every derivative of a design (the source object stays)")
    .argument("<urn>", "base64 or raw URN", parseUrn)
    .addOption(regionOption())
    .action(async ({ urn, objectId }, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const question = `Delete the manifest and all derivatives of ${objectId}?`;
      if (!(await ctx.confirmOrCancel(question))) return;
      const answer = await runTranslateDelete({ urn, region: opts.region }, ctx);
      await ctx.emit({ ...answer, urn, objectId, deleted: true }, {
        action: `Deleted the manifest and derivatives of ${objectId}`,
      });
    });
  examples(del, ["diazo translate delete <urn> --yes"]);

  const formats = translate.command("formats")
    .description("list the source file types each output type can be made from")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runTranslateFormats({}, ctx));
    });
  examples(formats, ["diazo translate formats", "diazo translate formats -o json --query obj"]);
}

async function runDownload(
  ctx: Ctx,
  { urn, objectId }: ParsedUrn,
  opts: { format?: string; out?: string; force?: boolean; region?: string },
): Promise<void> {
  const outputType = opts.format === undefined ? undefined : parseOutputType(opts.format);
  const dir = path.resolve(ctx.cwd, opts.out ?? ".");
  const manifest = await currentManifest(ctx, urn, opts.region);
  const done = await runTranslateDownload(
    { urn, objectId, region: opts.region, dir, outputType, force: opts.force, manifest },
    ctx,
  );
  if (done.exitCode !== 0) ctx.setExitCode(done.exitCode);
  const ok = done.rows.filter((r) => r.ok).length;
  ctx.info(`Downloaded ${ok} of ${done.rows.length} derivatives (${done.bytes} bytes) into ${dir}`);
  await ctx.emit(done.rows, { columns: ["path", "outputType", "role", "size", "ok"] });
}
