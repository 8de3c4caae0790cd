/**
 * `diazo completions bash|zsh|fish|powershell` prints a completion script; the script calls the hidden
 * `diazo __complete <shell> -- <words...>` (answered by `runComplete`, before the command tree runs)
 * at TAB time, so commands, flags, choices and the plugins on PATH are always current.
 */
import {
  completeWords,
  type CompletionExtras,
  completionScript,
  formatCandidates,
  isShell,
  parseCompleteArgs,
  SHELLS,
} from "./complete_words.ts";
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

/** Answers `diazo __complete <shell> [--current=<word>] -- <words...>`; returns the exit code. */
export async function runComplete(
  args: readonly string[],
  io: Io,
  env: Record<string, string | undefined>,
): Promise<number> {
  const parsed = parseCompleteArgs(args);
  if (!parsed) {
    io.stderr.write(
      `error: usage: diazo __complete <${SHELLS.join("|")}> [--current=<word>] -- <words...>\n`,
    );
    return 2;
  }
  const tree = await commandTree(io);
  const candidates = completeWords(tree, parsed.words, await topLevelExtras(env));
  io.stdout.write(formatCandidates(parsed.shell, candidates));
  return 0;
}

/** `completions <shell>`. */
export const COMPLETIONS: CommandDecl = {
  name: "completions",
  description: "print a shell completion script: commands, subcommands, flags, choices and plugins on PATH",
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
