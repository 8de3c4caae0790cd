/** The pipeline tests' small command tree, shaped like diazo's, and validation against it. */
import type { CommandSpec } from "../../src/pipeline/pipeline.ts";
import { validatePipelineText } from "../../src/pipeline/validate.ts";

const HELP = { long: "--help", short: "-h", takesValue: false };

/** A command of the tree, with --help as every command has. */
export function cmd(name: string, over: Partial<CommandSpec> = {}): CommandSpec {
  return {
    name,
    aliases: [],
    arguments: [],
    subcommands: [],
    allowUnknownOptions: false,
    allowExcessArguments: false,
    ...over,
    options: [...(over.options ?? []), HELP],
  };
}
const arg = (name: string, required = true, variadic = false) => ({ name, required, variadic });

/** A small command tree shaped like diazo's. */
export const TREE = cmd("diazo", {
  options: [
    { long: "--output", short: "-o", takesValue: true },
    { long: "--profile", takesValue: true },
    { long: "--debug", takesValue: false },
    { long: "--yes", short: "-y", takesValue: false },
    { long: "--wait", takesValue: false },
  ],
  subcommands: [
    cmd("bucket", {
      subcommands: [
        cmd("create", { options: [{ long: "--key", short: "-k", takesValue: true, mandatory: true }] }),
        cmd("list", { aliases: ["ls"] }),
      ],
    }),
    cmd("object", {
      subcommands: [
        cmd("upload", {
          arguments: [arg("bucketKey"), arg("files", true, true)],
          options: [{ long: "--key", short: "-k", takesValue: true }, { long: "--batch", takesValue: false }],
        }),
      ],
    }),
    cmd("translate", {
      arguments: [arg("urn", false)],
      allowUnknownOptions: true,
      allowExcessArguments: true,
      subcommands: [
        cmd("start", {
          arguments: [arg("urn")],
          options: [{ long: "--format", short: "-f", takesValue: true }, {
            long: "--force",
            takesValue: false,
          }],
        }),
        cmd("status", { arguments: [arg("urn")] }),
      ],
    }),
    cmd("pipeline", { subcommands: [cmd("run", { arguments: [arg("file")] })] }),
  ],
});

/** Validates pipeline text against TREE. */
export async function check(text: string, opts: { allowShell?: boolean; extra?: string[] } = {}) {
  return await validatePipelineText(text, {
    tree: TREE,
    allowShell: opts.allowShell ?? false,
    extraVariables: opts.extra,
  });
}
