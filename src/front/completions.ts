/**
 * `diazo completions bash|zsh|fish|powershell` prints a completion script; the script calls the hidden
 * `diazo __complete <shell> -- <words...>` (answered by `runComplete`, before the command tree runs)
 * at TAB time, so commands, flags, choices, the plugins on PATH and the values of each declared
 * source (profiles, regions, help topics, buckets, projects: complete_sources.ts) are always current.
 */
import {
  completeWords,
  type CompletionExtras,
  completionScript,
  formatCandidates,
  isShell,
  parseCompleteArgs,
  profileOnLine,
  SHELLS,
  slotAt,
  VALUES_ONLY_EXIT,
} from "./complete_words.ts";
import { sourceValues } from "./complete_sources.ts";
import { usageError } from "../core/errors.ts";
import { loadPluginsFile } from "../extend/plugins_config.ts";
import { configDirFor } from "../platform/dirs.ts";
import { pluginNamesOnPath } from "../platform/which.ts";
import type { CommandDecl } from "../command/decl.ts";
import { commandTree } from "./describe.ts";
import type { Io } from "../command/io.ts";

/** Plugins on PATH (less those plugins.json disables) and user aliases; a broken plugins.json is ignored. */
async function topLevelExtras(env: Record<string, string | undefined>): Promise<CompletionExtras> {
  let plugins = await pluginNamesOnPath(env).catch(() => [] as string[]);
  let aliases: string[] = [];
  try {
    const { config } = await loadPluginsFile(configDirFor((k) => env[k], Deno.build.os));
    plugins = plugins.filter((p) => config.plugins[p]?.enabled !== false);
    aliases = Object.keys(config.aliases);
  } catch { /* completion never fails on configuration */ }
  return { plugins, aliases };
}

/**
 * Answers `diazo __complete <shell> [--current=<word>] -- <words...>`; returns the exit code
 * (VALUES_ONLY_EXIT when the word takes values only and none matched).
 */
export async function runComplete(
  args: readonly string[],
  io: Io,
  env: Record<string, string | undefined>,
  cwd = Deno.cwd(),
): Promise<number> {
  const parsed = parseCompleteArgs(args);
  if (!parsed) {
    io.stderr.write(
      `error: usage: diazo __complete <${SHELLS.join("|")}> [--current=<word>] -- <words...>\n`,
    );
    return 2;
  }
  const tree = await commandTree(io);
  const slot = slotAt(tree, parsed.words);
  const extras: CompletionExtras = slot ? {} : await topLevelExtras(env);
  if (slot?.source) {
    const input = { env, cwd, profile: profileOnLine(parsed.words) };
    extras.values = { [slot.source]: await sourceValues(slot.source, input).catch(() => []) };
  }
  const candidates = completeWords(tree, parsed.words, extras);
  io.stdout.write(formatCandidates(parsed.shell, candidates));
  return slot && candidates.length === 0 ? VALUES_ONLY_EXIT : 0;
}

/** `completions <shell>`. */
export const COMPLETIONS: CommandDecl = {
  name: "completions",
  description:
    "print a shell completion script: commands, flags, plugins and values (choices, profiles, regions, buckets, projects)",
  args: [{ spec: "<shell>", description: "the shell to complete for", choices: SHELLS }],
  examples: [
    "source <(diazo completions bash)        # bash, this shell (add to ~/.bashrc to keep it)",
    'diazo completions zsh > "${fpath[1]}/_diazo"   # zsh, with compinit',
    "diazo completions fish > ~/.config/fish/completions/diazo.fish",
    "diazo completions powershell | Out-String | Invoke-Expression   # add to $PROFILE to keep it",
  ],
  run: (ctx, [shell]: string[]) => {
    if (!isShell(shell)) throw usageError(`unknown shell '${shell}'`, `Use one of: ${SHELLS.join(", ")}.`);
    ctx.io.stdout.write(completionScript(shell));
  },
};
