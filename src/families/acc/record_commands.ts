/**
 * The four record commands of a construction-cloud kind (`list`, `get`, `create`, `update`),
 * declared once (command/decl.ts) from a spec of flags over families/acc/records.ts: `rfi` (families/rfi/commands.ts) and `acc asset|submittal|
 * checklist` (families/asset/commands.ts, families/submittal/commands.ts, families/checklist/commands.ts) use it. Ids are checked before any request; `--project` takes the GUID, its
 * `b.` form, an ACC URL or the project's name (front/names.ts), and defaults to the configured project.
 */
import { accId } from "../../aps/dm_ids.ts";
import type { AccProjectId } from "../../aps/ids.ts";
import { usageError } from "../../core/errors.ts";
import { isTabular } from "../../core/output.ts";
import { type RecordKind, runRecordCreate, runRecordGet, runRecordList, runRecordUpdate } from "./records.ts";
import { bodySource, positiveNumber } from "../../command/command.ts";
import type { ArgumentDecl, CommandDecl, OptionDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";

/** A flag that sets one body field (`--title <text>` → `title`). */
export interface FieldFlag {
  flags: string;
  field: string;
  help: string;
  /** Turns the flag's text into the field's value (default: the text). */
  parse?: (value: string) => unknown;
  /** Only `create` takes it (the platform fixes it once the record exists). */
  createOnly?: boolean;
}

/** A flag that filters a list (`--status <list>` → `status`). */
export interface FilterFlag {
  flags: string;
  key: string;
  help: string;
  parse?: (value: string) => unknown;
}

/** Everything the record commands of a kind need. */
export interface RecordCli<R, F> {
  kind: RecordKind<R, F>;
  /** The plural a person reads in descriptions ("RFIs"). */
  plural: string;
  /** The article of the noun ("an RFI", "a submittal"). */
  article: "a" | "an";
  filters: readonly FilterFlag[];
  fields: readonly FieldFlag[];
  /** Values a create takes when neither a flag nor the file gives them (e.g. status draft). */
  createDefaults?: Record<string, unknown>;
  examples: { list: string[]; get: string[]; create: string[]; update: string[] };
  /** The tools `get` and `list` are called by in the tool server ("rfi_get"); `get` is its tool (mcp/derive.ts). */
  tools: { get: string; list: string };
}

/** Help of every `--project` option of these families. */
export const PROJECT_HELP =
  "project: its GUID (the data management b.<guid> form or an ACC URL is accepted) or its name; default DIAZO_PROJECT or `diazo config set project`";
const FROM_FILE_HELP = "read the body's fields from a JSON or YAML file (`-`: stdin); flags win over it";

/** A comma-separated list of values. */
export function commaList(value: string): string[] {
  return value.split(",").map((v) => v.trim()).filter(Boolean);
}

/** A record id argument: non-empty, no spaces or slashes; checked before any request. */
function recordId(noun: string): (value: string) => string {
  return (value) => {
    const id = value.trim();
    if (id === "" || /[\s/?#]/.test(id)) {
      throw usageError(`invalid ${noun} id '${value}'`, `Take the id from the list command's id column.`);
    }
    return id;
  };
}

/** A `--project` value checked before any request: the bare GUID (`b.` stripped). */
export function projectOf(value: string): AccProjectId {
  return accId(value);
}

/** Table rows a person scans (table and csv without --query), else the platform's records. */
async function emitList<R, F>(ctx: Ctx, kind: RecordKind<R, F>, records: R[]): Promise<void> {
  const format = await ctx.format();
  if (isTabular(format) && !ctx.flags.query) {
    await ctx.emit(records.map(kind.row), { columns: kind.columns });
    return;
  }
  await ctx.emit(records);
}

/** The fields the flags set (parsed), leaving out the flags not given. */
function fieldsOf(spec: readonly FieldFlag[], opts: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of spec) {
    const v = opts[optionKey(f.flags)];
    if (v !== undefined) out[f.field] = f.parse ? f.parse(String(v)) : v;
  }
  return out;
}

/** commander's option key of `--due-date <date>`: dueDate (of `--assigned-to, --assignee <id>`: the last, assignee). */
function optionKey(flags: string): string {
  const long = flags.split(/[ ,]+/).filter((p) => p.startsWith("--")).at(-1)!.slice(2);
  return long.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The options setting body fields, then `--from-file`. */
function fieldOptions(fields: readonly FieldFlag[]): OptionDecl[] {
  return [
    ...fields.map((f) => ({ flags: f.flags, description: f.help })),
    { flags: "--from-file <file>", description: FROM_FILE_HELP },
  ];
}

/** Options of a command whose options are built from a spec. */
type Opts = Record<string, unknown> & { project: AccProjectId; fromFile?: string; limit?: number };

/** `--project <id>`, required. */
export const PROJECT_OPTION: OptionDecl = {
  flags: "--project <id>",
  description: PROJECT_HELP,
  parse: projectOf,
  complete: "project",
  names: "project",
  required: true,
  toolName: "project_id",
  toolDescription: "Construction-cloud project id: the GUID (the data management b.<guid> form is accepted).",
};

/** The `<id>` argument of `get` and `update`; its tool says which list tool answers the id. */
function idArgument(noun: string, listTool: string): ArgumentDecl {
  return {
    spec: "<id>",
    description: `${noun} id`,
    parse: recordId(noun),
    toolDescription: `The ${noun}'s id (the id field of ${listTool}).`,
  };
}

/** `list` and `get` of a kind. */
function readCommands<R, F>(spec: RecordCli<R, F>): CommandDecl[] {
  const { kind } = spec;
  const list: CommandDecl = {
    name: "list",
    aliases: ["ls"],
    description: `list the project's ${spec.plural}, following every page`,
    options: [
      PROJECT_OPTION,
      ...spec.filters.map((f) => ({
        flags: f.flags,
        description: f.help,
        parse: f.parse ?? ((v: string) => v),
      })),
      {
        flags: "--limit <n>",
        description: `stop after n ${spec.plural}`,
        parse: positiveNumber("--limit", true),
      },
    ],
    examples: spec.examples.list,
    run: async (ctx, _args, opts: Opts) => {
      const filters: Record<string, unknown> = {};
      for (const f of spec.filters) filters[f.key] = opts[optionKey(f.flags)];
      const records = await runRecordList(kind, {
        project: opts.project,
        filters: filters as F,
        limit: opts.limit,
      }, ctx);
      await emitList(ctx, kind, records);
    },
  };
  const get: CommandDecl = {
    name: "get",
    aliases: ["info"],
    description: `show one ${kind.noun} with every field the platform returns`,
    tool: spec.tools.get,
    args: [idArgument(kind.noun, spec.tools.list)],
    options: [PROJECT_OPTION],
    examples: spec.examples.get,
    run: async (ctx, [id]: string[], opts: Opts) => {
      await ctx.emit(await runRecordGet(kind, { project: opts.project, id }, ctx));
    },
  };
  return [list, get];
}

/** `create` and `update` of a kind. */
function writeCommands<R, F>(spec: RecordCli<R, F>): CommandDecl[] {
  const { kind } = spec;
  const updatable = spec.fields.filter((f) => !f.createOnly);
  const create: CommandDecl = {
    name: "create",
    description: `create ${spec.article} ${kind.noun} from flags and/or --from-file`,
    options: [PROJECT_OPTION, ...fieldOptions(spec.fields)],
    examples: spec.examples.create,
    run: async (ctx, _args, opts: Opts) => {
      const record = await runRecordCreate(kind, {
        project: opts.project,
        fields: fieldsOf(spec.fields, opts),
        fromFile: bodySource(ctx, opts.fromFile),
        defaults: spec.createDefaults,
        flagOf: Object.fromEntries(spec.fields.map((f) => [f.field, f.flags.split(/[ ,]/)[0]])),
      }, ctx);
      await ctx.emit(record, { action: `Created ${kind.noun} ${kind.row(record).id}` });
    },
  };
  const update: CommandDecl = {
    name: "update",
    description: `change ${spec.article} ${kind.noun}: only the fields that differ are sent`,
    args: [idArgument(kind.noun, spec.tools.list)],
    options: [PROJECT_OPTION, ...fieldOptions(updatable)],
    examples: spec.examples.update,
    run: async (ctx, [id]: string[], opts: Opts) => {
      const result = await runRecordUpdate(kind, {
        project: opts.project,
        id,
        fields: fieldsOf(updatable, opts),
        fromFile: bodySource(ctx, opts.fromFile),
      }, ctx);
      const action = result.changed.length > 0
        ? `Updated ${kind.noun} ${id}: ${result.changed.join(", ")}`
        : `${kind.noun} ${id} already has these values: nothing sent`;
      await ctx.emit(result.record, { action });
    },
  };
  return [create, update];
}

/** `list`, `get`, `create` and `update` of a kind, in that order. */
export function recordCommands<R, F>(spec: RecordCli<R, F>): CommandDecl[] {
  return [...readCommands(spec), ...writeCommands(spec)];
}

/** A flag parser for a date (YYYY-MM-DD), else a usage error naming the flag. */
export function dateValue(flag: string): (value: string) => string {
  return (value) => {
    const d = value.trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d))) {
      throw usageError(`${flag} must be a date (YYYY-MM-DD), got '${value}'`, `Example: ${flag} 2026-12-01`);
    }
    return d;
  };
}

/** A flag parser for a comma list whose values must be among `allowed` (case as given in `allowed`). */
export function oneOf(
  flag: string,
  allowed: readonly string[],
  single = false,
): (value: string) => string | string[] {
  return (value) => {
    const values = commaList(value).map((v) => allowed.find((a) => a.toLowerCase() === v.toLowerCase()) ?? v);
    const bad = values.filter((v) => !allowed.includes(v));
    if (values.length === 0 || bad.length > 0 || (single && values.length > 1)) {
      throw usageError(
        `${flag} '${value}' is not allowed`,
        `Use ${single ? "one" : "one or more"} of ${allowed.join(", ")}${
          single ? "" : ", separated by commas"
        }.`,
      );
    }
    return single ? values[0] : values;
  };
}
