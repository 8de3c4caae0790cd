/**
 * The command tree as plain data, described once from commander's tree: pipeline step validation
 * (pipeline/command.ts) and shell completion (complete_words.ts) both read this description, and
 * tests/cli/describe_test.ts checks it against each command's help.
 */
import type { Argument, Option } from "@commander-js/extra-typings";
import type { CommandSpec, OptionSpec } from "../pipeline/command.ts";
import type { AnyCommand } from "../command/command.ts";
import { HELP_FLAGS } from "../command/global_options.ts";
import type { Io } from "../command/io.ts";

/** The parts of a commander command the description reads (some are not in its public types). */
interface CommanderInternals {
  options: readonly Option[];
  registeredArguments: readonly Argument[];
  commands: readonly AnyCommand[];
  _hidden?: boolean;
  _allowUnknownOption?: boolean;
  _allowExcessArguments?: boolean;
}

const HELP: OptionSpec = {
  long: "--help",
  short: "-h",
  takesValue: false,
  description: HELP_FLAGS.description,
};

/** Describes a commander command and its subcommands as plain data. */
export function describeCommand(cmd: AnyCommand): CommandSpec {
  const c = cmd as unknown as CommanderInternals;
  const options: OptionSpec[] = c.options.map((o) => ({
    long: o.long,
    short: o.short,
    takesValue: o.required || o.optional,
    optionalValue: o.optional,
    mandatory: o.mandatory && o.defaultValue === undefined,
    ...(o.argChoices ? { choices: o.argChoices } : {}),
    description: o.description,
    ...(o.hidden ? { hidden: true } : {}),
  }));
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: cmd.summary() || cmd.description().split("\n")[0],
    ...(c._hidden ? { hidden: true } : {}),
    options: [...options, HELP],
    arguments: c.registeredArguments.map((a) => ({
      name: a.name(),
      required: a.required,
      variadic: a.variadic,
      ...(a.argChoices ? { choices: a.argChoices } : {}),
    })),
    subcommands: c.commands.map(describeCommand),
    allowUnknownOptions: c._allowUnknownOption === true,
    allowExcessArguments: c._allowExcessArguments === true,
  };
}

/** The whole diazo command tree, described. */
export async function commandTree(io: Io): Promise<CommandSpec> {
  const { buildFullProgram } = await import("./root.ts");
  return describeCommand(await buildFullProgram(io));
}
