/**
 * Every command is declared once: walking the one description of the tree (cli/describe.ts), each
 * command's `--help`, its completions and the pipeline validator list exactly its options; and no
 * module that reads the description (the fast start, completions, pipeline checks, root help, the
 * front door) declares a command's flag a second time.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AnyCommand } from "../../src/cli/command.ts";
import { completeWords } from "../../src/cli/complete_words.ts";
import { describeCommand } from "../../src/cli/describe.ts";
import { buildFullProgram } from "../../src/cli/root.ts";
import { checkCommandWords, type CommandSpec, type OptionSpec } from "../../src/pipeline/command.ts";
import { parseTemplate, splitTemplateWords } from "../../src/pipeline/interpolate.ts";
import { captureIo } from "../e2e/capture.ts";

const SRC = path.resolve(fileURLToPath(new URL("../../src/", import.meta.url)));

interface Walked {
  spec: CommandSpec;
  cmd: AnyCommand;
  path: string[];
  /** The options in effect: its own and, from its ancestors, all but their --help and --version. */
  inEffect: OptionSpec[];
}

function walk(spec: CommandSpec, cmd: AnyCommand, path: string[], inherited: OptionSpec[]): Walked[] {
  const inEffect = [...spec.options, ...inherited];
  const passed = [
    ...spec.options.filter((o) => o.long !== "--help" && o.long !== "--version"),
    ...inherited,
  ];
  return [
    { spec, cmd, path, inEffect },
    ...spec.subcommands.map((s, i) =>
      walk(s, cmd.commands[i] as AnyCommand, [...path, s.name], path.length === 0 ? passed : passed)
    ).flat(),
  ];
}

/** Every name of the visible options (short and long; some have two long ones), sorted. */
const names = (options: readonly OptionSpec[]) =>
  [...new Set(options.filter((o) => !o.hidden).flatMap((o) => [o.short, o.long]))]
    .filter((f): f is string => f !== undefined).sort();

async function tree(): Promise<Walked[]> {
  const program = await buildFullProgram(captureIo().io);
  return walk(describeCommand(program), program, [], []);
}

Deno.test("each command's --help lists exactly the options of its description (own and inherited)", async () => {
  const problems: string[] = [];
  for (const { cmd, path, inEffect, spec } of await tree()) {
    const help = cmd.helpInformation();
    // An option's line: "  -o, --output <format>  description"; its names are in the term.
    const shown = [...help.matchAll(/^ {2}(-[^ ].*?)(?: {2}|$)/gm)]
      .flatMap((m) => [...m[1].matchAll(/(?:^|, )(--?[\w-]+)/g)].map((n) => n[1]));
    // The root's own help shows its own options; a command's, its own and what it inherits.
    const expected = path.length === 0 ? names(spec.options) : names(inEffect);
    const got = [...new Set(shown)].sort();
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      problems.push(`diazo ${path.join(" ")}: help ${got.join(" ")} != description ${expected.join(" ")}`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("completion offers exactly the flags of the description at each command", async () => {
  const walked = await tree();
  const root = walked[0].spec;
  const problems: string[] = [];
  for (const { path, inEffect } of walked) {
    const offered = completeWords(root, [...path, "-"]).map((c) => c.value).sort();
    const expected = [
      ...new Set(inEffect.filter((o) => !o.hidden).flatMap((o) => [o.short, o.long])),
    ].filter((f): f is string => f !== undefined).sort();
    if (JSON.stringify(offered) !== JSON.stringify(expected)) {
      problems.push(`diazo ${path.join(" ")}: completes ${offered.join(" ")} != ${expected.join(" ")}`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the pipeline validator knows exactly the options of the description at each leaf", async () => {
  const walked = await tree();
  const root = walked[0].spec;
  const problems: string[] = [];
  const words = (line: string) => splitTemplateWords(parseTemplate(line).parts, "test");
  for (const { path, inEffect, spec } of walked) {
    if (path.length === 0 || spec.subcommands.length > 0 || path[0] === "pipeline") continue;
    for (const o of inEffect) {
      const flag = o.long ?? o.short!;
      const line = [...path, o.takesValue ? `${flag}=${o.choices?.[0] ?? "x"}` : flag].join(" ");
      const unknown = checkCommandWords(words(line), root).problems.filter((p) =>
        /unknown option/.test(p.message)
      );
      if (unknown.length) problems.push(`${line}: ${unknown[0].message}`);
    }
    if (!spec.allowUnknownOptions) {
      const made = checkCommandWords(words([...path, "--not-an-option-of-it"].join(" ")), root).problems;
      if (!made.some((p) => /unknown option '--not-an-option-of-it'/.test(p.message))) {
        problems.push(`${path.join(" ")}: an unknown option passes`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

/** The modules that read the command description (or parse argv before it) and must declare no flag. */
const READERS = [
  "cli/hot.ts",
  "cli/hot_run.ts",
  "cli/hot_actions.ts",
  "cli/complete_words.ts",
  "cli/completions.ts",
  "cli/describe.ts",
  "cli/pipeline_steps.ts",
  "pipeline/command.ts",
  "cli/root_help.ts",
  "cli/argv.ts",
];

Deno.test("no module that reads the description declares a command's flag a second time", async () => {
  const walked = await tree();
  const flags = new Set(
    // --help and --version are commander's own, which the readers may name.
    walked.flatMap((w) => w.spec.options).filter((o) => o.long !== "--help" && o.long !== "--version")
      .flatMap((o) => [o.long, o.short])
      .filter((f): f is string => f !== undefined && f.length > 2),
  );
  const found: string[] = [];
  for (const module of READERS) {
    // Comments may name flags; code that declares one writes it in a string.
    const text = (await Deno.readTextFile(path.join(SRC, module))).replace(
      /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
      "",
    );
    // A flag as a declaration writes it: "--flag", "--flag <value>", "-x, --flag ...".
    for (const m of text.matchAll(/["'`](?:-\w, )?(--[a-z][\w-]*)(?: [<[][^"'`]*)?["'`]/g)) {
      if (flags.has(m[1])) found.push(`${module}: ${m[0]}`);
    }
  }
  assert.deepEqual(found, []);
});
