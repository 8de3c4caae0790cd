/**
 * Shell completion, pure: which words complete a partly typed command line, given the description of
 * the command tree (describe.ts, the one pipeline validation reads too); and the bash, zsh, fish and
 * PowerShell scripts that ask `diazo __complete` for them at TAB time (so that plugins installed
 * later are completed too). Hidden commands and options are never offered.
 */
import type { CommandSpec, OptionSpec } from "../pipeline/command.ts";
import type { CompletionSource } from "../core/completion_sources.ts";

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

/** Extra words: plugins found on PATH and user aliases (top level), the values of a slot's source. */
export interface CompletionExtras {
  plugins?: readonly string[];
  aliases?: readonly string[];
  values?: Partial<Record<CompletionSource, readonly Candidate[]>>;
}

/**
 * The exit status of `__complete` when the word being typed takes values only (choices or a source)
 * and none matched: the scripts then offer no file names. An empty answer with status 0 means "file
 * names".
 */
export const VALUES_ONLY_EXIT = 1;

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

function dedupeSorted(list: Candidate[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of list) if (!seen.has(c.value)) seen.set(c.value, c);
  return [...seen.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/** Where the word being typed stands, after a walk over the words before it. */
interface Walk {
  /** The commands named so far, from the program down. */
  chain: CommandSpec[];
  /** Positional words after the last command word. */
  positional: number;
  /** The option whose value is being typed. */
  valueFor?: OptionSpec;
  /** After `--`: every word is an operand. */
  operandsOnly: boolean;
  /** After the implicit `help` word: the command whose subcommands (and, at the top, help topics) follow. */
  helpOf?: CommandSpec;
}

/** Walks the words before the one being typed down the command tree. */
function walk(tree: CommandSpec, before: readonly string[]): Walk {
  const w: Walk = { chain: [tree], positional: 0, operandsOnly: false };
  for (const word of before) {
    if (w.valueFor) {
      if (word !== "=") w.valueFor = undefined; // bash splits `--output=json` into three words
      continue;
    }
    if (!w.operandsOnly && word === "--") {
      w.operandsOnly = true;
      continue;
    }
    if (!w.operandsOnly && word.startsWith("-") && word.length > 1) {
      const opt = word.includes("=") ? undefined : findOption(w.chain, word);
      w.valueFor = opt?.takesValue ? opt : undefined;
      continue;
    }
    const cmd = w.chain[w.chain.length - 1];
    if (w.helpOf) {
      const sub = w.positional === 0 ? subcommandNamed(w.helpOf, word) : undefined;
      if (sub) w.helpOf = sub;
      else w.positional++;
      continue;
    }
    const sub = w.positional === 0 && !w.operandsOnly ? subcommandNamed(cmd, word) : undefined;
    if (sub) w.chain.push(sub);
    else if (w.positional === 0 && !w.operandsOnly && word === HELP_COMMAND.name && cmd.subcommands.length) {
      w.helpOf = cmd;
    } else w.positional++;
  }
  return w;
}

function subcommandNamed(cmd: CommandSpec, word: string): CommandSpec | undefined {
  return cmd.subcommands.find((c) => c.name === word || c.aliases.includes(word));
}

/**
 * A value being typed, of an option or a positional argument (or the word after `help`), with the
 * values it takes: its choices, and its source of values when it declares one.
 */
export interface Slot {
  /** The values known without asking anyone: declared choices (or, after `help`, subcommands). */
  fixed: Candidate[];
  /** Where more values come from (command/decl.ts `complete`). */
  source?: CompletionSource;
  /** What was typed of the value so far. */
  typed: string;
  /** Put before each value: `--output=` when typed in that form, `=` in bash's split form. */
  prefix: string;
  /** Its help line, shown beside each value. */
  description: string;
}

/** The slot of an option awaiting `typed`. */
function optionSlot(opt: OptionSpec, prefix: string, typed: string): Slot {
  const description = opt.description ?? "";
  return {
    fixed: (opt.choices ?? []).map((c) => ({ value: c, description })),
    ...(opt.complete ? { source: opt.complete } : {}),
    typed,
    prefix,
    description,
  };
}

/**
 * The value slot of the last word of `words` (see `completeWords`), or undefined when that word is a
 * command, a flag, or a value without choices or source (a file name, a free text).
 */
export function slotAt(tree: CommandSpec, words: readonly string[]): Slot | undefined {
  const current = words.at(-1) ?? "";
  const w = walk(tree, words.slice(0, -1));
  let slot: Slot | undefined;
  if (w.valueFor) {
    // A value for an option: `--output j`, and bash's split forms `--output = j`, `--output =`.
    slot = optionSlot(w.valueFor, current === "=" ? "=" : "", current === "=" ? "" : current);
  } else if (!w.operandsOnly && current.startsWith("--") && current.includes("=")) {
    const eq = current.indexOf("=");
    const o = findOption(w.chain, current.slice(0, eq));
    if (o?.takesValue) slot = optionSlot(o, current.slice(0, eq + 1), current.slice(eq + 1));
  } else if (w.helpOf && w.positional === 0) {
    slot = {
      fixed: commandWords(w.helpOf, current, false),
      ...(w.helpOf === tree ? { source: "topic" as const } : {}),
      typed: current,
      prefix: "",
      description: "help topic",
    };
  } else if (!current.startsWith("-") || w.operandsOnly) {
    const cmd = w.chain[w.chain.length - 1];
    if (w.positional > 0 || w.operandsOnly || cmd.subcommands.length === 0) {
      const arg = cmd.arguments[w.positional] ??
        (cmd.arguments.at(-1)?.variadic ? cmd.arguments.at(-1) : undefined);
      if (arg) {
        slot = {
          fixed: (arg.choices ?? []).map((c) => ({ value: c, description: arg.name })),
          ...(arg.complete ? { source: arg.complete } : {}),
          typed: current,
          prefix: "",
          description: arg.name,
        };
      }
    }
  }
  return slot && (slot.fixed.length > 0 || slot.source) ? slot : undefined;
}

/** A command's subcommands (and, with `help`, its implicit help command) whose name or alias starts with `typed`. */
function commandWords(cmd: CommandSpec, typed: string, help: boolean): Candidate[] {
  const out: Candidate[] = [];
  const commands = cmd.subcommands.filter((c) => !c.hidden);
  for (const c of help ? [...commands, { ...HELP_COMMAND, aliases: [] }] : commands) {
    const description = c.description ?? "";
    if (c.name.startsWith(typed)) out.push({ value: c.name, description });
    else {
      const alias = c.aliases.find((a) => a.startsWith(typed));
      if (alias) out.push({ value: alias, description });
    }
  }
  return out;
}

/** Regions are read in any case: `--region e` completes to EMEA. */
const ANY_CASE: ReadonlySet<CompletionSource> = new Set(["region", "bucket-region"]);

/** The values of a slot that start with what was typed: its fixed ones and its source's (`values`). */
function slotValues(slot: Slot, values: readonly Candidate[] = []): Candidate[] {
  const anyCase = slot.source !== undefined && ANY_CASE.has(slot.source);
  const typed = anyCase ? slot.typed.toUpperCase() : slot.typed;
  const starts = (v: string) => (anyCase ? v.toUpperCase() : v).startsWith(typed);
  const fixed = slot.fixed.filter((c) => c.value.startsWith(slot.typed));
  let sourced = values.filter((c) => starts(c.value));
  // A project is typed by its id; a name typed instead finds the id when nothing else matches.
  if (slot.source === "project" && !sourced.length && !fixed.length && typed) {
    const lower = typed.toLowerCase();
    sourced = values.filter((c) => c.description.toLowerCase().startsWith(lower));
  }
  return [...fixed, ...sourced].map((c) => ({
    value: slot.prefix + c.value,
    description: c.description || slot.description,
  }));
}

/**
 * Completions of the last word of `words` (the words after the program name; the last one is the
 * word being typed, "" after a space). An empty answer means "complete file names", unless the word
 * is a value with choices or a source (`slotAt`). `extras.values` holds the values of the slot's
 * source, looked up by the caller (front/complete_sources.ts).
 */
export function completeWords(
  tree: CommandSpec,
  words: readonly string[],
  extras: CompletionExtras = {},
): Candidate[] {
  const current = words.at(-1) ?? "";
  const w = walk(tree, words.slice(0, -1));
  const slot = slotAt(tree, words);
  if (slot) return dedupeSorted(slotValues(slot, slot.source ? extras.values?.[slot.source] : undefined));
  if (w.valueFor || w.helpOf || (!w.operandsOnly && current.startsWith("--") && current.includes("="))) {
    return [];
  }
  const cmd = w.chain[w.chain.length - 1];
  if (!w.operandsOnly && current.startsWith("-")) return dedupeSorted(flagWords(w.chain, cmd, current));
  if (w.positional === 0 && !w.operandsOnly && cmd.subcommands.length > 0) {
    const out = commandWords(cmd, current, true);
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
  return [];
}

/** The flags of a command and its ancestors that start with `current`. */
function flagWords(chain: readonly CommandSpec[], cmd: CommandSpec, current: string): Candidate[] {
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
  return out;
}

/** The `--profile` typed before the last word, if any (remote values are the app's of that profile). */
export function profileOnLine(words: readonly string[]): string | undefined {
  let profile: string | undefined;
  const before = words.slice(0, -1);
  for (let i = 0; i < before.length; i++) {
    const w = before[i];
    if (w === "--") break;
    if (w.startsWith("--profile=")) profile = w.slice("--profile=".length);
    else if (w === "--profile" && i + 1 < before.length) {
      // bash splits `--profile=work` into `--profile`, `=`, `work`
      if (before[i + 1] === "=" && i + 2 < before.length) profile = before[i + 2];
      else if (before[i + 1] !== "=") profile = before[i + 1];
    }
  }
  return profile;
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
  # Status ${VALUES_ONLY_EXIT}: the word takes values only and none matched; no file names either.
  [[ $? == ${VALUES_ONLY_EXIT} ]] && compopt +o default 2>/dev/null
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
  local line code
  lines=("\${(@f)$(\${words[1]} __complete zsh -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  code=$?
  for line in "\${lines[@]}"; do
    [[ -z "$line" ]] && continue
    described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  if (( \${#described} )); then
    _describe -t ${prog} '${prog}' described
  elif (( code != ${VALUES_ONLY_EXIT} )); then
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
    set -l code $status
    if test (count $out) -eq 0
        # Status ${VALUES_ONLY_EXIT}: the word takes values only and none matched; no file names either.
        test $code -eq ${VALUES_ONLY_EXIT}; or __fish_complete_path "$current"
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
