/**
 * `diazo acc ...`: the construction cloud's families spelled under `acc` — assets
 * (families/asset/commands.ts), submittals (families/submittal/commands.ts), checklists
 * (families/checklist/commands.ts) and the account-administration spellings (./admin_commands.ts).
 */
import { ACC_ADMIN_COMMANDS } from "./admin_commands.ts";
import { ASSET } from "../asset/commands.ts";
import { CHECKLIST } from "../checklist/commands.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { SUBMITTAL } from "../submittal/commands.ts";

/** The acc family. */
export const ACC: CommandDecl = {
  name: "acc",
  description: "construction cloud: assets, submittals, checklists; accounts and projects",
  examples: ["diazo acc asset list <project>", "diazo acc submittal list <project> --limit 20 -o json"],
  commands: [ASSET, SUBMITTAL, CHECKLIST, ...ACC_ADMIN_COMMANDS],
};
