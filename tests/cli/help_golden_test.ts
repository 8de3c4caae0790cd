/**
 * Every command's `--help` and the parser's error wording, held against tests/cli/golden/help.txt: the
 * file lists command lines with what each printed and its exit code, and this test runs each again
 * through `runCli`. `DIAZO_WRITE_GOLDEN=1 deno test -A tests/cli/help_golden_test.ts` rewrites the
 * file from the current program (each command of the registry, then the error cases below).
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/front/root.ts";
import { captureIo } from "../storage/_cli.ts";
import type { CommandDecl } from "../../src/command/decl.ts";

const FILE = new URL("./golden/help.txt", import.meta.url);
const ENV = {
  NO_COLOR: "1",
  DIAZO_NO_UPDATE_CHECK: "1",
  HOME: "/nonexistent-home",
  DIAZO_CONFIG_DIR: "/nonexistent-config",
};

/** Parser errors whose wording people see (unknown option with a suggestion, missing values, choices). */
const ERROR_CASES: readonly string[][] = [
  ["bucket", "create"],
  ["bucket", "create", "--key"],
  ["bucket", "create", "--key", "abc", "--policy", "forever"],
  ["bucket", "list", "--regoin", "US"],
  ["bucket", "info"],
  ["bucket", "info", "a1b", "extra"],
  ["bucket", "lst"],
  ["bucket"],
  ["buckt", "list"],
  ["object", "upload"],
  ["translate", "start", "--formt", "obj"],
  ["help", "nope"],
  ["issue", "list", "--limit", "0"],
  ["config", "profile"],
];

interface Case {
  argv: string[];
  code: number;
  out: string;
  err: string;
}

async function runCase(argv: string[]): Promise<Case> {
  const cap = captureIo();
  const code = await runCli(argv, cap.io, ENV, Deno.cwd());
  return { argv, code, out: cap.out(), err: cap.err() };
}

function render(c: Case): string {
  return `### ${JSON.stringify(c.argv)} -> ${c.code}\n${c.out}--- stderr\n${c.err}`;
}

function parse(text: string): Case[] {
  return text.split(/^### /m).slice(1).map((block) => {
    const nl = block.indexOf("\n");
    const [argv, code] = block.slice(0, nl).split(" -> ");
    const [out, err] = block.slice(nl + 1).split("--- stderr\n");
    return { argv: JSON.parse(argv), code: Number(code), out, err };
  });
}

/** Every command path of the program, from the declarations (src/front/program.ts). */
async function commandPaths(): Promise<string[][]> {
  const { fullProgram } = await import("../../src/front/program.ts");
  const paths: string[][] = [];
  const walk = (cmd: CommandDecl, path: string[]) => {
    for (const sub of cmd.commands ?? []) {
      paths.push([...path, sub.name]);
      walk(sub, [...path, sub.name]);
    }
  };
  walk(await fullProgram(), []);
  return paths;
}

if (Deno.env.get("DIAZO_WRITE_GOLDEN") === "1") {
  const cases: Case[] = [await runCase(["--help"])];
  for (const p of await commandPaths()) cases.push(await runCase([...p, "--help"]));
  for (const argv of ERROR_CASES) cases.push(await runCase(argv));
  await Deno.writeTextFile(FILE, cases.map(render).join(""));
}

Deno.test("golden: every command's --help and the parser's errors print as recorded", async () => {
  const recorded = parse(await Deno.readTextFile(FILE));
  assert.ok(recorded.length > 150, `the golden file lists every command (${recorded.length})`);
  const differ: string[] = [];
  for (const want of recorded) {
    const got = await runCase(want.argv);
    if (render(got) !== render(want)) differ.push(`${render(want)}\n>>> now:\n${render(got)}`);
  }
  assert.deepEqual(differ.slice(0, 3), [], `${differ.length} command lines print differently`);
});
