/**
 * The README's `diazo …` examples as runnable steps: every line of its sh blocks that runs diazo,
 * read at test time (so other changes to the README are run too), with the little shell they use
 * understood — `VAR=$(diazo …)` captures, `"$VAR"`, `NAME=value` prefixes, `printf %s "$X" |`,
 * `cat FILE |` and `< FILE` as standard input, `> file`, and pipes after diazo (their other commands
 * not run).
 */
import { splitShellWords } from "../../src/extend/shell_words.ts";

/** An `export NAME=value …` line: variables every later example runs with. */
export interface Export {
  line: number;
  exports: Record<string, string>;
}

/** One README example, ready to run. */
export interface Example {
  /** Line of README.md where it starts. */
  line: number;
  /** The line as written (comment cut, continuation lines joined). */
  text: string;
  /** The variable a `VAR=$(diazo …)` line sets from stdout. */
  captures?: string;
  /** `NAME=value` words before `diazo`. */
  env: Record<string, string>;
  /** What stands on standard input: a variable's value (`printf %s "$X" |`) or a file's text (`cat F |`). */
  stdin?: { variable: string } | { file: string };
  /** The words after `diazo`, variables still unexpanded. */
  args: string[];
  /** `> path`: stdout is written there. */
  redirect?: string;
}

/** The lines of README.md's sh blocks, each with its line number (continuations joined, comments cut). */
function shellLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let inSh = false;
  let pending: { line: number; text: string } | undefined;
  text.split("\n").forEach((raw, i) => {
    if (raw.startsWith("```")) {
      inSh = !inSh && /^```(sh|bash|console)\s*$/.test(raw);
      return;
    }
    if (!inSh) return;
    const cut = cutComment(raw).trimEnd();
    const joined = pending ? `${pending.text} ${cut.trim()}` : cut.trim();
    const line = pending?.line ?? i + 1;
    if (joined.endsWith("\\")) {
      pending = { line, text: joined.slice(0, -1).trimEnd() };
      return;
    }
    pending = undefined;
    if (joined) out.push({ line, text: joined });
  });
  return out;
}

/** A line without its shell comment (a `#` after a blank, outside quotes). */
function cutComment(line: string): string {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  return line;
}

/** Parses one shell line into an example; undefined when it runs no diazo command or is a synopsis. */
export function parseExample(line: number, text: string): Example | undefined {
  let body = text;
  let captures: string | undefined;
  const capture = /^([A-Z_][A-Z0-9_]*)=\$\((.*)\)$/.exec(body);
  if (capture) [captures, body] = [capture[1], capture[2]];
  const sourced = /^source <\((.*)\)$/.exec(body);
  if (sourced) body = sourced[1];
  // A synopsis (`diazo <command> …`, `list | use <name>`) is not a command line.
  if (/<[\w-]+>/.test(body)) return undefined;
  // `[…]` outside quotes marks an optional part of a synopsis: left out.
  body = body.replace(/\s\[[^\]'"]*\]/g, "");
  const words = splitShellWords(body, `README.md:${line}`);
  const at = words.indexOf("diazo");
  if (at < 0) return undefined;
  const before = words.slice(0, at);
  const env: Record<string, string> = {};
  let stdin: Example["stdin"];
  if (before.at(-1) === "|") {
    const [cmd, ...rest] = before.slice(0, -1);
    if (cmd === "printf" && rest[0] === "%s") stdin = { variable: rest[1].replace(/^\$\{?|\}$/g, "") };
    else if (cmd === "cat") stdin = { file: rest[0] };
    else return undefined;
  } else {
    for (const w of before) {
      const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(w);
      if (!m) return undefined;
      env[m[1]] = m[2];
    }
  }
  const after = words.slice(at + 1);
  const end = after.findIndex((w) => ["|", ">", "<", "2>", "&&", "&"].includes(w));
  const args = end < 0 ? after : after.slice(0, end);
  const redirect = end >= 0 && after[end] === ">" ? after[end + 1] : undefined;
  if (end >= 0 && after[end] === "<") stdin = { file: after[end + 1] };
  if (args.length === 0 || args[0].startsWith("-") && args.every((a) => a.startsWith("-"))) return undefined;
  return { line, text, captures, env, stdin, args, redirect };
}

/** An `export NAME=value …` line's variables; undefined for any other line. */
export function parseExport(line: number, text: string): Export | undefined {
  if (!text.startsWith("export ")) return undefined;
  const exports: Record<string, string> = {};
  for (const w of splitShellWords(text.slice(7), `README.md:${line}`)) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(w);
    if (!m) return undefined;
    exports[m[1]] = m[2];
  }
  return { line, exports };
}

/** Every runnable `diazo …` example and `export` line of the README, in order. */
export function readmeExamples(readme: string): (Example | Export)[] {
  return shellLines(readme)
    .map((l) => parseExport(l.line, l.text) ?? parseExample(l.line, l.text))
    .filter((e): e is Example | Export => !!e);
}

/** `$NAME` and `${NAME}` replaced by their values (an unknown name is left as it is, to fail loudly). */
export function expand(word: string, vars: Record<string, string>): string {
  return word.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (all, name: string) => vars[name] ?? all);
}
