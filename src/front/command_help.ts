/**
 * The help of a command, drawn from its declaration (command/decl.ts) in the layout of help.ts, ordered
 * as gh orders its own: usage, description, arguments, options, commands, inherited flags (last: the
 * same on every page), examples. Loaded only when a command's help is printed (front/run_line.ts).
 */
import type { ArgumentDecl, CommandDecl, OptionDecl } from "../command/decl.ts";
import { HELP_FLAGS } from "../command/global_options.ts";
import { argumentName, argumentUsage, boxWrap, hasHelpCommand, helpItem, usageLine } from "./help.ts";

/** A help line with its choices and default (`showDefault`: whether the default is worth showing). */
function withChoices(
  description: string,
  choices: readonly string[] | undefined,
  value: unknown,
  showDefault: boolean,
): string {
  const extra: string[] = [];
  if (choices) extra.push(`choices: ${choices.map((c) => JSON.stringify(c)).join(", ")}`);
  if (value !== undefined && showDefault) extra.push(`default: ${JSON.stringify(value)}`);
  if (extra.length === 0) return description;
  return description ? `${description} (${extra.join(", ")})` : `(${extra.join(", ")})`;
}

/** An option's help line with its choices and default (a flag's default only when boolean). */
export function optionText(o: OptionDecl): string {
  const takesValue = o.flags.includes("<") || o.flags.includes("[");
  return withChoices(o.description, o.choices, o.default, takesValue || typeof o.default === "boolean");
}

function argumentText(a: ArgumentDecl): string {
  return withChoices(a.description, a.choices, a.default, true);
}

/** A subcommand's term in its parent's list: `name|alias [options] <args>`. */
function subcommandTerm(c: CommandDecl): string {
  const args = (c.args ?? []).map(argumentUsage).join(" ");
  return c.name + (c.aliases?.[0] ? "|" + c.aliases[0] : "") +
    ((c.options ?? []).length ? " [options]" : "") +
    (args ? " " + args : "");
}

/**
 * The help of the command at the end of `chain` (the program first), `helpWidth` columns wide: the
 * ancestors' options (the program's globals without -V) are listed as "Inherited flags:".
 */
export function commandHelp(chain: readonly CommandDecl[], helpWidth = 80): string {
  // long: the sections of a help page in their order, each a list of padded items
  const cmd = chain[chain.length - 1];
  const visible = (os: readonly OptionDecl[] | undefined) => (os ?? []).filter((o) => !o.hidden);
  const options = [...visible(cmd.options), { flags: HELP_FLAGS.flags, description: HELP_FLAGS.description }];
  const inherited = chain.slice(0, -1).reverse().flatMap((c) => visible(c.options))
    .filter((o) => !o.flags.includes("--version"));
  const args = (cmd.args ?? []).some((a) => a.description) ? cmd.args ?? [] : [];
  const subs = (cmd.commands ?? []).filter((c) => !c.hidden);
  const subItems = subs.map((c) => ({ term: subcommandTerm(c), text: c.description }));
  if (hasHelpCommand(cmd)) subItems.push({ term: "help [command]", text: "display help for command" });
  const termWidth = Math.max(
    0,
    ...options.map((o) => o.flags.length),
    ...inherited.map((o) => o.flags.length),
    ...subItems.map((s) => s.term.length),
    ...args.map((a) => argumentName(a).length),
  );
  const out = [usageLine(chain), ""];
  if (cmd.description) out.push(boxWrap(cmd.description, helpWidth), "");
  const section = (title: string, items: string[]) => {
    if (items.length > 0) out.push(title, ...items, "");
  };
  section("Arguments:", args.map((a) => helpItem(argumentName(a), termWidth, argumentText(a), helpWidth)));
  section("Options:", options.map((o) => helpItem(o.flags, termWidth, optionText(o), helpWidth)));
  section("Commands:", subItems.map((s) => helpItem(s.term, termWidth, s.text, helpWidth)));
  section("Inherited flags:", inherited.map((o) => helpItem(o.flags, termWidth, optionText(o), helpWidth)));
  let text = out.join("\n");
  if (cmd.helpText) text += cmd.helpText + "\n";
  if (cmd.examples?.length) text += "\nExamples:\n" + cmd.examples.map((l) => `  $ ${l}`).join("\n") + "\n\n";
  return text;
}
