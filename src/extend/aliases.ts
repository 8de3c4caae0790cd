/**
 * Alias expansion (README.md, "Plugins, hooks and aliases"): the command word, when it is an alias, is
 * replaced by its expansion split with shell-style quoting; `$1..$n` placeholders take the arguments after
 * the word positionally, the arguments no placeholder took are appended in order. Aliases may expand to other
 * aliases; a loop is an error naming the chain. An alias never shadows a built-in.
 */
import { DiazoError, usageError } from "../core/errors.ts";
import { splitShellWords } from "./shell_words.ts";

/** What expansion needs to know about the command line. */
export interface AliasRules {
  aliases: Readonly<Record<string, string>>;
  /** True for built-in command words, which aliases cannot shadow. */
  isBuiltin(word: string): boolean;
  /** The index of the command word in argv (after global options), or -1. */
  wordIndex(args: readonly string[]): number;
}

/** The result of expansion: the new argv and the aliases it went through, in order. */
export interface Expansion {
  args: string[];
  chain: string[];
}

const PLACEHOLDER = /\$(\d+)/g;

/** The rules an alias name must follow: a word of letters, digits, `_`, `-` and `.`, not starting with `-`. */
export function validAliasName(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name);
}

/**
 * Expands one alias: `expansion` split into words, `$N` filled with `rest[N-1]`, the unused rest
 * appended. Too few arguments for the placeholders and an empty expansion are usage errors.
 */
export function expandOne(name: string, expansion: string, rest: readonly string[]): string[] {
  const words = splitShellWords(expansion, `alias '${name}'`);
  if (words.length === 0) {
    throw usageError(
      `alias '${name}' expands to nothing`,
      `Give it a command: \`diazo plugin alias add ${name} "<command> [args]"\`, or remove it.`,
    );
  }
  const used = new Set<number>();
  let highest = 0;
  const filled = words.map((w) =>
    w.replace(PLACEHOLDER, (_, n: string) => {
      const i = Number(n);
      highest = Math.max(highest, i);
      if (i === 0 || i > rest.length) return `$${n}`;
      used.add(i - 1);
      return rest[i - 1];
    })
  );
  if (highest > rest.length) {
    throw usageError(
      `alias '${name}' needs ${highest} argument${
        highest === 1 ? "" : "s"
      } ($1..$${highest}), got ${rest.length}`,
      `Its expansion is: ${expansion}`,
    );
  }
  return [...filled, ...rest.filter((_, i) => !used.has(i))];
}

/**
 * Expands the command word of `args` while it names an alias (and not a built-in). Global options
 * before the word are kept in place. A chain that comes back to an alias already expanded is an
 * `alias_loop` error naming it (`a → b → a`).
 */
export function expandAliases(args: readonly string[], rules: AliasRules): Expansion {
  let current = [...args];
  const chain: string[] = [];
  for (;;) {
    const at = rules.wordIndex(current);
    if (at < 0) break;
    const word = current[at];
    if (rules.isBuiltin(word) || !Object.hasOwn(rules.aliases, word)) break;
    if (chain.includes(word)) {
      throw new DiazoError("alias_loop", { params: { chain: [...chain, word].join(" → ") } });
    }
    chain.push(word);
    const expanded = expandOne(word, rules.aliases[word], current.slice(at + 1));
    current = [...current.slice(0, at), ...expanded];
  }
  return { args: current, chain };
}

/**
 * The aliases `name` goes through before it reaches a command (placeholders left as they are);
 * an `alias_loop` error when it never does.
 */
export function aliasChain(name: string, rules: AliasRules): string[] {
  const chain: string[] = [];
  let word: string | undefined = name;
  while (word !== undefined && !rules.isBuiltin(word) && Object.hasOwn(rules.aliases, word)) {
    if (chain.includes(word)) {
      throw new DiazoError("alias_loop", { params: { chain: [...chain, word].join(" → ") } });
    }
    chain.push(word);
    const words = splitShellWords(rules.aliases[word], `alias '${word}'`);
    const at = rules.wordIndex(words);
    word = at < 0 ? undefined : words[at];
  }
  return chain;
}

/** Alias names in the file that a built-in hides (they are ignored, with a warning). */
export function shadowedAliases(
  aliases: Readonly<Record<string, string>>,
  isBuiltin: (word: string) => boolean,
): string[] {
  return Object.keys(aliases).filter(isBuiltin).sort();
}
