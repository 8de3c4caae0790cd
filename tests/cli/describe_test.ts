/**
 * Every command is declared once: walking the one description of the tree (cli/describe.ts), each
 * command's `--help`, its completions and the pipeline validator list exactly its options; every
 * option declaration written anywhere in src/ is one the tree is built from (a second list would be
 * a declaration the tree never runs); and no module that reads the description (the fast start,
 * completions, pipeline checks, root help, the front door) names a command's flag a second time.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Option } from "@commander-js/extra-typings";
import type { AnyCommand } from "../../src/command/command.ts";
import { completeWords } from "../../src/front/complete_words.ts";
import { describeCommand } from "../../src/front/describe.ts";
import { buildFullProgram } from "../../src/front/root.ts";
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

/** Where each option of the full tree was created: the first frame in src/, and its flags. */
async function optionSites(): Promise<{ flags: string; file: string; line: number }[]> {
  const sites: { flags: string; file: string; line: number }[] = [];
  const proto = Option.prototype as unknown as object;
  const held = new WeakMap<object, string>();
  // commander's Option constructor assigns `this.flags`: an accessor on the prototype sees every
  // option made, by `.option(...)` or `new Option(...)`, with the stack that made it.
  Object.defineProperty(proto, "flags", {
    configurable: true,
    get(this: object) {
      return held.get(this);
    },
    set(this: object, flags: string) {
      held.set(this, flags);
      const frame = (new Error().stack ?? "").split("\n").map((l) =>
        /\((file:\/\/[^)]+):(\d+):\d+\)|at (file:\/\/\S+):(\d+):\d+/.exec(l)
      )
        .find((m) => m && (m[1] ?? m[3]).includes("/src/"));
      if (frame) {
        sites.push({
          flags,
          file: path.relative(SRC, fileURLToPath(frame[1] ?? frame[3])),
          line: Number(frame[2] ?? frame[4]),
        });
      }
    },
  });
  try {
    await buildFullProgram(captureIo().io);
  } finally {
    delete (proto as Record<string, unknown>).flags;
  }
  return sites;
}

/** Every `.ts` file under `dir`, relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return [...Deno.readDirSync(dir)].flatMap((e) =>
    e.isDirectory
      ? sourceFiles(path.join(dir, e.name))
      : e.name.endsWith(".ts")
      ? [path.relative(SRC, path.join(dir, e.name))]
      : []
  );
}

Deno.test("every option declaration written in src/ is one the command tree is built from", async () => {
  const sites = await optionSites();
  assert.ok(sites.length > 300, `only ${sites.length} options seen`);
  const problems: string[] = [];
  const fromCalls = new Set<(typeof sites)[number]>();
  const dataLiterals: { file: string; flags: string }[] = [];
  for (const file of sourceFiles()) {
    // Comments become blank lines of the same count, so that line numbers stay true.
    const text = Deno.readTextFileSync(path.join(SRC, file)).replace(
      /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
      (c) => c.replace(/[^\n]/g, ""),
    );
    const lineOf = (at: number) => text.slice(0, at).split("\n").length;
    // A call that declares an option: `.option("-x, --flag <v>", …)`, `.requiredOption(…)`, `new Option(…)`.
    for (const m of text.matchAll(/(?:\.(?:option|requiredOption)|new Option)\(\s*(["'`])(-[^"'`]*)\1/g)) {
      const line = lineOf(m.index!);
      // The stack names the line of the call; its flags may be wrapped onto the next lines.
      const made = sites.filter((s) =>
        s.file === file && s.flags === m[2] && s.line >= line && s.line <= line + 2
      );
      if (made.length === 0) {
        problems.push(`${file}:${line}: ${m[2]} declared, but no option of the tree is made there`);
      }
      for (const s of made) fromCalls.add(s);
    }
    // An option as data (`{ flags: "--flag <v>", … }`), which a builder turns into options.
    for (const m of text.matchAll(/\bflags:\s*(["'`])(-[^"'`]*)\1/g)) {
      dataLiterals.push({ file, flags: m[2] });
    }
  }
  // Each option written as data is made by a builder for at least as many places as it is written:
  // a second list of data would outnumber the options made from it.
  const fromData = sites.filter((s) => !fromCalls.has(s));
  for (const flags of new Set(dataLiterals.map((d) => d.flags))) {
    const written = dataLiterals.filter((d) => d.flags === flags);
    const made = new Set(fromData.filter((s) => s.flags === flags)).size;
    if (made < written.length) {
      problems.push(
        `${flags}: written as data ${written.length}× (${written.map((d) => d.file)}), made ${made}×`,
      );
    }
  }
  // And every option of the tree is made in the front door's room.
  for (const s of sites) {
    if (!s.file.startsWith("cli/")) problems.push(`${s.file}:${s.line}: makes ${s.flags}`);
  }
  assert.deepEqual([...new Set(problems)], []);
});
