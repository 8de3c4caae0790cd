/**
 * The registry of families (src/front/families.ts) walked command by command: each command is declared
 * once, as data (src/command/decl.ts), and its help page, its completions and pipeline step validation
 * all list exactly the options of that one declaration; no module of src/ imports a command-line
 * library or reads a library's private fields.
 */
import assert from "node:assert/strict";
import type { CommandDecl } from "../../src/command/decl.ts";
import { parseFlags } from "../../src/command/global_options.ts";
import { completeWords } from "../../src/front/complete_words.ts";
import { describeCommand } from "../../src/front/describe.ts";
import { FAMILIES } from "../../src/front/families.ts";
import { commandHelp } from "../../src/front/help.ts";
import { fullProgram } from "../../src/front/program.ts";
import { checkCommandWords } from "../../src/pipeline/command.ts";

/** Every command of the program with its chain of declarations (the program first). */
function walk(chain: CommandDecl[], out: CommandDecl[][] = []): CommandDecl[][] {
  for (const sub of chain[chain.length - 1].commands ?? []) {
    out.push([...chain, sub]);
    walk([...chain, sub], out);
  }
  return out;
}

const program: CommandDecl = await fullProgram();
const commands = walk([program]);

Deno.test("registry: every family of the registry is declared as data, under its own name", () => {
  assert.equal(program.commands?.length, FAMILIES.length);
  for (const [i, f] of FAMILIES.entries()) {
    const decl: CommandDecl = program.commands![i];
    assert.equal(decl.name, f.name);
    assert.deepEqual([...(decl.aliases ?? [])], f.aliases ?? [], f.name);
    assert.ok(decl.commands?.length || decl.run, `${f.name} runs or has commands`);
  }
  assert.ok(commands.length > 150, `the walk reached every command (${commands.length})`);
});

Deno.test("registry: each command's help, completions and pipeline validation list exactly its declared options", () => {
  // long: three readers of one declaration, each compared with it for every command of the program
  const tree = describeCommand(program);
  for (const chain of commands) {
    const cmd = chain[chain.length - 1];
    const words = chain.slice(1).map((c) => c.name);
    const visible = (cmd.options ?? []).filter((o) => !o.hidden).map((o) => o.flags);
    // Help: the Options section is the visible options and -h.
    const help = commandHelp(chain);
    const section = help.split("\nOptions:\n")[1].split("\n\n")[0];
    const listed = section.split("\n").filter((l) => /^ {2}-/.test(l)).map((l) => l.trim().split(/ {2,}/)[0]);
    assert.deepEqual(listed, [...visible, "-h, --help"], `help of ${words.join(" ")}`);
    // Completion: after the command's words, `--` offers its visible long flags (and the inherited).
    if (!cmd.commands?.length) {
      const offered = new Set(completeWords(tree, [...words, "--"]).map((c) => c.value));
      for (const o of visible) {
        assert.ok(offered.has(parseFlags(o).long), `${words.join(" ")} completes ${o}`);
      }
      for (const o of (cmd.options ?? []).filter((o) => o.hidden)) {
        assert.ok(!offered.has(parseFlags(o.flags).long), `${words.join(" ")} hides ${o.flags}`);
      }
    }
    // Pipeline validation: each declared long flag is known; an undeclared one is refused.
    if (cmd.run && !cmd.passThrough) {
      const problems = (flag: string) =>
        checkCommandWords(
          [...words, flag].map((text) => ({ parts: [], literal: text, offset: 0, length: text.length })),
          tree,
        ).problems.map((p) => p.message);
      for (const o of cmd.options ?? []) {
        const f = parseFlags(o.flags);
        if (f.takesValue) continue;
        const unknown = problems(f.long).filter((m) => /unknown option/.test(m));
        assert.deepEqual(unknown, [], `${words.join(" ")} ${f.long}`);
      }
      assert.notDeepEqual(
        problems("--no-such-flag-anywhere"),
        [],
        `${words.join(" ")} refuses an undeclared flag`,
      );
    }
  }
});

Deno.test("registry: no module of src/ imports a command-line library or reads a library's private fields", async () => {
  const offenders: string[] = [];
  const visit = async (dir: URL) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await visit(new URL(`${e.name}/`, dir));
      else if (e.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(new URL(e.name, dir));
        if (/from\s+["'](commander|@commander-js\/[^"']+)["']|import\(["']commander/.test(text)) {
          offenders.push(`${e.name}: imports commander`);
        }
        if (
          /\._(hidden|allowUnknownOption|allowExcessArguments|aliases|name)\b|registeredArguments/.test(text)
        ) {
          offenders.push(`${e.name}: reads private fields`);
        }
      }
    }
  };
  await visit(new URL("../../src/", import.meta.url));
  assert.deepEqual(offenders, []);
});
