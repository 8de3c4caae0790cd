/**
 * Help: every command's help shows the program's flags as inherited, lists the options it mentions and
 * has an example; the help topics exist, and `help environment` names every variable src/ reads.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandDecl } from "../../src/command/decl.ts";
import { ENVIRONMENT } from "../../src/front/help_topics.ts";
import { fullProgram } from "../../src/front/program.ts";
import { runCli } from "../../src/front/root.ts";
import { helpOf } from "../../src/front/run_line.ts";
import { captureIo } from "../e2e/capture.ts";

const SRC = path.resolve(fileURLToPath(new URL("../../src/", import.meta.url)));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cap = captureIo();
  const code = await runCli(args, cap.io, { NO_COLOR: "1" }, Deno.cwd());
  return { code, stdout: cap.stdout(), stderr: cap.stderr() };
}

/** Every command with its chain of declarations (the program first). */
function commandsOf(chain: CommandDecl[]): CommandDecl[][] {
  const cmd = chain[chain.length - 1];
  return [chain, ...(cmd.commands ?? []).flatMap((c) => commandsOf([...chain, c]))];
}

Deno.test("bucket list --help shows --output, --query, --profile and --debug as inherited flags", async () => {
  const r = await run(["bucket", "list", "--help"]);
  assert.equal(r.code, 0, r.stderr);
  const inherited = r.stdout.split("\nInherited flags:\n")[1]?.split("\n\n")[0];
  assert.ok(inherited, r.stdout);
  for (const flag of ["-o, --output <format>", "--query <jmespath>", "--profile <name>", "--debug"]) {
    assert.match(inherited, new RegExp(`^  ${flag.replace(/[-<>]/g, "\\$&")} `, "m"), flag);
  }
  assert.doesNotMatch(inherited, /--version/, "--version is the program's own");
  assert.match(
    r.stdout.split("\nInherited flags:\n")[0],
    /^ {2}--region <region>/m,
    "its own options come first",
  );
});

Deno.test("diazo bucket --help: its subcommands within the first 15 lines, inherited flags after them", async () => {
  const r = await run(["bucket", "--help"]);
  assert.equal(r.code, 0, r.stderr);
  const first = r.stdout.split("\n").slice(0, 15).join("\n");
  for (const sub of ["list|ls", "create", "info|get", "delete|rm"]) {
    assert.match(first, new RegExp(`^ {2}${sub.replace("|", "\\|")} `, "m"), `${sub} in the first 15 lines`);
  }
  const order = ["Usage:", "\nOptions:\n", "\nCommands:\n", "\nInherited flags:\n", "\nExamples:\n"]
    .map((h) => r.stdout.indexOf(h));
  assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), `sections in order: ${order}`);
});

Deno.test("every command's help has an example, shows inherited flags and lists each option its text names", async () => {
  const problems: string[] = [];
  for (const chain of commandsOf([await fullProgram()])) {
    const cmd = chain[chain.length - 1];
    const path = chain.slice(1).map((c) => c.name);
    const name = ["diazo", ...path].join(" ");
    const help = await helpOf(chain, 80);
    if (!/\nExamples:\n {2}\$ .*\bdiazo /.test(help)) problems.push(`${name}: no example`);
    if (path.length > 0 && !help.includes("\nInherited flags:\n")) {
      problems.push(`${name}: no inherited flags`);
    }
    // The options its own description names must be in its help (own or inherited).
    const listed = new Set([...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]));
    const text = cmd.description.replace(/`[^`]*`/g, "");
    for (const [flag] of text.matchAll(/--[a-z][\w-]*/g)) {
      if (!listed.has(flag) && !listed.has(flag.replace(/^--no-/, "--"))) {
        problems.push(`${name}: mentions ${flag} without listing it`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("translate start --help lists --wait (which its text mentions)", async () => {
  const r = await run(["translate", "start", "--help"]);
  assert.match(r.stdout, /Inherited flags:\n(?: {2}.*\n)*? {2}--wait /);
});

/** Every environment variable a module of src/ reads, by the ways the code reads them. */
async function variablesReadInSrc(): Promise<Set<string>> {
  const NAME = "[A-Z][A-Z0-9_]*";
  const reads = [
    new RegExp(`\\benv\\??\\.(${NAME})\\b(?!\\s*=[^=])`, "g"), // env.X (not env.X = ...)
    new RegExp(`\\benv\\[\\s*"(${NAME})"\\s*\\]`, "g"), // env["X"]
    new RegExp(`\\benv\\(\\s*"(${NAME})"\\s*\\)`, "g"), // env("X") of a getter
    new RegExp(`Deno\\.env\\.get\\(\\s*"(${NAME})"`, "g"),
    new RegExp(`"(${NAME})"\\s+in\\s+env\\b`, "g"),
    new RegExp(`envNumber\\([^,]+,\\s*"(${NAME})"`, "g"),
    /"((?:DIAZO|SVC|APS|FORGE)_[A-Z0-9_]+)"/g, // names kept in constants or lists
  ];
  // A list of names looked up one by one (`for (const name of ["CI", ...])`, `[...].some((n) => env[n])`).
  const list = /\[\s*((?:"[A-Za-z][A-Za-z0-9_]*",?\s*){2,})\]/g;
  const found = new Set<string>();
  for await (const file of walk(SRC)) {
    if (file.includes(`${path.sep}sandbox${path.sep}`)) continue; // the emulator, not diazo's settings
    const text = await Deno.readTextFile(file);
    for (const re of reads) for (const m of text.matchAll(re)) found.add(m[1]);
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      if (!/\benv\b/.test(lines.slice(Math.max(0, i - 1), i + 2).join(" "))) return;
      for (const m of line.matchAll(list)) {
        for (const [, n] of m[1].matchAll(/"([A-Z][A-Z0-9_]*)"/g)) found.add(n);
      }
    });
  }
  return found;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory) yield* walk(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** What diazo writes for the programs it starts (it never reads them). */
const SET_FOR_CHILDREN = ["DIAZO_BIN", "DIAZO_HOOK_STATUS", "DIAZO_EXIT_CODE", "DIAZO_RESULT_JSON"];

Deno.test("help environment lists exactly the environment variables src/ reads", async () => {
  const read = await variablesReadInSrc();
  for (const n of SET_FOR_CHILDREN) read.delete(n);
  read.delete("DIAZO_FAIL"); // the sandbox's failure marker in a work item's input, not a variable
  const listed = new Set(ENVIRONMENT.flatMap((v) => v.names));
  assert.deepEqual([...read].filter((n) => !listed.has(n)).sort(), [], "read but not in help environment");
  assert.deepEqual([...listed].filter((n) => !read.has(n)).sort(), [], "in help environment but never read");
  const r = await run(["help", "environment"]);
  assert.equal(r.code, 0, r.stderr);
  for (const n of listed) assert.match(r.stdout, new RegExp(`^ {2}(.*, )?${n}(,|$)`, "m"), n);
  assert.match(r.stdout, /DIAZO_BASE_URL\n.*\n {6}default: https:\/\/developer\.api\.autodesk\.com\n/);
});

Deno.test("help exit-codes lists 0-6, 130 and 141; formatting and config exist; --help lists the topics", async () => {
  const codes = await run(["help", "exit-codes"]);
  assert.equal(codes.code, 0, codes.stderr);
  const listed = [...codes.stdout.matchAll(/^ {2}(\d+) {2,}\S/gm)].map((m) => Number(m[1]));
  assert.deepEqual(listed, [0, 1, 2, 3, 4, 5, 6, 130, 141]);
  const formatting = await run(["help", "formatting"]);
  assert.match(formatting.stdout, /json, yaml, table, csv/);
  assert.match(formatting.stdout, /--query <jmespath>/);
  const config = await run(["help", "config"]);
  assert.match(config.stdout, /config\.json/);
  assert.match(config.stdout, /^ {2}max_retry_after {2}60$/m);
  const root = await run(["--help"]);
  for (const topic of ["environment", "exit-codes", "formatting", "config"]) {
    assert.match(root.stdout, new RegExp(`^ {2}${topic} +\\S`, "m"), topic);
  }
  const unknown = await run(["help", "nosuch"]);
  assert.equal(unknown.code, 2);
  const typo = await run(["help", "enviroment"]);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /^hint: Did you mean 'environment'\?/m);
});
