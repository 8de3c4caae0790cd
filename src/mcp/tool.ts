/**
 * What a tool of the tool server is (name, texts, zod schemas, annotations, what it needs) and what
 * it is given to run: the command layer's services behind a small dependency object.
 */
import { z } from "zod";
import type { CommandDecl } from "../command/decl.ts";
import type { ToolServerDeps } from "../session/deps.ts";
import { applyFields } from "./fields.ts";

/** What `serve` hands the tool server (session/deps.ts): the verbs' dependencies, its log lines and file roots. */
export type ServeDeps = ToolServerDeps;

/**
 * Which login a tool needs: none (local), the app's (2-legged), either the app's or the user's, or
 * the user's only (3-legged: the construction cloud refuses the app's token).
 */
export type LoginNeed = "none" | "app" | "either" | "user";

/** The MCP annotations every tool declares. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a running tool is given: the deps and the tools this server offers (for auth_status). */
export interface ToolContext extends ServeDeps {
  tools: readonly AnyTool[];
  /** Aborted when the client cancels the call (`notifications/cancelled`). */
  signal?: AbortSignal;
  /** Reports progress when the client asked for it (a progress token); a no-op otherwise. */
  progress?: (done: number, total: number | undefined, message: string) => void;
  /** Asks the user a yes/no question through the client, when the client can be asked (elicitation). */
  elicit?: (question: string) => Promise<boolean>;
  /** Offers one more toolset from now on (the server's selection holds); absent where tools cannot change. */
  enableToolset?: (toolset: string) => { added: string[]; offered: number };
}

/** A tool, typed by its input and output shapes. */
export interface ToolDef<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  /** snake_case, e.g. bucket_list. */
  name: string;
  title: string;
  /** Written for a model: what it does, what ids look like, what it needs. */
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** Scopes a call needs (for auth_status). */
  scopes: readonly string[];
  login: LoginNeed;
  run(args: z.output<z.ZodObject<I>>, ctx: ToolContext): Promise<z.input<z.ZodObject<O>>>;
}

/** A tool of any shape, as the registry holds it. */
export interface AnyTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject<z.ZodRawShape>;
  output: z.ZodObject<z.ZodRawShape>;
  annotations: ToolAnnotations;
  scopes: readonly string[];
  login: LoginNeed;
  run(args: unknown, ctx: ToolContext): Promise<Record<string, unknown>>;
  /** The command whose declaration the input is derived from (mcp/derive.ts), and the kernel's parameters added. */
  derivedFrom?: { command: CommandDecl; kernel: readonly string[] };
}

/**
 * Declares a tool; the types of `run` follow from its schemas. A list tool (a `cursor` argument and
 * `items` in its answer) takes `fields` from the kernel (fields.ts): its items are cut to the keys of
 * its item schema, plus the fields asked for.
 */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(def: ToolDef<I, O>): AnyTool {
  const declared = listItemKeys(def);
  const isList = "cursor" in def.input && "items" in def.output;
  const input = isList ? { ...def.input, fields: fieldsInput } : def.input;
  return {
    ...def,
    input: z.strictObject(input) as unknown as z.ZodObject<z.ZodRawShape>,
    output: z.object(def.output) as unknown as z.ZodObject<z.ZodRawShape>,
    run: async (args, ctx) => {
      if (!isList) return await def.run(args as z.output<z.ZodObject<I>>, ctx) as Record<string, unknown>;
      const { fields, ...rest } = args as { fields?: string[] };
      const answer = await def.run(rest as z.output<z.ZodObject<I>>, ctx) as Record<string, unknown>;
      return applyFields(answer, declared, fields);
    },
  };
}

/** The keys a list tool's item schema declares (undefined when its items are not objects). */
function listItemKeys(def: { output: z.ZodRawShape }): string[] | undefined {
  const items = def.output.items;
  if (!(items instanceof z.ZodArray)) return undefined;
  const element = items.element;
  return element instanceof z.ZodObject ? Object.keys(element.shape) : undefined;
}

/** Annotations of a tool that only reads from the platform. */
export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** Default and largest `limit` of list tools. */
export const LIST_LIMIT = { default: 50, max: 200 } as const;

/** The `limit` argument of a list tool. */
export function limitInput(what: string): z.ZodDefault<z.ZodNumber> {
  return z.number().int().min(1).max(LIST_LIMIT.max).default(LIST_LIMIT.default)
    .describe(`How many ${what} to return at most (1-${LIST_LIMIT.max}).`);
}

/** The `cursor` argument of a list tool. */
export const cursorInput: z.ZodOptional<z.ZodString> = z.string().optional()
  .describe("next_cursor of the previous answer; omit it to start.");

/** The fields every list answer has beside its items. */
export function listOutput<T extends z.ZodType>(item: T) {
  // Loose: `fields` adds the record's other keys to each item (fields.ts).
  const loose = item instanceof z.ZodObject ? item.loose() as unknown as T : item;
  return {
    items: z.array(loose),
    count: z.number(),
    // The whole list's size where the platform says (named once in the server's instructions).
    total: z.number().optional(),
    // What has_more and next_cursor mean is said once, in the server's instructions (families/serve/tools.ts).
    has_more: z.boolean(),
    next_cursor: z.string().optional(),
    truncated: z.boolean().optional().describe("Fewer than limit, to keep the answer small."),
  };
}

/**
 * The arguments named in `keys` that were given, under the platform's camel-case names
 * (`issue_subtype_id` → `issueSubtypeId`): tool inputs are snake case, ops/ takes the platform's.
 */
export function camelKeys(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (args[k] !== undefined) out[k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = args[k];
  }
  return out;
}

/** The `fields` argument of every list tool (added by `defineTool`): its items are compact by default. */
export const fieldsInput: z.ZodOptional<z.ZodArray<z.ZodString>> = z.array(z.string().min(1)).optional()
  .describe(
    'More fields per item, e.g. ["description"]; ["*"]: all.',
  );

/** `record` reduced to `keys` plus the `fields` asked for; every field when `fields` holds "*". */
export function pickFields(
  record: Record<string, unknown>,
  keys: readonly string[],
  fields: readonly string[] = [],
): Record<string, unknown> {
  if (fields.includes("*")) return { ...record };
  const out: Record<string, unknown> = {};
  for (const k of [...keys, ...fields]) if (record[k] !== undefined) out[k] = record[k];
  return out;
}
