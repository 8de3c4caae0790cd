/**
 * Shell completion, pure: which words complete a partly typed command line, given the description of
 * the command tree (describe.ts, the one pipeline validation reads too); and the bash, zsh, fish and
 * PowerShell scripts that ask `diazo __complete` for them at TAB time (so that plugins installed
 * later are completed too). Hidden commands and options are never offered.
 */
import type { CommandSpec, OptionSpec } from "../pipeline/command.ts";

/** The names of an option, short first. */
function flagsOf(o: OptionSpec): string[] {
  return [o.short, o.long].filter((f): f is string => f !== undefined);
}

/** The implicit `help [command]` of a command with subcommands, as commander offers it. */
const HELP_COMMAND = { name: "help", description: "display help for command" };

/** One completion. */
export interface Candidate {
  value: string;
  description: string;
}

/** Extra top-level words: plugins found on PATH, user aliases. */
export interface CompletionExtras {
  plugins?: readonly string[];
  aliases?: readonly string[];
}

/** The shells completion scripts exist for. */
export const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;

/** One of SHELLS. */
export type Shell = (typeof SHELLS)[number];

/** True when `s` names a supported shell. */
export function isShell(s: string): s is Shell {
  return (SHELLS as readonly string[]).includes(s);
}

function findOption(chain: readonly CommandSpec[], flag: string): OptionSpec | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const o = chain[i].options.find((opt) => opt.long === flag || opt.short === flag);
    if (o) return o;
  }
  return undefined;
}

function valuesOf(opt: OptionSpec, prefix: string, typed: string): Candidate[] {
  return (opt.choices ?? []).filter((c) => c.startsWith(typed)).map((c) => ({
    value: prefix + c,
    description: opt.description ?? "",
  }));
}

function dedupeSorted(list: Candidate[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of list) if (!seen.has(c.value)) seen.set(c.value, c);
  return [...seen.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/**
 * Completions of the last word of `words` (the words after the program name; the last one is the
 * word being typed, "" after a space). An empty answer means "complete file names".
 */
// long: one pass over the words typed so far; its state (command, option awaiting a value) is read top to bottom
export function completeWords(
  tree: CommandSpec,
  words: readonly string[],
  extras: CompletionExtras = {},
): Candidate[] {
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1);
  const chain: CommandSpec[] = [tree];
  let positional = 0;
  let valueFor: OptionSpec | undefined;
  let operandsOnly = false;
  for (const w of before) {
    if (valueFor) {
      if (w !== "=") valueFor = undefined; // bash splits `--output=json` into three words
      continue;
    }
    if (!operandsOnly && w === "--") {
      operandsOnly = true;
      continue;
    }
    if (!operandsOnly && w.startsWith("-") && w.length > 1) {
      const opt = w.includes("=") ? undefined : findOption(chain, w);
      valueFor = opt?.takesValue ? opt : undefined;
      continue;
    }
    const cmd = chain[chain.length - 1];
    const sub = positional === 0 && !operandsOnly
      ? cmd.subcommands.find((c) => c.name === w || c.aliases.includes(w))
      : undefined;
    if (sub) chain.push(sub);
    else positional++;
  }
  const cmd = chain[chain.length - 1];

  // A value for an option: `--output j`, `--output=j`, and bash's split forms `--output = j`, `--output =`.
  if (valueFor) {
    return dedupeSorted(valuesOf(valueFor, current === "=" ? "=" : "", current === "=" ? "" : current));
  }
  if (!operandsOnly && current.startsWith("--") && current.includes("=")) {
    const eq = current.indexOf("=");
    const o = findOption(chain, current.slice(0, eq));
    return o?.takesValue ? dedupeSorted(valuesOf(o, current.slice(0, eq + 1), current.slice(eq + 1))) : [];
  }

  if (!operandsOnly && current.startsWith("-")) {
    const out: Candidate[] = [];
    for (const c of chain) {
      for (const o of c.options) {
        // An ancestor's --help and --version are about the ancestor: not offered below it.
        if (o.hidden || (c !== cmd && (o.long === "--help" || o.long === "--version"))) continue;
        for (const f of flagsOf(o)) {
          if (f.startsWith(current)) out.push({ value: f, description: o.description ?? "" });
        }
      }
    }
    return dedupeSorted(out);
  }

  if (positional === 0 && !operandsOnly && cmd.subcommands.length > 0) {
    const out: Candidate[] = [];
    for (const c of [...cmd.subcommands.filter((c) => !c.hidden), { ...HELP_COMMAND, aliases: [] }]) {
      const description = c.description ?? "";
      if (c.name.startsWith(current)) out.push({ value: c.name, description });
      else {
        const alias = c.aliases.find((a) => a.startsWith(current));
        if (alias) out.push({ value: alias, description });
      }
    }
    if (cmd === tree) {
      const builtin = new Set(tree.subcommands.flatMap((c) => [c.name, ...c.aliases]));
      for (const p of extras.plugins ?? []) {
        if (p.startsWith(current) && !builtin.has(p)) out.push({ value: p, description: "plugin" });
      }
      for (const a of extras.aliases ?? []) {
        if (a.startsWith(current) && !builtin.has(a)) out.push({ value: a, description: "alias" });
      }
    }
    return dedupeSorted(out);
  }

  const arg = cmd.arguments[positional] ??
    (cmd.arguments.at(-1)?.variadic ? cmd.arguments.at(-1) : undefined);
  return dedupeSorted(
    (arg?.choices ?? []).filter((c) => c.startsWith(current)).map((c) => ({
      value: c,
      description: arg!.name,
    })),
  );
}

/** The lines `__complete` prints for a shell: names only for bash, `name<TAB>description` for the others. */
export function formatCandidates(shell: Shell, candidates: readonly Candidate[]): string {
  const clean = (s: string) => s.replace(/[\t\r\n]+/g, " ").trim();
  return candidates.map((c) => (shell === "bash" ? c.value : `${c.value}\t${clean(c.description)}`) + "\n")
    .join("");
}

function bashScript(prog: string): string {
  return `# bash completion for ${prog}. Load it now:   source <(${prog} completions bash)
# or for every shell:  ${prog} completions bash > ~/.local/share/bash-completion/completions/${prog}
_${prog}_complete() {
  local IFS=$'\\n' exe="\${COMP_WORDS[0]}"
  case "$exe" in "~/"*) exe="$HOME/\${exe#\\~/}" ;; esac
  COMPREPLY=($("$exe" __complete bash -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  return 0
}
complete -o default -F _${prog}_complete ${prog}
`;
}

function zshScript(prog: string): string {
  return `#compdef ${prog}
# zsh completion for ${prog}. Load it now:   source <(${prog} completions zsh)
# or put it in your $fpath as _${prog}:      ${prog} completions zsh > "\${fpath[1]}/_${prog}"
_${prog}() {
  local -a lines described
  local line
  lines=("\${(@f)$(\${words[1]} __complete zsh -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  for line in "\${lines[@]}"; do
    [[ -z "$line" ]] && continue
    described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  if (( \${#described} )); then
    _describe -t ${prog} '${prog}' described
  else
    _files
  fi
}
if [[ "\${funcstack[1]}" == "_${prog}" ]]; then
  _${prog} "$@"
else
  compdef _${prog} ${prog}
fi
`;
}

function fishScript(prog: string): string {
  return `# fish completion for ${prog}. Load it now:   ${prog} completions fish | source
# or for every shell:  ${prog} completions fish > ~/.config/fish/completions/${prog}.fish
function __${prog}_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($tokens[1] __complete fish -- $tokens[2..-1] "$current" 2>/dev/null)
    if test (count $out) -eq 0
        __fish_complete_path "$current"
    else
        printf '%s\\n' $out
    end
end
complete -c ${prog} -f -a '(__${prog}_complete)'
`;
}

function powershellScript(prog: string): string {
  return `# PowerShell completion for ${prog}. Load it now:   ${prog} completions powershell | Out-String | Invoke-Expression
# or for every session, add that line to your $PROFILE.
Register-ArgumentCompleter -Native -CommandName '${prog}', '${prog}.exe' -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $elements = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -le $cursorPosition } |
    ForEach-Object { $_.ToString() })
  $exe = $elements[0]
  $words = @($elements | Select-Object -Skip 1)
  if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }
  # Windows PowerShell drops empty arguments to programs: the word being typed goes in --current=.
  & $exe __complete powershell "--current=$wordToComplete" -- @words 2>$null | ForEach-Object {
    $value, $description = $_ -split "\`t", 2
    if (-not $description) { $description = $value }
    $type = if ($value.StartsWith('-')) { 'ParameterName' } else { 'ParameterValue' }
    [System.Management.Automation.CompletionResult]::new($value, $value, $type, $description)
  }
}
`;
}

/** The completion script of a shell for program `prog`. */
export function completionScript(shell: Shell, prog = "diazo"): string {
  switch (shell) {
    case "bash":
      return bashScript(prog);
    case "zsh":
      return zshScript(prog);
    case "fish":
      return fishScript(prog);
    case "powershell":
      return powershellScript(prog);
  }
}

/** The arguments of `__complete`: `<shell> [--current=<word>] -- <words...>`; undefined when malformed. */
export function parseCompleteArgs(args: readonly string[]): { shell: Shell; words: string[] } | undefined {
  const [shell, ...rest] = args;
  if (!shell || !isShell(shell)) return undefined;
  let current: string | undefined;
  let i = 0;
  if (rest[i]?.startsWith("--current=")) current = rest[i++].slice("--current=".length);
  // Some PowerShell versions drop a `--` passed to a program: with --current= it may be missing.
  if (rest[i] === "--") i++;
  else if (current === undefined) return undefined;
  const words = rest.slice(i);
  return { shell, words: current === undefined ? (words.length ? words : [""]) : [...words, current] };
}
