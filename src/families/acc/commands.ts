/**
 * `diazo acc ...`: the construction cloud's families spelled under `acc` — assets (asset.ts),
 * submittals (submittal.ts), checklists (checklist.ts) and the account-administration spellings
 * (acc_admin.ts).
 */
import { registerAccAdmin } from "./admin_commands.ts";
import { registerAsset } from "../asset/commands.ts";
import { registerChecklist } from "../checklist/commands.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";
import { registerSubmittal } from "../submittal/commands.ts";

/** Registers `acc` and its subcommands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const acc = program.command("acc")
    .description("construction cloud: assets, submittals, checklists; accounts and projects");
  examples(acc, ["diazo acc asset list <project>", "diazo acc submittal list <project> --limit 20 -o json"]);
  registerAsset(acc, makeCtx);
  registerSubmittal(acc, makeCtx);
  registerChecklist(acc, makeCtx);
  registerAccAdmin(acc, makeCtx);
}
