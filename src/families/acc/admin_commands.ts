/**
 * `diazo acc accounts|projects|create-project|add-user` (README.md, "Account administration"): the `acc`
 * spellings of `admin account list`, `admin project list`, `admin project create` and `admin user add`,
 * declared by the same functions (one implementation, the same options and output).
 */
import { projectCreateCommand, projectListCommand } from "../admin/commands.ts";
import { accountListCommand, userAddCommand } from "../admin/users_commands.ts";
import type { CommandDecl } from "../../command/decl.ts";

/** `acc accounts`, `acc projects`, `acc create-project` and `acc add-user`. */
export const ACC_ADMIN_COMMANDS: readonly CommandDecl[] = [
  accountListCommand("accounts", "diazo acc accounts"),
  projectListCommand("projects", "diazo acc projects"),
  projectCreateCommand("create-project", "diazo acc create-project"),
  userAddCommand("add-user", "diazo acc add-user"),
];
