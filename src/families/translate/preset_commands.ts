/** `diazo translate preset ...`: named output specs, built in or kept in presets.json; declared as data (command/decl.ts). */
import { OUTPUT_TYPES } from "../../aps/derivative_formats.ts";
import type { Preset } from "./preset.ts";
import { collect } from "../../command/command.ts";
import type { CommandDecl } from "../../command/decl.ts";

/** The preset verbs, loaded by the preset commands' runs only (every `translate` command parses this file). */
const verbs = () => import("./preset.ts");

/** "svf2(2d,3d) + thumbnail" for a table. */
function summary(p: Preset): string {
  return p.formats.map((f) => `${f.type}${f.views ? `(${f.views.join(",")})` : ""}`).join(" + ");
}

/** `translate preset create`. */
const CREATE: CommandDecl = {
  name: "create",
  description: "create (or with --force replace) a preset of your own",
  args: [{ spec: "<name>", description: "1-64 characters of [a-z0-9._-]" }],
  options: [
    {
      flags: "-f, --format <type>",
      description: `output type, repeatable or comma-separated (${OUTPUT_TYPES.join(", ")})`,
      parse: collect(String, true),
      required: true,
    },
    { flags: "--views <list>", description: "views of svf/svf2 output: 2d, 3d or 2d,3d (default)" },
    { flags: "--description <text>", description: "what it is for" },
    { flags: "--force", description: "replace a preset of yours with that name" },
  ],
  examples: [
    "diazo translate preset create shop-floor --format svf2,obj --views 3d --description 'viewer + OBJ'",
    "diazo translate start <urn> --preset shop-floor --wait",
  ],
  run: async (
    ctx,
    [name]: string[],
    opts: { format: string[]; views?: string; description?: string; force?: boolean },
  ) => {
    const { preset, file } = await (await verbs()).runPresetCreate({
      configDir: ctx.configDir,
      name,
      types: opts.format,
      views: opts.views?.split(","),
      description: opts.description,
      replace: opts.force,
    });
    ctx.info(`Saved preset ${name} in ${file}`);
    await ctx.emit(preset);
  },
};

/** `translate preset` (alias `presets`): `list|show|create|delete`. */
export const PRESET: CommandDecl = {
  name: "preset",
  aliases: ["presets"],
  description: "named output specs for `translate start --preset` (built in, or yours in presets.json)",
  examples: ["diazo translate preset list", "diazo translate preset show svf2"],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "list the built-in presets and yours",
      examples: [
        "diazo translate preset list",
        "diazo translate preset list -o json --query '[?!builtin].name'",
      ],
      run: async (ctx) => {
        const presets = await (await verbs()).runPresetList(ctx);
        await ctx.emit(presets.map((p) => ({ ...p, summary: summary(p) })), {
          columns: ["name", "builtin", "summary", "description"],
        });
      },
    },
    {
      name: "show",
      description: "show one preset's output formats",
      args: [{ spec: "<name>", description: "the preset" }],
      examples: ["diazo translate preset show svf2"],
      run: async (ctx, [name]: string[]) => {
        await ctx.emit(await (await verbs()).runPresetShow({ configDir: ctx.configDir, name }));
      },
    },
    CREATE,
    {
      name: "delete",
      aliases: ["rm"],
      description: "delete a preset of yours (built-ins cannot be deleted)",
      args: [{ spec: "<name>", description: "the preset" }],
      examples: ["diazo translate preset delete shop-floor"],
      run: async (ctx, [name]: string[]) => {
        await ctx.emit(await (await verbs()).runPresetDelete({ configDir: ctx.configDir, name }), {
          action: `Deleted preset ${name}`,
        });
      },
    },
  ],
};
