/**
 * The README's examples still run: every `diazo …` line of its shell blocks is a command of today's tree
 * with options and arguments it takes (checked by the pipeline validator's command checker).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { commandTree } from "../src/front/describe.ts";
import { checkCommandWords } from "../src/pipeline/command.ts";
import { parseTemplate, splitTemplateWords } from "../src/pipeline/interpolate.ts";
import { captureIo } from "./e2e/capture.ts";

const README = path.resolve(fileURLToPath(new URL("../README.md", import.meta.url)));

/** The `diazo …` command lines of the README's sh blocks, with their line numbers, comments cut. */
export function readmeCommands(text: string): { line: number; command: string }[] {
  const out: { line: number; command: string }[] = [];
  let inSh = false;
  text.split("\n").forEach((raw, i) => {
    if (/^```(sh|bash|console)?\s*$/.test(raw) && !inSh) {
      inSh = raw.trim() !== "```" || false;
      return;
    }
    if (raw.startsWith("```")) {
      inSh = false;
      return;
    }
    if (!inSh) return;
    // A shell comment starts at " #"; `diazo` may stand inside `$(…)`, which then ends the command.
    const m = /(?:^|&&\s*|\$\(\s*)diazo\s+(.*)$/.exec(raw.replace(/\s+#\s.*$/, "").trim());
    if (!m) return;
    let text = m[1];
    const inner = /^(?:[^()]|\([^()]*\))*/.exec(text)?.[0] ?? text;
    if (inner.length < text.length) text = inner;
    // A variable's value stands in for $X and $(…).
    text = text.replace(/\$\([^)]*\)/g, "VALUE").replace(/"?\$\{?\w+\}?"?/g, "VALUE");
    // Only the diazo part of a pipeline, a redirect or a background job; `[…]` marks an optional part of a synopsis.
    const command = text.split(/\s(?:\||>|<|&&|2>)\s|\s&$/)[0].replace(/\s*\[[^\]]*\]/g, "").trim();
    // A synopsis (`diazo <command> …`) or global flags alone are not a command to check.
    if (/<\w+>/.test(command) || command.startsWith("-")) return;
    out.push({ line: i + 1, command });
  });
  return out;
}

Deno.test("README: every `diazo …` example is a command of the tree with options and arguments it takes", async () => {
  const text = await Deno.readTextFile(README);
  const commands = readmeCommands(text);
  assert.ok(commands.length > 100, `found only ${commands.length} examples`);
  const tree = await commandTree(captureIo().io);
  const wrong: string[] = [];
  // The README's plugin and alias examples define these names; a pipeline is checked as a command, not a step.
  const defined = ["hello", "lsb", "up"];
  for (const { line, command } of commands) {
    if (defined.includes(command.split(" ")[0])) continue;
    const { parts } = parseTemplate(command);
    let words;
    try {
      words = splitTemplateWords(parts, `README.md:${line}`);
    } catch (e) {
      wrong.push(`README.md:${line}: ${command}: ${(e as Error).message}`);
      continue;
    }
    for (const p of checkCommandWords(words, tree).problems) {
      if (/pipelines do not nest/.test(p.message)) continue;
      wrong.push(`README.md:${line}: ${command}: ${p.message}`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("README examples: extraction cuts comments, pipes and optional parts; a wrong example is caught", async () => {
  const md = [
    "```sh",
    "diazo bucket list -o json | jq .   # all buckets",
    "URN=$(diazo object urn b k --query urn)",
    "diazo auth inspect-token [--token JWT|-]",
    "diazo <command> --help",
    "```",
    "diazo not-in-a-block",
  ].join("\n");
  assert.deepEqual(readmeCommands(md), [
    { line: 2, command: "bucket list -o json" },
    { line: 3, command: "object urn b k --query urn" },
    { line: 4, command: "auth inspect-token" },
  ]);
  const tree = await commandTree(captureIo().io);
  const words = splitTemplateWords(parseTemplate("bucket lst --regon EMEA").parts, "x");
  assert.ok(checkCommandWords(words, tree).problems.length > 0);
});
