/**
 * `diazo acc accounts|projects|create-project|add-user` (README.md, "Account administration"): the `acc`
 * spellings of `admin account list`, `admin project list`, `admin project create` and `admin user add`,
 * defined by the same functions (one implementation, the same options and output).
 */
import { defineProjectCreate, defineProjectList } from "../admin/commands.ts";
import { defineAccountList, defineUserAdd } from "../admin/users_commands.ts";
import { attach } from "../admin/options.ts";
import type { AnyCommand, ContextFactory } from "../../command/command.ts";

/** Registers `acc accounts`, `acc projects`, `acc create-project` and `acc add-user`. */
export function registerAccAdmin(acc: AnyCommand, makeCtx: ContextFactory): void {
  attach(acc, defineAccountList("accounts", makeCtx, "diazo acc accounts"));
  attach(acc, defineProjectList("projects", makeCtx, "diazo acc projects"));
  attach(acc, defineProjectCreate("create-project", makeCtx, "diazo acc create-project"));
  attach(acc, defineUserAdd("add-user", makeCtx, "diazo acc add-user"));
}
