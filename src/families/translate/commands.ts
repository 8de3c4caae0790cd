/**
 * `diazo translate ...`: translation jobs, their status and manifests, model views, properties,
 * downloads; declared as data (command/decl.ts) over ./verbs.ts.
 */
import { OUTPUT_TYPES, type OutputFormat, parseOutputType } from "../../aps/derivative_formats.ts";
import { DATA_CENTRES, parseDataCentre } from "../../aps/regions.ts";
import { type ParsedUrn, parseUrn } from "../../aps/urn.ts";
import type { runTranslateTree } from "./verbs.ts";
import { usageError } from "../../core/errors.ts";
import { collect, positiveNumber } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";
import type { ArgumentDecl, CommandDecl, Invocation, OptionDecl } from "../../command/decl.ts";
import { PRESET } from "./preset_commands.ts";
import { resolveFrom } from "../../platform/path.ts";

/** The verbs, loaded when a command runs (they reach node:path, which a declaration must not load). */
const verbs = () => import("./verbs.ts");

const REGION: OptionDecl = {
  flags: "--region <region>",
  description: "Model Derivative region; default US",
  parse: parseDataCentre,
  complete: "region",
  choices: DATA_CENTRES,
  lenientChoices: true,
  toolDescription: "Model Derivative region where the derivatives live (default US).",
};

/** What a tool's `urn` says to a model (mcp/derive.ts). */
export const URN_TEXT =
  "The design's URN: the base64 `urn` from object_list, object_upload or object_urn (e.g. dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6...), " +
  "or a raw urn:adsk.objects:os.object:<bucket>/<key>.";

const URN_ARG: ArgumentDecl = {
  spec: "<urn>",
  description: "base64 or raw URN",
  parse: parseUrn,
  toolDescription: URN_TEXT,
};

/** The output formats of a start command: a preset's, then --format values (which replace a preset's of the same type). */
async function chooseFormats(
  ctx: Ctx,
  opts: { format?: string[]; formats?: string[]; preset?: string; views?: string },
): Promise<OutputFormat[]> {
  const { startFormats } = await import("./preset.ts");
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
  const { runTranslateStart, statusView } = await verbs();
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
  const manifest = await currentManifest(ctx, urn, opts.region, startedAt);
  ctx.info(`Translation of ${objectId} succeeded`);
  await ctx.emit({ ...statusView(manifest, objectId), acceptedJobs: job.data.acceptedJobs });
}

/**
 * The manifest now, or (with --wait) once the job has ended, with progress on stderr; `startedAt`: when
 * the job this run started was accepted.
 */
async function currentManifest(ctx: Ctx, urn: ParsedUrn["urn"], region?: string, startedAt?: number) {
  const { runTranslateStatus } = await verbs();
  if (!ctx.flags.wait) return await runTranslateStatus({ urn, region }, ctx);
  const { withProgress } = await import("./wait.ts");
  return await withProgress(
    ctx,
    urn,
    (wait) =>
      runTranslateStatus({ urn, region, wait: startedAt === undefined ? wait : { ...wait, startedAt } }, ctx),
  );
}

/** `translate start`. */
const START: CommandDecl = {
  name: "start",
  description: "start a translation job (with --wait: until it succeeds or fails)",
  args: [{
    spec: "<urn>",
    description: "base64 URN or raw urn:adsk.objects:os.object:<bucket>/<key>",
    parse: parseUrn,
  }],
  options: [
    {
      flags: "-f, --format <type>",
      description: `output type, repeatable or comma-separated (${OUTPUT_TYPES.join(", ")}); default svf2`,
      parse: collect(String, true),
    },
    { flags: "--formats <list>", description: "same as --format", parse: collect(String, true) },
    { flags: "--preset <name>", description: "a named output spec (see `diazo translate preset list`)" },
    { flags: "--views <list>", description: "views of svf/svf2 output: 2d, 3d or 2d,3d (default)" },
    {
      flags: "--force",
      description:
        "rebuild derivatives that exist already (x-ads-force); start even over the 5 GB input limit",
    },
    REGION,
    { flags: "--root-filename <file>", description: "the top file when the source is a zip (compressedUrn)" },
    { flags: "--workflow <id>", description: "a webhooks workflow id to notify" },
  ],
  examples: [
    "diazo translate start dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bXktYnVja2V0L2hvdXNlLnJ2dA --wait",
    "diazo translate start urn:adsk.objects:os.object:my-bucket/part.obj --format obj,stl --wait --timeout 600",
    "diazo translate start <urn> --preset svf2-3d --force",
  ],
  run: async (ctx, [urn], opts: StartOptions) => await runStart(ctx, urn, opts),
};

/** `translate status`. */
const STATUS: CommandDecl = {
  name: "status",
  description: "show a translation's status and progress (with --wait: poll until it ends)",
  args: [URN_ARG],
  options: [REGION],
  examples: ["diazo translate status <urn>", "diazo translate status <urn> --wait --timeout 1800"],
  run: async (ctx, [{ urn, objectId }]: ParsedUrn[], opts: { region?: string }) => {
    const manifest = await currentManifest(ctx, urn, opts.region);
    const { statusView } = await verbs();
    await ctx.emit(statusView(manifest, objectId), {
      columns: ["status", "progress", "percent", "objectId"],
    });
  },
};

/** `translate manifest`. */
const MANIFEST: CommandDecl = {
  name: "manifest",
  description: "show the whole manifest: every derivative, its status, messages and URNs",
  tool: "translate_manifest",
  args: [URN_ARG],
  options: [REGION],
  examples: ["diazo translate manifest <urn> -o json --query 'derivatives[].outputType'"],
  run: async (ctx, [{ urn, objectId }]: ParsedUrn[], opts: { region?: string }) => {
    const { runTranslateManifest } = await verbs();
    const m = await runTranslateManifest({ urn, region: opts.region }, ctx);
    await ctx.emit({ ...m, objectId });
  },
};

/** `translate metadata` (alias `views`). */
const METADATA: CommandDecl = {
  name: "metadata",
  aliases: ["views"],
  description: "list the model views (guid, role, name) of a translated design",
  args: [URN_ARG],
  options: [REGION],
  examples: [
    "diazo translate metadata <urn>",
    "diazo translate metadata <urn> -o json --query '[].guid'",
  ],
  run: async (ctx, [{ urn }]: ParsedUrn[], opts: { region?: string }) => {
    const { runTranslateViews } = await verbs();
    const views = await runTranslateViews({ urn, region: opts.region }, ctx);
    await ctx.emit(views, { columns: ["guid", "role", "name", "isMasterView"] });
  },
};

/** What `tree` and `properties` take besides the URN. */
interface ExtractOptions {
  guid?: string;
  objectId?: number;
  forceGet?: boolean;
  region?: string;
}

/** `tree` and `properties`: one model view's extract, waiting while the platform builds it. */
function extract(
  head: Pick<CommandDecl, "name" | "aliases" | "description" | "examples">,
  objectHelp: string,
  read: "runTranslateTree" | "runTranslateProperties",
): CommandDecl {
  return {
    ...head,
    args: [URN_ARG],
    options: [
      { flags: "--guid <guid>", description: "the model view (default: the master 3D view)" },
      { flags: "--object-id <n>", description: objectHelp, parse: positiveNumber("--object-id", true) },
      { flags: "--force-get", description: "allow answers over 20 MB (forceget)" },
      REGION,
    ],
    run: async (ctx, [{ urn }]: ParsedUrn[], opts: ExtractOptions) => {
      const timeoutMs = ctx.flags.timeout !== undefined ? ctx.flags.timeout * 1000 : undefined;
      const run: typeof runTranslateTree = (await verbs())[read];
      await ctx.emit((await run({ ...opts, urn, timeoutMs }, ctx)).data);
    },
  };
}

const TREE = extract(
  {
    name: "tree",
    description: "show the object tree of a model view (waits while it is extracted)",
    examples: ["diazo translate tree <urn>", "diazo translate tree <urn> --guid 6bfb4886-... --object-id 1"],
  },
  "only this object and its children (objectid)",
  "runTranslateTree",
);

const PROPERTIES = extract(
  {
    name: "properties",
    aliases: ["props"],
    description: "show the properties of a model view's objects (waits while they are extracted)",
    examples: [
      "diazo translate properties <urn> --object-id 2",
      "diazo translate properties <urn> -o json --query 'data.collection[].name'",
    ],
  },
  "only this object (objectid)",
  "runTranslateProperties",
);

/** `translate download`. */
const DOWNLOAD: CommandDecl = {
  name: "download",
  description: "download every derivative (of one output type) into a directory, in parallel",
  args: [URN_ARG],
  options: [
    {
      flags: "-f, --format <type>",
      description: `only derivatives of this output type (${OUTPUT_TYPES.join(", ")})`,
    },
    {
      flags: "--out <dir>",
      description: "directory to write into (created if needed); default the current directory",
    },
    { flags: "--force", description: "overwrite files that exist" },
    REGION,
  ],
  examples: [
    "diazo translate download <urn> --format obj --out ./out",
    "diazo translate download <urn> --out ./derivatives --concurrency 8",
  ],
  run: async (ctx, [target]: ParsedUrn[], opts: DownloadOptions) => await runDownload(ctx, target, opts),
};

/** `translate thumbnail`. */
const THUMBNAIL: CommandDecl = {
  name: "thumbnail",
  description: "save the design's thumbnail as a PNG file",
  args: [URN_ARG],
  options: [
    { flags: "--out <file>", description: "the PNG file to write", default: "thumbnail.png" },
    { flags: "--size <px>", description: "width and height", choices: ["100", "200", "400"], default: "200" },
    REGION,
  ],
  examples: ["diazo translate thumbnail <urn> --out house.png --size 400"],
  run: async (ctx, [{ urn }]: ParsedUrn[], opts: { out: string; size: string; region?: string }) => {
    const { runTranslateThumbnail } = await verbs();
    const saved = await runTranslateThumbnail(
      { urn, region: opts.region, file: opts.out, size: Number(opts.size) },
      ctx,
    );
    ctx.info(`Saved the thumbnail to ${saved.file} (${saved.size} bytes)`);
    await ctx.emit(saved);
  },
};

/** `translate delete` (alias `rm`). */
const DELETE: CommandDecl = {
  name: "delete",
  aliases: ["rm"],
  description: "delete the manifest and every derivative of a design (the source object stays)",
  args: [URN_ARG],
  options: [REGION],
  examples: ["diazo translate delete <urn> --yes"],
  run: async (ctx, [{ urn, objectId }]: ParsedUrn[], opts: { region?: string }) => {
    const question = `Delete the manifest and all derivatives of ${objectId}?`;
    if (!(await ctx.confirmOrCancel(question))) return;
    const { runTranslateDelete } = await verbs();
    const answer = await runTranslateDelete({ urn, region: opts.region }, ctx);
    await ctx.emit({ ...answer, urn, objectId, deleted: true }, {
      action: `Deleted the manifest and derivatives of ${objectId}`,
    });
  },
};

/** `translate formats`. */
const FORMATS: CommandDecl = {
  name: "formats",
  description: "list the source file types each output type can be made from",
  examples: ["diazo translate formats", "diazo translate formats -o json --query obj"],
  run: async (ctx) => {
    const { runTranslateFormats } = await verbs();
    await ctx.emit(await runTranslateFormats({}, ctx));
  },
};

/**
 * `translate <urn> ...`: the words after `translate` (call.rest, as typed) parsed and run as those of
 * `translate start`, so that no option of this parent command can shadow one of a subcommand.
 * Without a URN, `translate` is a group named without a subcommand: its help on stderr, a usage error.
 */
async function runShorthand(ctx: Ctx, urn: unknown, call: Invocation): Promise<void> {
  // The front door's parser and help, loaded by the one command that parses its own words.
  const [{ commandHelp }, { parseCommandLine }, { programDecl }] = await Promise.all([
    import("../../front/command_help.ts"),
    import("../../front/parse.ts"),
    import("../../front/program.ts"),
  ]);
  const program = { ...programDecl(), commands: [TRANSLATE] };
  if (urn === undefined) {
    const stderr = ctx.io.stderr;
    ctx.io.stderr.write(commandHelp([program, TRANSLATE], stderr.isTerminal ? stderr.columns : undefined));
    const names = (TRANSLATE.commands ?? []).filter((c) => !c.hidden).map((c) => c.name);
    throw usageError(
      `'diazo translate' needs a subcommand: ${names.join(", ")}`,
      "Run `diazo translate --help` for what each does.",
    );
  }
  const parsed = parseCommandLine(program, ["translate", START.name, ...call.rest]);
  if (parsed.kind !== "run") {
    const stdout = ctx.io.stdout;
    if (parsed.kind === "help") {
      stdout.write(commandHelp(parsed.chain, stdout.isTerminal ? stdout.columns : undefined));
    }
    return;
  }
  await START.run!(ctx, parsed.args, parsed.opts, {
    path: parsed.chain.slice(1).map((c) => c.name),
    rest: parsed.rest,
    help: () => Promise.resolve(commandHelp(parsed.chain)),
  });
}

/** The translate family; `translate <urn> ...` is `translate start <urn> ...` (runShorthand). */
export const TRANSLATE: CommandDecl = {
  name: "translate",
  description: "translate models and inspect manifests, metadata and properties",
  args: [{ spec: "[urn]", description: "shorthand for `translate start <urn> ...`" }],
  passThrough: true,
  examples: [
    "diazo translate <urn> --formats svf2 --wait",
    "diazo translate status <urn> --wait --timeout 900",
    "diazo translate download <urn> --format obj --out ./out",
  ],
  commands: [
    START,
    STATUS,
    MANIFEST,
    METADATA,
    TREE,
    PROPERTIES,
    DOWNLOAD,
    THUMBNAIL,
    DELETE,
    FORMATS,
    PRESET,
  ],
  run: (ctx, [urn], _opts, call) => runShorthand(ctx, urn, call),
};

/** What `translate download` takes besides the URN. */
interface DownloadOptions {
  format?: string;
  out?: string;
  force?: boolean;
  region?: string;
}

async function runDownload(
  ctx: Ctx,
  { urn, objectId }: ParsedUrn,
  opts: DownloadOptions,
): Promise<void> {
  const outputType = opts.format === undefined ? undefined : parseOutputType(opts.format);
  const { runTranslateDownload } = await verbs();
  const dir = await resolveFrom(ctx.cwd, opts.out ?? ".");
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
