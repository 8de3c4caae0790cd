/**
 * Aliases in pipeline steps: a step's command word may be an alias of plugins.json, expanded as the
 * command line expands it (`extend/aliases.ts`), so that the validator checks the command it becomes.
 */
import { expandOne } from "../extend/aliases.ts";
import { isDiazoError } from "../core/errors.ts";
import type { TemplateWord } from "./interpolate.ts";

/** Aliases and plugins a step's command word may name (from plugins.json and PATH). */
export interface StepExtensions {
  aliases: Readonly<Record<string, string>>;
  /** True when `name` is a plugin (found on PATH or configured, enabled or not). */
  isPlugin(name: string): boolean;
}

// Private-use markers stand for the step's own words while `expandOne` fills the placeholders.
const MARK = /\uE010(\d+)\uE011/g;
const mark = (i: number) => `\uE010${i}\uE011`;

/**
 * The step's words with the alias at `at` expanded: the alias's words take the alias word's place in
 * the file (so that problems point at it), `$N` takes the N-th following word, the rest follow.
 */
export function expandStepAlias(
  words: readonly TemplateWord[],
  at: number,
  expansion: string,
): { words: TemplateWord[] } | { problem: string } {
  const alias = words[at];
  const rest = words.slice(at + 1);
  let expanded: string[];
  try {
    expanded = expandOne(alias.literal!, expansion, rest.map((_, i) => mark(i)));
  } catch (e) {
    if (isDiazoError(e)) return { problem: e.message };
    throw e;
  }
  const out = expanded.map((text): TemplateWord => {
    const whole = /^\uE010(\d+)\uE011$/.exec(text);
    if (whole) return rest[Number(whole[1])];
    const used = [...text.matchAll(MARK)].map((m) => rest[Number(m[1])]);
    const literal = used.every((u) => u.literal !== undefined)
      ? text.replace(MARK, (_, n: string) => rest[Number(n)].literal!)
      : undefined; // a placeholder inside a word that holds an expression: known only at run time
    const from = used.length ? used : [alias];
    return {
      parts: [], // the validator reads `literal`; the step runs through the command line's own expansion
      literal,
      offset: from[0].offset,
      length: from[0].length,
    };
  });
  return { words: [...words.slice(0, at), ...out] };
}
