/**
 * A command declared once, as data: its words, arguments, options, help texts and what it runs. The
 * parser, every `--help`, the root help, completions, pipeline step validation and the tool server's
 * derived tools all read these declarations (ARCHITECTURE.md, "Commands as data"); nothing else lists
 * a command's options.
 */
import type { Ctx } from "./context.ts";
import type { CompletionSource } from "../core/completion_sources.ts";

/** What a hub or project option or argument names: a `NameKind` value is an id or a name. */
export type NameKind = "hub" | "project";

/**
 * A hub or project as typed (an id or a name), as the parser leaves it for front/names.ts, which turns
 * it into the id the option's `parse` gives before the command runs.
 */
export interface NamedValue {
  readonly named: NameKind;
  readonly text: string;
}

/** Whether a parsed value is a hub or project still to be resolved. */
export function isNamedValue(value: unknown): value is NamedValue {
  return typeof value === "object" && value !== null && "named" in value && "text" in value;
}

/** One option of a command. */
export interface OptionDecl {
  /** The flags: "-k, --key <bucketKey>", "--force", "--no-hooks", "--format <type>". */
  flags: string;
  description: string;
  /**
   * Reads the value (a usage error when it is not valid). `previous` is the value so far, so that a
   * repeatable option collects (command.ts `collect`).
   */
  // deno-lint-ignore no-explicit-any
  parse?: (value: string, previous: any) => unknown;
  /** The value when the option is absent (shown in help as `(default: …)`). */
  default?: unknown;
  /** The only values allowed (shown in help as `(choices: …)`). */
  choices?: readonly string[];
  /** The choices are offered (help, completion), but any value is taken: the run reports a wrong one. */
  lenientChoices?: boolean;
  /** The option must be given. */
  required?: boolean;
  /** Parsed, but not listed in help. */
  hidden?: boolean;
  /** Where shell completion takes its values from (core/completion_sources.ts), beside `choices`. */
  complete?: CompletionSource;
  /**
   * The option names a hub or project: an id (read by `parse`) or a name resolved through the platform,
   * and when absent DIAZO_HUB/DIAZO_PROJECT or the profile's default (front/names.ts). `required`
   * then holds once the default is applied.
   */
  names?: NameKind;
  /** The property of the command's tool (CommandDecl `tool`) when the flag's snake case does not serve. */
  toolName?: string;
  /** What the tool's input schema says of it, for a model, when `description` does not serve. */
  toolDescription?: string;
  /** Only the command line has it (a file written, stdin read): the command's tool takes no such input. */
  toolHidden?: boolean;
}

/** One positional argument: "<bucketKey>" (required), "[urn]" (optional), "[objectKeys...]" (variadic). */
export interface ArgumentDecl {
  spec: string;
  description: string;
  /** Reads the value (a usage error when it is not valid); a variadic argument's, each value with the list so far. */
  // deno-lint-ignore no-explicit-any
  parse?: (value: string, previous: any) => unknown;
  /** The value when an optional argument is absent. */
  default?: unknown;
  /** The only values allowed. */
  choices?: readonly string[];
  /** Where shell completion takes its values from (core/completion_sources.ts), beside `choices`. */
  complete?: CompletionSource;
  /** The argument names a hub or project: an id (read by `parse`) or a name (front/names.ts). */
  names?: NameKind;
  /** The property of the command's tool (CommandDecl `tool`) when the argument's snake case does not serve. */
  toolName?: string;
  /** What the tool's input schema says of it, for a model, when `description` does not serve. */
  toolDescription?: string;
}

/** What a parser reads, told to the tool server's derived input schemas (mcp/derive.ts); strings by default. */
export interface ValueType {
  type: "integer" | "number" | "list";
  /** The smallest value allowed. */
  min?: number;
  /** The largest value allowed. */
  max?: number;
}

/** `parse` marked with what it reads (`valueTypeOf` reads it back). */
export function typedParser<F extends (...a: never[]) => unknown>(parse: F, type: ValueType): F {
  return Object.assign(parse, { valueType: type });
}

/** What a parser marked by `typedParser` reads; undefined for a parser of strings. */
export function valueTypeOf(parse: unknown): ValueType | undefined {
  return (parse as { valueType?: ValueType } | undefined)?.valueType;
}

/** What a command's `run` is given besides the context: where it was called and its raw words. */
export interface Invocation {
  /** The command's words from the program down, e.g. ["bucket", "list"]. */
  path: readonly string[];
  /** The arguments after the command's words, as typed (for commands that pass them on). */
  rest: readonly string[];
  /** The command's help text (its page loads when asked: front/command_help.ts). */
  help(): Promise<string>;
}

/**
 * A command, or a group of commands (`commands`), as data. `run` receives the context, the
 * positional values in order (a variadic one as a list) and the options by key (`--non-interactive`
 * -> `nonInteractive`, `--no-wait` -> `wait`), ancestors' options included.
 */
export interface CommandDecl {
  name: string;
  aliases?: readonly string[];
  description: string;
  args?: readonly ArgumentDecl[];
  options?: readonly OptionDecl[];
  /** Text the command's help shows after its lists, before the examples (its own line breaks kept). */
  helpText?: string;
  /** Command lines shown under "Examples:" in the command's help. */
  examples?: readonly string[];
  /** Subcommands. */
  commands?: readonly CommandDecl[];
  // deno-lint-ignore no-explicit-any
  run?: (ctx: Ctx, args: any[], opts: any, call: Invocation) => Promise<void> | void;
  /** Unknown options and extra arguments are not refused: `run` reads them from `call.rest`. */
  passThrough?: boolean;
  /** Runs, but is not listed among its parent's commands. */
  hidden?: boolean;
  /**
   * The tool server's tool that is this command (same verb, same inputs): its input schema is derived
   * from this declaration (mcp/derive.ts), never written a second time.
   */
  tool?: string;
}
