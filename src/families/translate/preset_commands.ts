/** `diazo translate preset ...`: named output specs, built in or kept in presets.json. */
import { OUTPUT_TYPES } from "../../aps/derivative_formats.ts";
import {
  type Preset,
  runPresetCreate,
  runPresetDelete,
  runPresetList,
  runPresetShow,
} from "./preset.ts";
import { type AnyCommand, collect, type ContextFactory, examples } from "../../command/command.ts";

/** "svf2(2d,3d) + thumbnail" for a table. */
function summary(p: Preset): string {
  return p.formats.map((f) => `${f.type}${f.views ? `(${f.views.join(",")})` : ""}`).join(" + ");
}

/** Registers `translate preset list|show|create|delete` under `translate`. */
export function registerPresets(translate: AnyCommand, makeCtx: ContextFactory): void {
  const preset = translate.command("preset").alias("presets")
    .description("named output specs for `translate start --preset` (built in, or yours in presets.json)");
  examples(preset, ["diazo translate preset list", "diazo translate preset show svf2"]);

  const list = preset.command("list").alias("ls")
    .description("list the built-in presets and yours")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const presets = await runPresetList(ctx);
      await ctx.emit(presets.map((p) => ({ ...p, summary: summary(p) })), {
        columns: ["name", "builtin", "summary", "description"],
      });
    });
  examples(list, [
    "diazo translate preset list",
    "diazo translate preset list -o json --query '[?!builtin].name'",
  ]);

  const show = preset.command("show")
    .description("show one preset's output formats")
    .argument("<name>", "the preset")
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runPresetShow({ configDir: ctx.configDir, name }));
    });
  examples(show, ["diazo translate preset show svf2"]);

  const create = preset.command("create")
    .description("create (or with --force replace) a preset of your own")
    .argument("<name>", "1-64 characters of [a-z0-9._-]")
    .requiredOption(
      "-f, --format <type>",
      `output type, repeatable or comma-separated (${OUTPUT_TYPES.join(", ")})`,
      collect(String, true),
    )
    .option("--views <list>", "views of svf/svf2 output: 2d, 3d or 2d,3d (default)")
    .option("--description <text>", "what it is for")
    .option("--force", "replace a preset of yours with that name")
    .action(async (name, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { preset, file } = await runPresetCreate({
        configDir: ctx.configDir,
        name,
        types: opts.format,
        views: opts.views?.split(","),
        description: opts.description,
        replace: opts.force,
      });
      ctx.info(`Saved preset ${name} in ${file}`);
      await ctx.emit(preset);
    });
  examples(create, [
    "diazo translate preset create shop-floor --format svf2,obj --views 3d --description 'viewer + OBJ'",
    "diazo translate start <urn> --preset shop-floor --wait",
  ]);

  const del = preset.command("delete").alias("rm")
    .description("delete a preset of yours (built-ins cannot be deleted)")
    .argument("<name>", "the preset")
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runPresetDelete({ configDir: ctx.configDir, name }), {
        action: `Deleted preset ${name}`,
      });
    });
  examples(del, ["diazo translate preset delete shop-floor"]);
}
