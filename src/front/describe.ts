/**
 * The command tree as plain data for pipeline step validation (pipeline/command.ts) and shell
 * completion (complete_words.ts), read from the declarations (command/decl.ts) — the same ones the
 * parser and every help page read.
 */
import type { CommandDecl } from "../command/decl.ts";
import type { CommandSpec, OptionSpec } from "../pipeline/command.ts";
import { HELP_FLAGS, OUTPUT_FLAGS, parseFlags } from "../command/global_options.ts";
import type { Io } from "../command/io.ts";
import { argumentName } from "./help.ts";
import { fullProgram } from "./program.ts";

const HELP: OptionSpec = {
  long: "--help",
  short: "-h",
  takesValue: false,
  description: HELP_FLAGS.description,
};

/** Describes a declared command and its subcommands as plain data. */
export function describeCommand(cmd: CommandDecl): CommandSpec {
  const options: OptionSpec[] = (cmd.options ?? []).map((o) => {
    const f = parseFlags(o.flags);
    const optional = o.flags.includes("[");
    return {
      long: f.long,
      ...(f.short ? { short: f.short } : {}),
      takesValue: f.takesValue || optional,
      optionalValue: optional,
      // A hub or project option may take its default when the command runs (front/names.ts).
      mandatory: o.required === true && o.default === undefined && o.names === undefined,
      ...(o.choices ? { choices: o.choices } : {}),
      // -o takes any word in the parser only so that the run can name --out (front/program.ts); the run
      // takes only a format (front/run_line.ts), so a step is held to the formats.
      ...(o.lenientChoices && o.flags !== OUTPUT_FLAGS ? { lenientChoices: true } : {}),
      description: o.description,
      ...(o.hidden ? { hidden: true } : {}),
      ...(o.complete ? { complete: o.complete } : {}),
    };
  });
  return {
    name: cmd.name,
    aliases: [...(cmd.aliases ?? [])],
    description: cmd.description.split("\n")[0],
    ...(cmd.hidden ? { hidden: true } : {}),
    options: [...options, HELP],
    arguments: (cmd.args ?? []).map((a) => ({
      name: argumentName(a),
      required: a.spec.startsWith("<"),
      variadic: a.spec.includes("..."),
      ...(a.choices ? { choices: a.choices } : {}),
      ...(a.complete ? { complete: a.complete } : {}),
    })),
    subcommands: (cmd.commands ?? []).map(describeCommand),
    allowUnknownOptions: cmd.passThrough === true,
    allowExcessArguments: cmd.passThrough === true,
  };
}

/** The whole diazo command tree, described. */
export async function commandTree(_io?: Io): Promise<CommandSpec> {
  return describeCommand(await fullProgram());
}
