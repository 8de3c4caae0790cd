/**
 * The hot path: the commands scripts run most — `--help`, `bucket list`, `object list`,
 * `object download` of one object, `auth status` — served without loading commander (an npm package
 * whose load is most of a run's start-up). It takes only plain, valid command lines: any other
 * shape (an unknown or repeated short flag, `--`, `--help` of a command, a value that does not
 * parse) returns undefined and the command tree (root.ts) runs it, so every error keeps the tree's
 * wording. The actions are the families' own (hot_actions.ts), and the run keeps the tree's steps:
 * front door, alias warning, --query check, pre/post hooks, scope-usage record, one reported error.
 */
import { type BucketKey, parseBucketKey } from "../aps/ids.ts";
import { parseBucketRegion } from "../aps/regions.ts";
import { CLOSED_OUTPUT_EXIT, isClosedOutput } from "./closed_output.ts";
import { positiveNumber } from "./command.ts";
import { GLOBAL_OPTIONS, parseFlags } from "./global_options.ts";
import type { RunState } from "./context.ts";
import type { HotCommand, HotMatch, HotOption } from "./hot_run.ts";
import type { Io } from "./io.ts";
import { rootHelp } from "./root_help.ts";

const actions = () => import("./hot_actions.ts");
/** Loads a command's action and its verb's module while hot_run.ts loads: one wave of loads, not three. */
const preload = (ops: () => Promise<unknown>) => () => Promise.all([actions(), ops()]);
const option = (flags: string, parse?: (value: string) => unknown): HotOption => ({
  ...parseFlags(flags),
  ...(parse ? { parse } : {}),
});
const limit = option("--limit <n>", positiveNumber("--limit", true));
const bucketList = (family: string): HotCommand => ({
  path: [family, "list"],
  words: [[family], ["list", "ls"]],
  args: [],
  options: [option("--region <region>", parseBucketRegion), limit],
  preload: preload(() => import("../ops/bucket.ts")),
  run: async (ctx, _args, opts) => (await actions()).bucketListAction(ctx, opts),
});

/** The hot commands: the same options, arguments and parsers as their families declare. */
const HOT: readonly HotCommand[] = [
  bucketList("bucket"),
  bucketList("oss"),
  {
    path: ["object", "list"],
    words: [["object", "objects"], ["list", "ls"]],
    args: [{ name: "bucketKey", parse: parseBucketKey }],
    options: [option("--prefix <prefix>"), limit],
    preload: preload(() => import("../ops/object.ts")),
    run: async (ctx, args, opts) => (await actions()).objectListAction(ctx, args[0] as BucketKey, opts),
  },
  {
    // One object only: several keys or --prefix (batch-signed) take the tree.
    path: ["object", "download"],
    words: [["object", "objects"], ["download", "get"]],
    args: [{ name: "bucketKey", parse: parseBucketKey }, { name: "objectKeys", parse: (key) => [key] }],
    options: [option("--out <path>"), option("--force"), option("--resume")],
    preload: preload(() => import("../ops/object_download.ts")),
    run: async (ctx, args, opts) =>
      (await actions()).objectDownloadAction(ctx, args[0] as BucketKey, args[1] as string[], opts),
  },
  {
    path: ["auth", "status"],
    words: [["auth"], ["status"]],
    args: [],
    options: [option("--scopes"), option("--verbose")],
    preload: preload(() => import("../ops/auth.ts")),
    run: async (ctx, _args, opts) => (await actions()).authStatusAction(ctx, opts),
  },
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
