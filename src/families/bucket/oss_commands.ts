/** `diazo oss ...`: the platform's own name for storage; `oss list` is `bucket list`. */
import { addListCommand } from "./commands.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";

/** Registers the oss family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const oss = program.command("oss").description(
    "object storage (OSS): `oss list` is an alias of `bucket list`",
  );
  addListCommand(oss, makeCtx);
  examples(oss, ["diazo oss list --region EMEA"]);
}
