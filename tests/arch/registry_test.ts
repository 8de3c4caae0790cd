/**
 * The registry of families (src/front/families.ts) walked command by command: each command is declared
 * once, as data (src/command/decl.ts), and its help page, its completions, pipeline step validation and,
 * for a command that is a tool, the tool's input schema (src/mcp/derive.ts) all list exactly the options
 * of that one declaration; no module of src/ imports a command-line library or reads a library's private
 * fields.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import type { ArgumentDecl, CommandDecl, OptionDecl } from "../../src/command/decl.ts";
import { parseFlags } from "../../src/command/global_options.ts";
import { completeWords } from "../../src/front/complete_words.ts";
import { describeCommand } from "../../src/front/describe.ts";
import { FAMILIES } from "../../src/front/families.ts";
import { commandHelp } from "../../src/front/command_help.ts";
import { fullProgram } from "../../src/front/program.ts";
import { checkCommandWords } from "../../src/pipeline/command.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { KERNEL_PARAMS } from "../../src/mcp/derive.ts";

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

/** The tools whose inputs are not one command's arguments and options, each with the reason. */
const HAND_WRITTEN: Record<string, string> = {
  auth_status: "answers which tools work with the login; `auth status` prints the token's scopes",
  auth_login:
    "a device login answered at once and finished by a second call; the command waits at the terminal",
  toolset_enable: "a control of the tool server itself, no command",
  object_upload:
    "one file inside the server's allowed directories; the command takes many files, batches, resume",
  translate_start: "formats as a list with the views; the command also reads presets and workflows",
  translate_status: "waits by wait_seconds; the command waits by the global --wait",
  translate_properties: "pages the objects (limit, cursor); the command's --force-get has no place in a page",
  translate_tree: "pages the objects (limit, cursor); the command's --force-get has no place in a page",
  folder_search: "a search through a folder tree, no command",
  folder_create: "the name's length bound (1-255) is in the schema, which a declaration cannot state",
  item_upload:
    "one file inside the server's allowed directories; the command's --resume and --part-size are its own",
  item_formats: "an item or a version as two properties; the command reads one id of either kind",
  item_download:
    "into a directory the server allows, by item or version id; the command writes to --out or stdout",
  issue_list: "the filters a model uses; the command adds --due-before, --type and --sort",
  issue_create: "the fields in the platform's names, nullable; the command reads flags and --from-file",
  issue_update: "the fields in the platform's names, nullable; the command reads flags and --from-file",
  issue_comment_add: "project and body are required; the command reads the body from stdin or an editor",
  rfi_list: "filters of the record kind, in snake case; the command's flags follow the record table",
  asset_list: "filters of the record kind, in snake case; the command's flags follow the record table",
  submittal_list: "filters of the record kind, in snake case; the command's flags follow the record table",
  checklist_list: "filters of the record kind, in snake case; the command's flags follow the record table",
  admin_account_list: "the account list of the login; the command also takes --region, --as and --user",
  admin_project_list: "filters as enums and lists; the command takes comma lists, --as and --user",
  admin_project_users: "pages the users; the command also takes --as and --user",
  admin_project_user_add: "products and roles as lists; the command takes comma lists, --as and --user",
  da_workitem_run:
    "arguments as objects of file, urn or url, with wait and timeout; the command reads name=value words",
  da_workitem_status: "waits by wait and timeout; the command waits by the global --wait",
  webhook_create: "the scope as an object and no secret; the command reads key=value and a secret from stdin",
  webhook_test: "no secret; the command reads one from stdin",
  reality_create: "formats as a list; the command reads a comma list",
  reality_upload: "files inside the server's allowed directories; the command takes photos and directories",
  reality_status: "waits by wait and timeout; the command waits by the global --wait",
  reality_result:
    "into a directory the server allows, replacing only when told; the command's --out is required",
};

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/-/g, "_").toLowerCase();
}

/** The property an argument becomes: its `toolName`, else its name in snake case. */
function argName(a: ArgumentDecl): string {
  return a.toolName ?? snake(a.spec.replace(/[<>[\]]|\.\.\./g, ""));
}

/** The property an option becomes: its `toolName`, else its long flag (without `--no-`) in snake case. */
function optName(o: OptionDecl): string {
  const f = parseFlags(o.flags);
  return o.toolName ?? snake(f.long.slice(f.negate ? 5 : 2));
}

/** The properties a command's tool must have: its arguments, its options (not `toolHidden`), then `kernel`. */
function expectedProperties(cmd: CommandDecl, kernel: readonly string[]): string[] {
  const opts = (cmd.options ?? [])
    .filter((o) => !o.toolHidden && !(kernel.includes("limit") && parseFlags(o.flags).long === "--limit"));
  return [...(cmd.args ?? []).map(argName), ...opts.map(optName), ...kernel];
}

Deno.test("registry: a command that is a tool is its input: the tool's schema lists exactly its arguments and options", () => {
  // long: one comparison per command that names a tool, and the list of hand-written tools checked both ways
  const derived = new Set<string>();
  for (const chain of commands) {
    const cmd = chain[chain.length - 1];
    if (!cmd.tool) continue;
    const where = `${chain.slice(1).map((c) => c.name).join(" ")} (${cmd.tool})`;
    derived.add(cmd.tool);
    const tool = ALL_TOOLS.find((t) => t.name === cmd.tool);
    assert.ok(tool, `${where}: the tool exists`);
    assert.equal(tool.derivedFrom?.command.tool, cmd.tool, `${where}: its input is derived from the command`);
    const kernel = tool.derivedFrom!.kernel;
    assert.deepEqual(kernel.filter((p) => !(KERNEL_PARAMS as readonly string[]).includes(p)), [], where);
    const schema = z.toJSONSchema(tool.input, { io: "input" }) as {
      properties: Record<string, { enum?: string[]; description?: string }>;
      required?: string[];
    };
    assert.deepEqual(Object.keys(schema.properties), expectedProperties(cmd, kernel), `${where}: properties`);
    const required = [
      ...(cmd.args ?? []).filter((a) => a.spec.startsWith("<")).map(argName),
      ...(cmd.options ?? []).filter((o) => o.required && !o.toolHidden).map(optName),
    ];
    assert.deepEqual([...(schema.required ?? [])].sort(), required.sort(), `${where}: required`);
    for (const o of cmd.options ?? []) {
      if (!o.choices || o.toolHidden) continue;
      const name = optName(o);
      for (const c of o.choices) {
        assert.ok(schema.properties[name].enum?.includes(c), `${where}: ${name} offers ${c}`);
      }
    }
    for (const [name, p] of Object.entries(schema.properties)) {
      assert.ok(p.description && p.description.length > 3, `${where}: ${name} is described`);
    }
  }
  for (const t of ALL_TOOLS) {
    if (derived.has(t.name)) {
      assert.ok(!(t.name in HAND_WRITTEN), `${t.name} is derived and listed as hand-written`);
    } else {
      assert.ok(
        t.name in HAND_WRITTEN,
        `${t.name}: neither derived from a command nor listed as hand-written`,
      );
      assert.equal(t.derivedFrom, undefined, `${t.name}: derived from a command that does not name it`);
    }
  }
  const names = ALL_TOOLS.map((t) => t.name);
  assert.deepEqual(
    Object.keys(HAND_WRITTEN).filter((n) => !names.includes(n)),
    [],
    "listed tools that exist",
  );
  assert.ok(derived.size >= 25, `tools derived from commands (${derived.size})`);
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
