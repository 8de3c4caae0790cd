/**
 * Every `diazo ...` command a hint names exists: the hints of the error catalog (src/core/errors.ts)
 * and of the tool server (src/mcp/tool_hints.ts), and every backquoted `diazo ...` in the text of
 * src/ (the families' usage errors among them) are walked through the registry
 * (src/front/program.ts `fullProgram()`): each command word must be a command or alias, each long
 * option one of the command's or its ancestors'. A placeholder (`<hub>`, `{scope}`, `NAME`, `...`)
 * stands for whatever the reader puts there.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandDecl } from "../../src/command/decl.ts";
import { HELP_TOPICS, parseFlags } from "../../src/command/global_options.ts";
import { CATALOG } from "../../src/core/errors.ts";
import { findCommand } from "../../src/front/parse.ts";
import { fullProgram } from "../../src/front/program.ts";
import { TOOL_HINTS } from "../../src/mcp/tool_hints.ts";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const program = await fullProgram();

/** A word that stands for a value: `<hub>`, `{scope}`, `NAME`, `SA_ID`, `...`, `$VAR`, a quoted string. */
function placeholder(word: string): boolean {
  return /[<>{}$"'…]|\.\.\./.test(word) || /^[A-Z][A-Z0-9_]*$/.test(word);
}

/** The option of `chain` (the command or an ancestor) that `flag` names, if any. */
function optionOf(chain: readonly CommandDecl[], flag: string) {
  for (const cmd of [...chain].reverse()) {
    for (const o of cmd.options ?? []) {
      const f = parseFlags(o.flags);
      if (f.long === flag || f.short === flag || f.long === flag.replace(/^--no-/, "--")) return f;
    }
  }
  return flag === "--help" || flag === "-h" ? parseFlags("-h, --help") : undefined;
}

/** What is wrong with the command line `line` (the words after `diazo`), or undefined. */
export function problemOf(line: string): string | undefined {
  const words = line.trim().split(/\s+/);
  const chain: CommandDecl[] = [program];
  const where = () => chain.slice(1).map((c) => c.name).join(" ");
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (/^(\||;|&&|>|2>|#)/.test(word)) break; // the shell's, not diazo's
    const cmd = chain[chain.length - 1];
    if (word.startsWith("-")) {
      const flag = word.split("=")[0];
      if (placeholder(flag)) continue;
      const f = optionOf(chain, flag);
      if (!f) return `no option ${flag} in \`${where()}\``;
      if (f.takesValue && !word.includes("=")) i++;
      continue;
    }
    if (!(cmd.commands ?? []).length) continue; // an argument of the command
    if (placeholder(word)) return undefined; // a command word left to the reader: nothing more to check
    if (word === "help") {
      const next = words[i + 1];
      const topic = chain.length === 1 && next !== undefined && Object.hasOwn(HELP_TOPICS, next);
      if (topic || next === undefined || placeholder(next) || findCommand(cmd, next)) return undefined;
      return `\`help ${next}\` names neither a command nor a topic`;
    }
    // `list|get|create`: each of the alternatives.
    const missing = word.split("|").filter((w) => !findCommand(cmd, w) && w !== "help");
    if (missing.length > 0) return `no command ${[where(), missing.join("|")].filter(Boolean).join(" ")}`;
    if (word.includes("|")) return undefined;
    chain.push(findCommand(cmd, word)!);
  }
  return undefined;
}

/** The `diazo ...` commands quoted with backquotes in `text` (a hint, or a string of src/). */
function quotedCommands(text: string): string[] {
  return [...text.matchAll(/`diazo ([^`\n]+)`/g)].map((m) => m[1]);
}

/**
 * The text of every string of `source` (from Deno's own parser, the lint plugin API), a template
 * literal's expressions as `<x>`: where hints are, and not comments or code.
 */
function stringsOf(file: string, source: string): string[] {
  const out: string[] = [];
  const plugin: Deno.lint.Plugin = {
    name: "hints",
    rules: {
      strings: {
        create: () => ({
          Literal(node) {
            if (typeof node.value === "string") out.push(node.value);
          },
          TemplateLiteral(node) {
            out.push(node.quasis.map((q) => q.cooked ?? q.raw).join("<x>"));
          },
        }),
      },
    },
  };
  Deno.lint.runPlugin(plugin, file, source);
  return out;
}

/** Every .ts file under `dir`. */
async function* sources(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory) yield* sources(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

Deno.test("hints: the walk itself refuses a command, a subcommand and an option that do not exist", () => {
  assert.equal(problemOf("bucket list --region EMEA"), undefined);
  assert.equal(problemOf("project list <hub>"), undefined);
  assert.equal(problemOf("help formatting"), undefined);
  assert.match(problemOf("buckets list") ?? "", /no command buckets/);
  assert.match(problemOf("bucket lsit") ?? "", /no command bucket lsit/);
  assert.match(problemOf("bucket list --regoin EMEA") ?? "", /no option --regoin/);
  assert.match(problemOf("help formating") ?? "", /neither a command nor a topic/);
  assert.match(problemOf("object list|info|lsit") ?? "", /no command object lsit/);
});

Deno.test("hints: every `diazo ...` of the error catalog and of the tool server's hints exists", () => {
  const hints = [
    ...Object.entries(CATALOG).map(([code, e]) => [code, e.hint] as const),
    ...Object.entries(TOOL_HINTS).map(([code, h]) => [`tool ${code}`, h ?? ""] as const),
  ];
  const wrong: string[] = [];
  for (const [code, hint] of hints) {
    for (const line of quotedCommands(hint)) {
      const problem = problemOf(line);
      if (problem) wrong.push(`${code}: diazo ${line}: ${problem}`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("hints: every backquoted `diazo ...` in src/ (the families' errors among them) exists", async () => {
  const wrong: string[] = [];
  let seen = 0;
  for await (const file of sources(SRC)) {
    const source = await Deno.readTextFile(file);
    if (!source.includes("`diazo ")) continue; // parsed only where a quoted command may be
    const strings = stringsOf(file, source);
    for (const line of strings.flatMap(quotedCommands)) {
      seen++;
      const problem = problemOf(line);
      if (problem) wrong.push(`${path.relative(SRC, file)}: diazo ${line}: ${problem}`);
    }
  }
  assert.ok(seen > 100, `read the hints of src/ (${seen})`);
  assert.deepEqual(wrong, []);
});
