/**
 * The hot path: the commands scripts run most — `--help`, `bucket list`, `object list`,
 * `object download` of one object, `auth status` — served without loading commander (an npm package
 * whose load is most of a run's start-up). It takes only plain, valid command lines: any other
 * shape (an unknown or repeated short flag, `--`, `--help` of a command, a value that does not
 * parse) returns undefined and the command tree (root.ts) runs it, so every error keeps the tree's
 * wording. It parses from the declarations the families give commander (declarations.ts), the
 * actions are the families' own (hot_actions.ts), and the run keeps the tree's steps:
 * front door, alias warning, --query check, pre/post hooks, scope-usage record, one reported error.
 */
import type { BucketKey } from "../aps/ids.ts";
import { CLOSED_OUTPUT_EXIT, isClosedOutput } from "../command/closed_output.ts";
import type { CommandDecl } from "../command/command.ts";
import { AUTH_STATUS, BUCKET_LIST, OBJECT_DOWNLOAD, OBJECT_LIST } from "../command/declarations.ts";
import { GLOBAL_OPTIONS, parseFlags } from "../command/global_options.ts";
import type { RunState } from "../command/context.ts";
import type { HotCommand, HotMatch, HotOption } from "./hot_run.ts";
import type { Io } from "../command/io.ts";
import { rootHelp } from "./root_help.ts";

const actions = () => import("./hot_actions.ts");
/** Loads a command's action and its verb's module while hot_run.ts loads: one wave of loads, not three. */
const preload = (ops: () => Promise<unknown>) => () => Promise.all([actions(), ops()]);

/** A hot command from its one declaration (declarations.ts), under `family` and its aliases. */
function hot(
  family: readonly string[],
  decl: CommandDecl,
  rest: Pick<HotCommand, "preload" | "run" | "serves">,
): HotCommand {
  return {
    path: [family[0], decl.name],
    words: [family, [decl.name, ...(decl.aliases ?? [])]],
    // A variadic argument takes exactly one value here (several go to the tree), as a list.
    args: (decl.args ?? []).map((a) => {
      const parse = a.parse ?? ((v: string) => v);
      return {
        name: a.spec.replace(/[<>[\].]/g, ""),
        parse: a.spec.includes("...") ? (v) => [parse(v)] : parse,
      };
    }),
    options: decl.options.map((o) => ({ ...parseFlags(o.flags), ...(o.parse ? { parse: o.parse } : {}) })),
    ...rest,
  };
}

const bucketList = (family: string): HotCommand =>
  hot([family], BUCKET_LIST, {
    preload: preload(() => import("../families/bucket/verbs.ts")),
    run: async (ctx, _args, opts) => (await actions()).bucketListAction(ctx, opts),
  });

/** The hot commands, parsed from the very declarations their families give commander. */
const HOT: readonly HotCommand[] = [
  bucketList("bucket"),
  bucketList("oss"),
  hot(["object", "objects"], OBJECT_LIST, {
    preload: preload(() => import("../families/object/verbs.ts")),
    run: async (ctx, args, opts) => (await actions()).objectListAction(ctx, args[0] as BucketKey, opts),
  }),
  hot(["object", "objects"], OBJECT_DOWNLOAD, {
    // One object only: a prefix (batch-signed, as several keys are) takes the tree.
    serves: (opts) => opts.prefix === undefined,
    preload: preload(() => import("../families/object/download.ts")),
    run: async (ctx, args, opts) =>
      (await actions()).objectDownloadAction(ctx, args[0] as BucketKey, args[1] as string[], opts),
  }),
  hot(["auth"], AUTH_STATUS, {
    preload: preload(() => import("../families/auth/verbs.ts")),
    run: async (ctx, _args, opts) => (await actions()).authStatusAction(ctx, opts),
  }),
];

const GLOBALS: readonly HotOption[] = GLOBAL_OPTIONS.map((o) => ({
  ...parseFlags(o.flags),
  ...(o.choices ? { choices: o.choices } : {}),
  ...(o.parse ? { parse: o.parse } : {}),
}));

/** Reads `value` for an option or argument; undefined when it is not valid (the tree then reports it). */
function valueOf(spec: { choices?: readonly string[]; parse?: (v: string) => unknown }, value: string) {
  if (spec.choices && !spec.choices.includes(value)) return undefined;
  try {
    return { ok: spec.parse ? spec.parse(value) : value };
  } catch {
    return undefined;
  }
}

/** Finds the option `token` names among `known`, with its inline value (`--x=v`, `-ov`). */
function findOption(
  token: string,
  known: readonly HotOption[],
): { opt: HotOption; inline?: string } | undefined {
  if (token.startsWith("--")) {
    const eq = token.indexOf("=");
    const name = eq < 0 ? token : token.slice(0, eq);
    const opt = known.find((o) => o.long === name);
    if (!opt || (eq >= 0 && !opt.takesValue)) return undefined;
    return eq < 0 ? { opt } : { opt, inline: token.slice(eq + 1) };
  }
  const opt = known.find((o) => o.short === token.slice(0, 2));
  if (!opt || (token.length > 2 && !opt.takesValue)) return undefined;
  return token.length > 2 ? { opt, inline: token.slice(2) } : { opt };
}

/** The hot command `argv` names with everything parsed, or undefined when the command tree must run it. */
export function matchHot(argv: readonly string[]): HotMatch | undefined {
  // long: one pass over argv — words, options with their values, positionals — each shape bailing out
  const globals: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  const positionals: string[] = [];
  let candidates: readonly HotCommand[] = HOT;
  let depth = 0;
  let command: HotCommand | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") return undefined;
    if (token.startsWith("-") && token.length > 1) {
      const own = command ? command.options : [];
      const found = findOption(token, [...own, ...GLOBALS]);
      if (!found) return undefined;
      const { opt } = found;
      const target = own.includes(opt) ? options : globals;
      if (!opt.takesValue) {
        target[opt.key] = !opt.negate;
        continue;
      }
      const raw = found.inline ?? argv[++i];
      if (raw === undefined || (found.inline === undefined && raw.startsWith("-"))) return undefined;
      const value = valueOf(opt, raw);
      if (!value) return undefined;
      target[opt.key] = value.ok;
      continue;
    }
    if (!command) {
      candidates = candidates.filter((c) => c.words[depth].includes(token));
      if (candidates.length === 0) return undefined;
      depth++;
      command = candidates.find((c) => c.words.length === depth);
      continue;
    }
    positionals.push(token);
  }
  if (!command || positionals.length !== command.args.length) return undefined;
  if (command.serves && !command.serves(options)) return undefined;
  const args: unknown[] = [];
  for (const [i, spec] of command.args.entries()) {
    const value = valueOf(spec, positionals[i]);
    if (!value) return undefined;
    args.push(value.ok);
  }
  return { command, args, options, globals };
}

/** Options of a hot run (as `runCli`'s). */
export interface HotRunOptions {
  state?: RunState;
}

/**
 * Runs `argv` on the hot path when it serves it: the exit code, or undefined when the command tree
 * must run it. `diazo`, `diazo --help` and `diazo -h` print the program's help.
 */
export async function runHot(
  argv: readonly string[],
  io: Io,
  env: Record<string, string | undefined>,
  cwd: string,
  options: HotRunOptions = {},
): Promise<number | undefined> {
  if (argv.length === 0 || (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h"))) {
    try {
      io.stdout.write(rootHelp(io.stdout.isTerminal ? io.stdout.columns : undefined, argv.length === 1));
    } catch (e) {
      // A reader that went away ends the run as the tree's help does (run_common.ts): 141, quietly.
      if (!isClosedOutput(e)) throw e;
      return CLOSED_OUTPUT_EXIT;
    }
    return 0;
  }
  const match = matchHot(argv);
  if (!match) return undefined;
  const [{ runHotMatch }] = await Promise.all([import("./hot_run.ts"), match.command.preload?.()]);
  return await runHotMatch(match, argv, { io, env, cwd, state: options.state ?? { exitCode: 0 } });
}
