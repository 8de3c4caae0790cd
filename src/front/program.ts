/**
 * The program as data: its global options (command/global_options.ts) and its families
 * (families.ts), each a stub with its summary until its module is loaded — a command line loads only
 * the family its first word names.
 */
import type { CommandDecl, OptionDecl } from "../command/decl.ts";
import {
  GLOBAL_OPTIONS,
  OUTPUT_FLAGS,
  PROGRAM_DESCRIPTION,
  VERSION_FLAGS,
} from "../command/global_options.ts";
import { FAMILIES, type Family } from "./families.ts";

/** The program's options: the globals, then -V. */
export const PROGRAM_OPTIONS: readonly OptionDecl[] = [
  ...GLOBAL_OPTIONS.map((o): OptionDecl => ({
    flags: o.flags,
    description: o.description,
    ...(o.choices ? { choices: o.choices } : {}),
    ...(o.parse ? { parse: o.parse } : {}),
    ...(o.complete ? { complete: o.complete } : {}),
    // -o takes any word here: the run reports a non-format with the command in view.
    ...(o.flags === OUTPUT_FLAGS ? { lenientChoices: true } : {}),
  })),
  { flags: VERSION_FLAGS.flags, description: VERSION_FLAGS.description },
];

/** The family `word` names (by name or alias), if any. */
export function familyOf(word: string | undefined): Family | undefined {
  return word === undefined ? undefined : FAMILIES.find((f) => f.name === word || f.aliases?.includes(word));
}

/** A family's stand-in before its module is loaded: its words and summary. */
function stub(f: Family): CommandDecl {
  return { name: f.name, ...(f.aliases ? { aliases: f.aliases } : {}), description: f.summary };
}

/** The program with `loaded` families declared in full and the others as stubs. */
export function programDecl(loaded: ReadonlyMap<Family, CommandDecl> = new Map()): CommandDecl {
  return {
    name: "diazo",
    description: PROGRAM_DESCRIPTION,
    options: PROGRAM_OPTIONS,
    commands: FAMILIES.map((f) => loaded.get(f) ?? stub(f)),
  };
}

/** The program with the family `word` names loaded (the others stubs). */
export async function programFor(word: string | undefined): Promise<CommandDecl> {
  const family = familyOf(word);
  return programDecl(family ? new Map([[family, await family.load()]]) : undefined);
}

/** The program with every family loaded: for help pages, completion and pipeline validation, never a run. */
export async function fullProgram(): Promise<CommandDecl> {
  const loaded = new Map<Family, CommandDecl>();
  for (const f of FAMILIES) loaded.set(f, await f.load());
  return programDecl(loaded);
}
