/** parseFlags (src/command/global_options.ts) reads a flags string: names, value, key. */
import assert from "node:assert/strict";
import { GLOBAL_OPTIONS, parseFlags } from "../../src/command/global_options.ts";
import type { CommandDecl } from "../../src/command/decl.ts";
import { fullProgram } from "../../src/front/program.ts";

/** Every flags string the program declares. */
function flagsOf(cmd: CommandDecl): string[] {
  return [...(cmd.options ?? []).map((o) => o.flags), ...(cmd.commands ?? []).flatMap(flagsOf)];
}

/** The same reading by regular expressions (of a flags string with at most one long flag). */
function byRegex(flags: string) {
  const words = flags.split(/[ ,|]+/).filter(Boolean);
  const short = words.find((w) => /^-[^-]$/.test(w));
  const long = words.find((w) => w.startsWith("--"))!;
  const negate = long.startsWith("--no-");
  const name = negate ? long.slice(5) : long.slice(2);
  return {
    ...(short ? { short } : {}),
    long,
    takesValue: words.some((w) => w.startsWith("<")),
    key: name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
    negate,
  };
}

Deno.test("parseFlags reads every declared flags string and odd ones as the regular expressions do", async () => {
  const declared = [...GLOBAL_OPTIONS.map((o) => o.flags), ...flagsOf(await fullProgram())]
    .filter((f) => (f.match(/--/g) ?? []).length === 1);
  assert.ok(declared.length > 300, `${declared.length} declared flags strings`);
  const odd = [
    "-o, --output <format>",
    "--no-color",
    "--no-hooks",
    "-v|--verbose",
    "--opt [value]",
    "--a-b-c <x>",
    "--x-1",
    "--with-Upper",
    "--trailing-",
    "--double--dash",
    "  -q ,  --quiet  ",
    "--no-",
    "-ab, --long",
  ];
  for (const flags of [...declared, ...odd]) assert.deepEqual(parseFlags(flags), byRegex(flags), flags);
  assert.deepEqual(parseFlags("--non-interactive"), {
    long: "--non-interactive",
    takesValue: false,
    key: "nonInteractive",
    negate: false,
  });
});

Deno.test("parseFlags reads two long flags: the first is the other spelling, the second names the key", () => {
  assert.deepEqual(parseFlags("--due-date, --due <date>"), {
    short: "--due-date",
    long: "--due",
    takesValue: true,
    key: "due",
    negate: false,
  });
  assert.deepEqual(parseFlags("--assigned-to, --assignee <id>").key, "assignee");
  assert.deepEqual(parseFlags("--start-date, --start <date>").short, "--start-date");
});
