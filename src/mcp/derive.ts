/**
 * Tools derived from command declarations (command/decl.ts): a command that names its tool (`tool`)
 * is that tool's input, property by property, so the tool never declares its inputs a second time
 * (ARCHITECTURE.md, "Commands as data"). Arguments and options become snake-case properties, typed
 * by their choices, parser (`typedParser`), default and required-ness; options only the command line
 * has (`toolHidden`) are left out, and the kernel adds its own parameters by one rule (`KERNEL_PARAMS`).
 */
import { z } from "zod";
import type { ArgumentDecl, CommandDecl, OptionDecl } from "../command/decl.ts";
import { valueTypeOf } from "../command/decl.ts";
import { parseFlags } from "../command/global_options.ts";
import { confirmInput } from "./confirm.ts";
import { type AnyTool, cursorInput, defineTool, fieldsInput, limitInput, type ToolDef } from "./tool.ts";

/** The parameters only tools have, added by the kernel in this order: paging, more fields, confirmation. */
export const KERNEL_PARAMS = ["limit", "cursor", "fields", "confirm"] as const;

/** How a tool is derived from its command, beyond the declaration. */
export interface Derivation {
  /** A list tool of these things ("buckets"): `limit` and `cursor`; the command's own `--limit` is the tool's `limit`. */
  list?: string;
  /** The user confirms (mcp/confirm.ts): `confirm`. */
  confirm?: boolean;
  /** Schemas of derived properties whose type the declaration cannot say (e.g. a login choice with "auto"). */
  types?: Record<string, z.ZodType>;
}

/** The property a positional argument becomes: `toolName`, else its name in snake case (`<bucketKey>` → bucket_key). */
export function argumentProperty(arg: ArgumentDecl): string {
  return arg.toolName ?? snake(arg.spec.replace(/[<>[\]]|\.\.\./g, ""));
}

/** The property an option becomes: `toolName`, else its long flag in snake case (`--no-wait` → wait). */
export function optionProperty(opt: OptionDecl): string {
  if (opt.toolName) return opt.toolName;
  const f = parseFlags(opt.flags);
  return snake(f.long.slice(f.negate ? 5 : 2));
}

/** The options of `decl` its tool takes: not `toolHidden`, and not `--limit` where the kernel's limit stands. */
export function toolOptions(decl: CommandDecl, derivation: Derivation = {}): OptionDecl[] {
  return (decl.options ?? []).filter((o) =>
    !o.toolHidden && !(derivation.list !== undefined && parseFlags(o.flags).long === "--limit")
  );
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/-/g, "_").toLowerCase();
}

/** The human description as a sentence for a model: capitalised, with a full stop. */
function sentence(text: string): string {
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/**
 * The schema of one value: an enum of its choices, a number, a list or a string (never empty); a flag
 * without a value is a boolean.
 */
function valueSchema(spec: { parse?: unknown; choices?: readonly string[] }, takesValue: boolean): z.ZodType {
  if (!takesValue) return z.boolean();
  if (spec.choices?.length) return z.enum(spec.choices as [string, ...string[]]);
  const t = valueTypeOf(spec.parse);
  if (t?.type === "integer" || t?.type === "number") {
    let n = t.type === "integer" ? z.number().int() : z.number();
    if (t.min !== undefined) n = n.min(t.min);
    if (t.max !== undefined) n = n.max(t.max);
    return n;
  }
  if (t?.type === "list") return z.array(z.string().min(1));
  return z.string().min(1);
}

/** Required, defaulted or optional, with the description a model reads. */
function finish(schema: z.ZodType, required: boolean, fallback: unknown, text: string): z.ZodType {
  const s = required ? schema : fallback !== undefined ? schema.default(fallback) : schema.optional();
  return s.describe(text);
}

function argumentSchema(arg: ArgumentDecl): z.ZodType {
  const required = arg.spec.startsWith("<");
  const one = valueSchema(arg, true);
  const schema = arg.spec.includes("...") ? z.array(one).min(1) : one;
  return finish(schema, required, arg.default, arg.toolDescription ?? sentence(arg.description));
}

function optionSchema(opt: OptionDecl): z.ZodType {
  const f = parseFlags(opt.flags);
  const required = opt.required === true;
  const fallback = opt.default ?? (f.takesValue ? undefined : f.negate);
  const schema = valueSchema(opt, f.takesValue);
  return finish(schema, required, fallback, opt.toolDescription ?? sentence(opt.description));
}

/** The tool's input shape derived from `decl`: its arguments, its options, then the kernel's parameters. */
export function toolInputFrom(decl: CommandDecl, derivation: Derivation = {}): z.ZodRawShape {
  const shape: Record<string, z.ZodType> = {};
  for (const a of decl.args ?? []) shape[argumentProperty(a)] = argumentSchema(a);
  for (const o of toolOptions(decl, derivation)) shape[optionProperty(o)] = optionSchema(o);
  for (const [name, type] of Object.entries(derivation.types ?? {})) {
    if (!(name in shape)) throw new Error(`${decl.name}: '${name}' is not an input the declaration derives`);
    shape[name] = type;
  }
  for (const p of kernelParams(derivation)) {
    if (p in shape) throw new Error(`${decl.name}: '${p}' is the kernel's parameter`);
    shape[p] = kernelSchema(p, derivation);
  }
  return shape;
}

function kernelSchema(param: (typeof KERNEL_PARAMS)[number], derivation: Derivation): z.ZodType {
  if (param === "limit") return limitInput(derivation.list ?? "items");
  return param === "cursor" ? cursorInput : param === "fields" ? fieldsInput : confirmInput;
}

/** The kernel's parameters a derivation adds, in the order of KERNEL_PARAMS. */
export function kernelParams(derivation: Derivation): (typeof KERNEL_PARAMS)[number][] {
  return KERNEL_PARAMS.filter((p) =>
    // Every list tool's items are compact and `fields` widens them (tool.ts adds it to each list).
    p === "confirm" ? derivation.confirm === true : derivation.list !== undefined
  );
}

/** The command of `family` (or below it) that names `tool`; an error when none does. */
export function commandOfTool(family: CommandDecl, tool: string): CommandDecl {
  const found = family.tool === tool
    ? family
    : (family.commands ?? []).map((c) => findTool(c, tool)).find((c) => c !== undefined);
  if (!found) throw new Error(`no command of ${family.name} names the tool ${tool}`);
  return found;
}

function findTool(decl: CommandDecl, tool: string): CommandDecl | undefined {
  if (decl.tool === tool) return decl;
  for (const c of decl.commands ?? []) {
    const found = findTool(c, tool);
    if (found) return found;
  }
  return undefined;
}

/**
 * What a derived tool is given: its properties by their snake-case names, as its derived schema checked
 * them. The schema is made at start from the declaration, so no static type follows it.
 */
// deno-lint-ignore no-explicit-any
export type DerivedArgs = any;

/** A derived tool's definition: a tool's, without its input, which comes from the command that names it. */
export type DerivedToolDef<O extends z.ZodRawShape> = Omit<ToolDef<z.ZodRawShape, O>, "input" | "run"> & {
  /** How the input is derived beyond the declaration. */
  derive?: Derivation;
  run(
    args: DerivedArgs,
    ctx: Parameters<ToolDef<z.ZodRawShape, O>["run"]>[1],
  ): Promise<z.input<z.ZodObject<O>>>;
};

/** Declares the tool that the command of `family` naming `def.name` is: its input derived from that declaration. */
export function deriveTool<O extends z.ZodRawShape>(family: CommandDecl, def: DerivedToolDef<O>): AnyTool {
  const { derive = {}, ...rest } = def;
  const command = commandOfTool(family, def.name);
  const tool = defineTool<z.ZodRawShape, O>({ ...rest, input: toolInputFrom(command, derive) });
  return { ...tool, derivedFrom: { command, kernel: kernelParams(derive) } };
}
