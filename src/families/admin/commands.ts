/**
 * `diazo admin ...`: account administration — the accounts a login can see, projects of an
 * account (list, create, get, update, users, members), the account's member directory (list, add,
 * bulk import) and companies. Every command acts as the logged-in user (`diazo auth login`), or
 * as the app with `--as app` (`--user` names who a write acts for). An account's projects are
 * reached through the API generation of its kind (ACC Admin v1 or BIM 360 HQ v1). `--region`
 * routes a command to the data centre hosting the account (no header: the platform's US).
 * the `acc accounts|projects|create-project|add-user` spellings (families/acc/admin_commands.ts) share
 * these declarations (command/decl.ts).
 */
import { PROJECT_CLASSIFICATIONS, PROJECT_STATUSES } from "../../aps/admin.ts";
import type { AccAccountId, AccProjectId } from "../../aps/ids.ts";
import { usageError } from "../../core/errors.ts";
import {
  runAdminProjectCreate,
  runAdminProjectGet,
  runAdminProjectList,
  runAdminProjectUsers,
} from "./verbs.ts";
import {
  ACCOUNT_HELP,
  accountOption,
  ADMIN_OPTIONS,
  adminCall,
  choices,
  dateOption,
  EXAMPLE_ACCOUNT,
  EXAMPLE_PROJECT,
  EXAMPLE_USER,
  PLATFORM_OPTION,
  PROJECT_HELP,
  projectArgument,
} from "./options.ts";
import { ACCOUNT, COMPANY, projectUpdateCommand, projectUserCommand, USER } from "./users_commands.ts";
import type { ArgumentDecl, CommandDecl } from "../../command/decl.ts";
import { positiveNumber } from "../../command/command.ts";

const PROJECT_COLUMNS = ["id", "name", "type", "status", "platform", "classification", "createdAt"];

/** The options of `admin project create` (and `acc create-project`). */
type ProjectCreateOpts = {
  account: AccAccountId;
  name: string;
  type: string;
  classification?: string;
  jobNumber?: string;
  template?: string;
  startDate?: string;
  endDate?: string;
  platform?: string;
  region?: string;
  as?: string;
  user?: string;
};

/** A project-creating command (`admin project create`, `acc create-project`); `spell` starts its examples. */
export function projectCreateCommand(name: string, spell: string): CommandDecl {
  return {
    name,
    description:
      "create a project: ACC accepts it as pending and provisions it shortly after; BIM 360 creates it at once",
    options: [
      {
        flags: "--account <id>",
        description: ACCOUNT_HELP,
        parse: accountOption,
        names: "hub",
        required: true,
      },
      {
        flags: "--name <name>",
        description: "project name, unique in the account (at most 255 characters)",
        required: true,
      },
      { flags: "--type <type>", description: "project type, e.g. Office, Bridge, Hospital", required: true },
      {
        flags: "--classification <c>",
        description: `ACC: one of ${PROJECT_CLASSIFICATIONS.join(", ")} (default production)`,
      },
      { flags: "--job-number <text>", description: "your own identifier for the project" },
      { flags: "--template <projectId>", description: "ACC: clone this template project" },
      {
        flags: "--start-date <date>",
        description: "first day, YYYY-MM-DD (BIM 360 default: today)",
        parse: dateOption("--start-date"),
      },
      {
        flags: "--end-date <date>",
        description: "last day, YYYY-MM-DD (BIM 360 default: a year after the start)",
        parse: dateOption("--end-date"),
      },
      PLATFORM_OPTION,
      ...ADMIN_OPTIONS,
    ],
    examples: [
      `${spell} --account ${EXAMPLE_ACCOUNT} --name 'North Depot' --type Office`,
      `${spell} --account ${EXAMPLE_ACCOUNT.slice(2)} --name 'East Wing' --type Hospital --wait`,
      `${spell} --account ${EXAMPLE_ACCOUNT} --name 'Pier 9' --type Bridge --as app --user ${EXAMPLE_USER}`,
    ],
    run: async (ctx, _args, opts: ProjectCreateOpts) => {
      const name = opts.name.trim();
      if (name === "" || name.length > 255) {
        throw usageError("--name must be 1 to 255 characters", "Example: --name 'Riverside Tower'");
      }
      if (opts.classification !== undefined) {
        choices("--classification", PROJECT_CLASSIFICATIONS)(opts.classification);
      }
      if (opts.startDate && opts.endDate && opts.startDate >= opts.endDate) {
        throw usageError(
          "--start-date must be before --end-date",
          "Example: --start-date 2025-03-01 --end-date 2026-06-30",
        );
      }
      const templateId = opts.template === undefined ? undefined : projectArgument(opts.template);
      const timeoutMs = ctx.flags.timeout === undefined ? undefined : ctx.flags.timeout * 1000;
      const created = await runAdminProjectCreate({
        ...adminCall(opts),
        account: opts.account,
        name,
        type: opts.type,
        classification: opts.classification,
        jobNumber: opts.jobNumber,
        startDate: opts.startDate,
        endDate: opts.endDate,
        platform: opts.platform,
        templateId,
        wait: ctx.flags.wait ? { timeoutMs } : undefined,
        onAccepted: (p) => ctx.info(`Project ${p.name} (${p.id}) accepted, status ${p.status}`),
      }, ctx);
      if (ctx.flags.wait) ctx.info(`Project ${created.id} is ${created.status}`);
      await ctx.emit(created);
    },
  };
}

/** The options of `admin project list` (and `acc projects`). */
type ProjectListOpts = {
  account: AccAccountId;
  status?: string[];
  name?: string;
  classification?: string[];
  limit?: number;
  platform?: string;
};

/** A project-listing command (`admin project list`, `acc projects`); `spell` starts its examples. */
export function projectListCommand(name: string, spell: string): CommandDecl {
  return {
    name,
    description: "list the projects of an account (ACC or BIM 360, by its kind), following every page",
    options: [
      {
        flags: "--account <id>",
        description: ACCOUNT_HELP,
        parse: accountOption,
        names: "hub",
        required: true,
      },
      {
        flags: "--status <list>",
        description: `only these statuses (${PROJECT_STATUSES.join(", ")})`,
        parse: choices("--status", PROJECT_STATUSES),
      },
      { flags: "--name <text>", description: "only names containing this text" },
      {
        flags: "--classification <list>",
        description: `only these classifications (${PROJECT_CLASSIFICATIONS.join(", ")})`,
        parse: choices("--classification", PROJECT_CLASSIFICATIONS),
      },
      { flags: "--limit <n>", description: "stop after n projects", parse: positiveNumber("--limit", true) },
      PLATFORM_OPTION,
      ...ADMIN_OPTIONS,
    ],
    examples: [
      `${spell} --account ${EXAMPLE_ACCOUNT}`,
      `${spell} --account ${EXAMPLE_ACCOUNT.slice(2)} --status active,pending -o json`,
      `${spell} --account ${EXAMPLE_ACCOUNT} --region EMEA`,
    ],
    run: async (ctx, _args, opts: ProjectListOpts) => {
      const projects = await runAdminProjectList({
        ...adminCall(opts),
        account: opts.account,
        status: opts.status,
        name: opts.name,
        classification: opts.classification,
        limit: opts.limit,
        platform: opts.platform,
      }, ctx);
      await ctx.emit(projects, { columns: PROJECT_COLUMNS });
    },
  };
}

/** The `<projectId>` argument of `admin project get|users`: an id or a name (front/names.ts). */
const PROJECT_ID_ARG: ArgumentDecl = {
  spec: "<projectId>",
  description: PROJECT_HELP,
  parse: projectArgument,
  complete: "project",
  names: "project",
};

/** `admin project ...`. */
const PROJECT: CommandDecl = {
  name: "project",
  description: "list, create, update and inspect the projects of an account",
  examples: [
    `diazo admin project list --account ${EXAMPLE_ACCOUNT}`,
    `diazo admin project users ${EXAMPLE_PROJECT}`,
  ],
  commands: [
    { ...projectListCommand("list", "diazo admin project list"), aliases: ["ls"] },
    projectCreateCommand("create", "diazo admin project create"),
    {
      name: "get",
      aliases: ["info"],
      description: "show a project",
      args: [PROJECT_ID_ARG],
      options: ADMIN_OPTIONS,
      examples: [
        `diazo admin project get ${EXAMPLE_PROJECT}`,
        `diazo admin project get ${EXAMPLE_PROJECT} --region emea`,
      ],
      run: async (ctx, [projectId]: AccProjectId[], opts: Record<string, unknown>) => {
        await ctx.emit(await runAdminProjectGet({ ...adminCall(opts), project: projectId }, ctx));
      },
    },
    {
      name: "users",
      description: "list the users of a project, following every page",
      args: [PROJECT_ID_ARG],
      options: [
        { flags: "--limit <n>", description: "stop after n users", parse: positiveNumber("--limit", true) },
        ...ADMIN_OPTIONS,
      ],
      examples: [
        `diazo admin project users ${EXAMPLE_PROJECT}`,
        `diazo admin project users b.${EXAMPLE_PROJECT} -o json --query '[].email'`,
      ],
      run: async (ctx, [projectId]: AccProjectId[], opts: Record<string, unknown> & { limit?: number }) => {
        const list = await runAdminProjectUsers(
          { ...adminCall(opts), project: projectId, limit: opts.limit },
          ctx,
        );
        const out = list.map((u) => ({ ...u, projectAdmin: u.accessLevels?.projectAdmin ?? false }));
        await ctx.emit(out, { columns: ["id", "name", "email", "companyName", "status", "projectAdmin"] });
      },
    },
    projectUpdateCommand,
    projectUserCommand,
  ],
};

/** The admin family. */
export const ADMIN: CommandDecl = {
  name: "admin",
  description: "account administration: accounts, projects, users and companies (needs `diazo auth login`)",
  examples: [
    "diazo auth login --scopes account:read,account:write",
    `diazo admin project list --account ${EXAMPLE_ACCOUNT}`,
    `diazo admin user import --account ${EXAMPLE_ACCOUNT} --from-file users.csv`,
  ],
  commands: [PROJECT, ACCOUNT, USER, COMPANY],
};
