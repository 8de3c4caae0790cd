/** `diazo translate ...`: translation jobs, their status and manifests, model views, properties, downloads. */
import path from "node:path";
import { Option } from "@commander-js/extra-typings";
import { DiazoError } from "../core/errors.ts";
import { BUILTIN_PRESETS, findPreset, loadUserPresets } from "../config/presets.ts";
import {
  formatsFromFlags,
  OUTPUT_TYPES,
  type OutputFormat,
  parseOutputType,
  parseViews,
} from "../aps/derivative_formats.ts";
import { DATA_CENTRES, parseDataCentre } from "../aps/regions.ts";
import { parseUrn } from "../aps/urn.ts";
import { mapSettled } from "../services/concurrency.ts";
import {
  defaultView,
  deleteManifest,
  downloadableDerivatives,
  downloadDerivative,
  getManifest,
  getObjectTree,
  getProperties,
  jobPayload,
  listFormats,
  listViews,
  saveThumbnail,
  startJob,
} from "../services/derivative.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";
import type { Ctx } from "./context.ts";
import { registerPresets } from "./translate_preset.ts";
import { pollOptions, statusView, waitWithProgress } from "./translate_wait.ts";

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(",").map((v) => v.trim()).filter(Boolean)];
}

const regionOption = () =>
  new Option("--region <region>", `Model Derivative region (${DATA_CENTRES.join(", ")}); default US`)
    .argParser(
      parseDataCentre,
    );

/** The output formats of a start command: a preset's, then --format values (which replace a preset's of the same type). */
async function chooseFormats(
  ctx: Ctx,
  opts: { format?: string[]; formats?: string[]; preset?: string; views?: string },
): Promise<OutputFormat[]> {
  const types = [...(opts.format ?? []), ...(opts.formats ?? [])];
  const views = opts.views === undefined ? undefined : parseViews(opts.views.split(","));
  let formats: OutputFormat[] = [];
  if (opts.preset !== undefined) {
    const user = opts.preset in BUILTIN_PRESETS ? {} : await loadUserPresets(ctx.configDir);
    formats = structuredClone(findPreset(opts.preset, user).formats);
  }
  if (types.length > 0) {
    const extra = formatsFromFlags(types, views);
    formats = [...formats.filter((f) => !extra.some((e) => e.type === f.type)), ...extra];
  }
  if (formats.length === 0) formats = structuredClone(BUILTIN_PRESETS.svf2.formats);
  if (views) { for (const f of formats) if (f.views) f.views = [...views]; }
  return formats;
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

async function runStart(ctx: Ctx, urnArg: string, opts: StartOptions): Promise<void> {
  const { urn, objectId } = parseUrn(urnArg);
  const formats = await chooseFormats(ctx, opts);
  const http = await ctx.http();
  const startedAt = Date.now();
  const job = await startJob(http, jobPayload(urn, formats, opts), {
    force: opts.force,
    region: opts.region,
  });
  const types = formats.map((f) => f.type).join(", ");
  const existed = job.status === 201;
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
  const manifest = await waitWithProgress(ctx, http, urn, { region: opts.region, startedAt });
  ctx.info(`Translation of ${objectId} succeeded`);
  await ctx.emit({ ...statusView(manifest, objectId), acceptedJobs: job.data.acceptedJobs });
}

/** Registers the translate family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const translate = program.command("translate")
    .description("translate models and inspect manifests, metadata and properties")
    .argument("[urn]", "shorthand for `translate start <urn> ...`");

  const start = translate.command("start")
    .description("start a translation job (with --wait: until it succeeds or fails)")
    .argument("<urn>", "base64 URN or raw urn:adsk.objects:os.object:<bucket>/<key>")
    .option(
      "-f, --format <type>",
      `output type, repeatable or comma-separated (${OUTPUT_TYPES.join(", ")}); default svf2`,
      collect,
    )
    .option("--formats <list>", "same as --format", collect)
    .option("--preset <name>", "a named output spec (see `diazo translate preset list`)")
    .option("--views <list>", "views of svf/svf2 output: 2d, 3d or 2d,3d (default)")
    .option("--force", "rebuild derivatives that exist already (x-ads-force)")
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

  const status = translate.command("status")
    .description("show a translation's status and progress (with --wait: poll until it ends)")
    .argument("<urn>", "base64 or raw URN")
    .addOption(regionOption())
    .action(async (urnArg, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { urn, objectId } = parseUrn(urnArg);
      const http = await ctx.http();
      const manifest = ctx.flags.wait
        ? await waitWithProgress(ctx, http, urn, { region: opts.region })
        : await getManifest(http, urn, { region: opts.region });
      await ctx.emit(statusView(manifest, objectId), {
        columns: ["status", "progress", "percent", "objectId"],
      });
    });
  examples(status, ["diazo translate status <urn>", "diazo translate status <urn> --wait --timeout 1800"]);

  const manifest = translate.command("manifest")
    .description("show the whole manifest: every derivative, its status, messages and URNs")
    .argument("<urn>", "base64 or raw URN")
    .addOption(regionOption())
    .action(async (urnArg, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { urn, objectId } = parseUrn(urnArg);
      const m = await getManifest(await ctx.http(), urn, { region: opts.region });
      await ctx.emit({ ...m, objectId });
    });
  examples(manifest, ["diazo translate manifest <urn> -o json --query 'derivatives[].outputType'"]);

  const metadata = translate.command("metadata").alias("views")
    .description("list the model views (guid, role, name) of a translated design")
    .argument("<urn>", "base64 or raw URN")
    .addOption(regionOption())
    .action(async (urnArg, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const views = await listViews(await ctx.http(), parseUrn(urnArg).urn, { region: opts.region });
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
    fetch: typeof getObjectTree,
  ) =>
    translate.command(name)
      .description(description)
      .argument("<urn>", "base64 or raw URN")
      .option("--guid <guid>", "the model view (default: the master 3D view)")
      .option("--object-id <n>", objectHelp, positiveNumber("--object-id", true))
      .option("--force-get", "allow answers over 20 MB (forceget)")
      .addOption(regionOption())
      .action(async (urnArg, opts, cmd) => {
        const ctx = makeCtx(cmd);
        const { urn } = parseUrn(urnArg);
        const http = await ctx.http();
        const guid = opts.guid ?? await defaultGuid(ctx, http, urn, opts.region);
        await ctx.emit(
          await fetch(http, urn, guid, { ...extractOptions(ctx, opts), objectId: opts.objectId }),
        );
      });
  const tree = extract(
    "tree",
    "show the object tree of a model view (waits while it is extracted)",
    "only this object and its children (objectid)",
    getObjectTree,
  );
  examples(tree, [
    "diazo translate tree <urn>",
    "diazo translate tree <urn> --guid 6bfb4886-... --object-id 1",
  ]);
  const props = extract(
    "properties",
    "show the properties of a model view's objects (waits while they are extracted)",
    "only this object (objectid)",
    getProperties,
  ).alias("props");
  examples(props, [
    "diazo translate properties <urn> --object-id 2",
    "diazo translate properties <urn> -o json --query 'data.collection[].name'",
  ]);

  const download = translate.command("download")
    .description("download every derivative (of one output type) into a directory, in parallel")
    .argument("<urn>", "base64 or raw URN")
    .option("-f, --format <type>", `only derivatives of this output type (${OUTPUT_TYPES.join(", ")})`)
    .option("-o, --out <dir>", "directory to write into (created if needed); default the current directory")
    .option("--force", "overwrite files that exist")
    .addOption(regionOption())
    .action(async (urnArg, opts, cmd) => await runDownload(makeCtx(cmd), urnArg, opts));
  examples(download, [
    "diazo translate download <urn> --format obj --out ./out",
    "diazo translate download <urn> --out ./derivatives --concurrency 8",
  ]);

  const thumbnail = translate.command("thumbnail")
    .description("save the design's thumbnail as a PNG file")
    .argument("<urn>", "base64 or raw URN")
    .option("-o, --out <file>", "the PNG file to write", "thumbnail.png")
    .addOption(new Option("--size <px>", "width and height").choices(["100", "200", "400"]).default("200"))
    .addOption(regionOption())
    .action(async (urnArg, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { urn } = parseUrn(urnArg);
      const size = Number(opts.size);
      const saved = await saveThumbnail(await ctx.http(), urn, path.resolve(ctx.cwd, opts.out), {
        region: opts.region,
        width: size,
        height: size,
      });
      ctx.info(`Saved the thumbnail to ${saved.file} (${saved.size} bytes)`);
      await ctx.emit({ urn, ...saved });
    });
  examples(thumbnail, ["diazo translate thumbnail <urn> --out house.png --size 400"]);

  const del = translate.command("delete").alias("rm")
    .description("delete the manifest and every derivative of a design (the source object stays)")
    .argument("<urn>", "base64 or raw URN")
    .addOption(regionOption())
    .action(async (urnArg, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { urn, objectId } = parseUrn(urnArg);
      const http = await ctx.http();
      const question = `Delete the manifest and all derivatives of ${objectId}?`;
      if (!(await ctx.confirmOrCancel(question))) return;
      const answer = await deleteManifest(http, urn, { region: opts.region });
      ctx.info(`Deleted the manifest and derivatives of ${objectId}`);
      await ctx.emit({
        ...(answer && typeof answer === "object" ? answer : {}),
        urn,
        objectId,
        deleted: true,
      });
    });
  examples(del, ["diazo translate delete <urn> --yes"]);

  const formats = translate.command("formats")
    .description("list the source file types each output type can be made from")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await listFormats(await ctx.http()));
    });
  examples(formats, ["diazo translate formats", "diazo translate formats -o json --query obj"]);

  registerPresets(translate, makeCtx);
}

function extractOptions(ctx: Ctx, opts: { region?: string; forceGet?: boolean }) {
  return {
    ...pollOptions(ctx),
    region: opts.region,
    forceGet: opts.forceGet,
    timeoutMs: ctx.flags.timeout !== undefined ? ctx.flags.timeout * 1000 : undefined,
  };
}

async function defaultGuid(
  ctx: Ctx,
  http: Awaited<ReturnType<Ctx["http"]>>,
  urn: string,
  region?: string,
): Promise<string> {
  const view = defaultView(await listViews(http, urn, { region }));
  if (!view) {
    throw new DiazoError("not_found", {
      params: { what: "a model view: the design has no viewable (svf/svf2) derivative" },
    });
  }
  ctx.debug(`view: ${view.guid} (${view.role}${view.isMasterView ? ", master" : ""})`);
  return view.guid;
}

async function runDownload(
  ctx: Ctx,
  urnArg: string,
  opts: { format?: string; out?: string; force?: boolean; region?: string },
): Promise<void> {
  const { urn, objectId } = parseUrn(urnArg);
  const outputType = opts.format === undefined ? undefined : parseOutputType(opts.format);
  const dir = path.resolve(ctx.cwd, opts.out ?? ".");
  const http = await ctx.http();
  const manifest = ctx.flags.wait
    ? await waitWithProgress(ctx, http, urn, { region: opts.region })
    : await getManifest(http, urn, { region: opts.region });
  const files = downloadableDerivatives(manifest, { outputType });
  if (files.length === 0) {
    const types = [...new Set(manifest.derivatives.map((d) => d.outputType).filter(Boolean))].join(", ");
    throw new DiazoError("not_found", {
      params: {
        what: `downloadable ${outputType ?? ""} derivatives of ${objectId} (status ${manifest.status}; ` +
          `output types: ${types || "none"})`.replace("downloadable  ", "downloadable "),
      },
    });
  }
  const concurrency = (await ctx.settings()).concurrency;
  const results = await mapSettled(files, concurrency, (f) =>
    downloadDerivative(http, urn, f, {
      dir,
      region: opts.region,
      overwrite: opts.force,
      debug: ctx.flags.debug ? (l) => ctx.debug(l) : undefined,
    }));
  type Row = (typeof files)[number] & {
    ok: boolean;
    file?: string;
    size?: number;
    sha1?: string;
    error?: string;
  };
  const rows = files.map((f, i): Row => {
    const r = results[i];
    if (r.status === "fulfilled") {
      return { ...f, file: r.value.file, size: r.value.size, sha1: r.value.sha1, ok: true };
    }
    const e = r.reason;
    ctx.warn(`${f.path}: ${e instanceof Error ? e.message : String(e)}`);
    ctx.setExitCode(e instanceof DiazoError ? e.exitCode : 1);
    return { ...f, ok: false, error: e instanceof Error ? e.message : String(e) };
  });
  const ok = rows.filter((r) => r.ok);
  const bytes = ok.reduce((n, r) => n + (r.size ?? 0), 0);
  ctx.info(`Downloaded ${ok.length} of ${rows.length} derivatives (${bytes} bytes) into ${dir}`);
  await ctx.emit(rows, { columns: ["path", "outputType", "role", "size", "ok"] });
}
