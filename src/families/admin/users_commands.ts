/**
 * `diazo admin account|user|company ...`, `admin project user add|remove` and `admin project
 * update`: the accounts a login can see, the member directory (list, add, bulk import from CSV),
 * project members and companies, declared as data (command/decl.ts). `acc accounts` and `acc add-user`
 * (families/acc/admin_commands.ts) share the declarations of `admin account list` and `admin user add`.
 */
import {
  EMAIL_PATTERN,
  HQ_PROJECT_STATUSES,
  IMPORT_COLUMNS,
  PRODUCT_ACCESS,
  PRODUCT_KEYS,
} from "../../aps/admin.ts";
import type { AccAccountId, AccProjectId } from "../../aps/ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import { runAccountList } from "./account.ts";
import {
  type HqProjectFields,
  runAdminCompanyList,
  runAdminProjectUpdate,
  runAdminProjectUserAdd,
  runAdminProjectUserRemove,
  runAdminUserAdd,
  runAdminUserList,
} from "./users.ts";
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
import type { progressLines } from "../../command/progress.ts";
import type { ArgumentDecl, CommandDecl, OptionDecl } from "../../command/decl.ts";
import { positiveNumber } from "../../command/command.ts";

const USER_COLUMNS = ["id", "name", "email", "role", "status", "company_name"];

/** An `--email` parser: an e-mail address, checked before any request. */
function emailOption(value: string): string {
  const email = value.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) {
    throw usageError(`'${value}' is not an e-mail address`, "Example: --email ada.moreno@example.com");
  }
  return email;
}

/** A `--products` parser: `key:access` pairs, e.g. `docs:member,build:administrator`. */
function productsOption(value: string): { key: string; access: string }[] {
  return value.split(",").map((v) => v.trim()).filter(Boolean).map((pair) => {
    const [key, access = "member"] = pair.split(":");
    if (!PRODUCT_KEYS.includes(key) || !PRODUCT_ACCESS.includes(access)) {
      throw usageError(
        `--products '${pair}' is not key:access`,
        `Keys: ${PRODUCT_KEYS.join(", ")}; access: ${
          PRODUCT_ACCESS.join(", ")
        }. Example: docs:member,build:administrator`,
      );
    }
    return { key, access };
  });
}

/** The options every admin command is given: who it acts as and where (options.ts ADMIN_OPTIONS). */
type AdminOpts = { region?: string; as?: string; user?: string };

/** `--account <id>`, required. */
const ACCOUNT_OPTION: OptionDecl = {
  flags: "--account <id>",
  description: ACCOUNT_HELP,
  parse: accountOption,
  names: "hub",
  required: true,
};

/** `--limit <n>`: stop after n of `what`. */
function limitOption(what: string): OptionDecl {
  return {
    flags: "--limit <n>",
    description: `stop after n ${what}`,
    parse: positiveNumber("--limit", true),
  };
}

/** An account-listing command (`admin account list`, `acc accounts`); `spell` starts its examples. */
export function accountListCommand(name: string, spell: string): CommandDecl {
  return {
    name,
    description:
      "list the accounts your login (or the app) can see (their data management hubs; needs data:read), with their kind: acc or bim360",
    options: [limitOption("accounts"), ...ADMIN_OPTIONS],
    examples: [spell, `${spell} -o json --query "[?platform=='bim360'].id"`, `${spell} --as app`],
    run: async (ctx, _args, opts: AdminOpts & { limit?: number }) => {
      const accounts = await runAccountList({ ...adminCall(opts), limit: opts.limit }, ctx);
      await ctx.emit(accounts, { columns: ["id", "name", "platform", "region"] });
    },
  };
}

/** The options of `admin user add` (and `acc add-user`). */
type UserAddOpts = AdminOpts & {
  account: AccAccountId;
  email: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  jobTitle?: string;
};

/** A command adding a user to an account's directory (`admin user add`, `acc add-user`); `spell` starts its examples. */
export function userAddCommand(name: string, spell: string): CommandDecl {
  return {
    name,
    description: "add a user to an account's member directory (invited: pending until they sign in)",
    options: [
      ACCOUNT_OPTION,
      {
        flags: "--email <address>",
        description: "the user's e-mail address",
        parse: emailOption,
        required: true,
      },
      { flags: "--first-name <name>", description: "first name" },
      { flags: "--last-name <name>", description: "last name" },
      { flags: "--company <id>", description: "company id (`diazo admin company list`)" },
      { flags: "--job-title <text>", description: "job title" },
      ...ADMIN_OPTIONS,
    ],
    examples: [
      `${spell} --account ${EXAMPLE_ACCOUNT} --email ada.moreno@example.com --first-name Ada --last-name Moreno`,
      `${spell} --account ${EXAMPLE_ACCOUNT.slice(2)} --email bo@example.com --as app --user ${EXAMPLE_USER}`,
    ],
    run: async (ctx, _args, opts: UserAddOpts) => {
      const user = await runAdminUserAdd({
        ...adminCall(opts),
        account: opts.account,
        user_fields: {
          email: opts.email,
          first_name: opts.firstName,
          last_name: opts.lastName,
          company_id: opts.company,
          job_title: opts.jobTitle,
        },
      }, ctx);
      ctx.info(`Added ${user.email} (${user.id}), status ${user.status}`);
      await ctx.emit(user, { columns: USER_COLUMNS });
    },
  };
}

/** `admin user import`: a CSV of users added resumably. */
const USER_IMPORT: CommandDecl = {
  name: "import",
  description:
    "add every user of a CSV file to an account, resumably: run it again after a failure to continue " +
    "(rows already added are skipped, none is added twice)",
  options: [
    ACCOUNT_OPTION,
    {
      flags: "--from-file <users.csv>",
      description: `CSV with a header line; columns: ${IMPORT_COLUMNS.join(", ")}`,
      required: true,
    },
    ...ADMIN_OPTIONS,
  ],
  examples: [
    `diazo admin user import --account ${EXAMPLE_ACCOUNT} --from-file users.csv`,
    `diazo admin user import --account ${EXAMPLE_ACCOUNT} --from-file users.csv --as app --user ${EXAMPLE_USER}`,
  ],
  run: async (ctx, _args, opts: AdminOpts & { account: AccAccountId; fromFile: string }) => {
    let progress: ReturnType<typeof progressLines> | undefined;
    // The import verbs reach node:path and node:crypto, which a declaration must not load.
    const { runAdminUserImport } = await import("./import.ts");
    // The progress lines load with the import: the other admin commands do without them.
    const { progressLines: lines } = await import("../../command/progress.ts");
    const report = await runAdminUserImport({
      ...adminCall(opts),
      account: opts.account,
      file: opts.fromFile,
      // One line every few seconds, terminal or not: an import runs for minutes.
      onRow: (done, total) => (progress ??= lines(ctx, "users", total, "users")).update(done, total),
    }, ctx);
    if (report.doneBefore > 0) {
      ctx.info(`${report.doneBefore} of ${report.total} users were already imported by an earlier run`);
    }
    ctx.info(
      `Imported ${report.created} new, ${report.existed} already in the account, ${report.failed} failed ` +
        `(of ${report.total}; state ${report.state})`,
    );
    await ctx.emit(report.rows, { columns: ["line", "email", "result", "id", "error"] });
    if (report.failed > 0) {
      throw new DiazoError("failure", {
        params: {
          detail: `${report.failed} of ${report.total} users were not added`,
          hint:
            "Fix those rows (see their error) and run the same command again; the rows already added are skipped.",
        },
      });
    }
  },
};

const PROJECT_ARG: ArgumentDecl = {
  spec: "<projectId>",
  description: PROJECT_HELP,
  parse: projectArgument,
  complete: "project",
  names: "project",
};

/** The options of `admin project user add`. */
type MemberAddOpts = AdminOpts & {
  email: string;
  products?: { key: string; access: string }[];
  company?: string;
  role?: string;
};

/** `admin project user add|remove`: the members of a project. */
export const projectUserCommand: CommandDecl = {
  name: "user",
  description: "add or remove the members of a project",
  examples: [
    `diazo admin project user add ${EXAMPLE_PROJECT} --email ada.moreno@example.com`,
    `diazo admin project user remove ${EXAMPLE_PROJECT} ada.moreno@example.com --yes`,
  ],
  commands: [
    {
      name: "add",
      description: "give a user (by e-mail) access to a project's products",
      args: [PROJECT_ARG],
      options: [
        {
          flags: "--email <address>",
          description: "the user's e-mail address",
          parse: emailOption,
          required: true,
        },
        {
          flags: "--products <list>",
          description: "key:access pairs (default docs:member)",
          parse: productsOption,
        },
        { flags: "--company <id>", description: "the company the user represents in the project" },
        { flags: "--role <ids>", description: "role ids, comma-separated" },
        ...ADMIN_OPTIONS,
      ],
      examples: [
        `diazo admin project user add ${EXAMPLE_PROJECT} --email ada.moreno@example.com`,
        `diazo admin project user add ${EXAMPLE_PROJECT} --email bo@example.com --products docs:administrator,build:member`,
      ],
      run: async (ctx, [projectId]: AccProjectId[], opts: MemberAddOpts) => {
        const member = await runAdminProjectUserAdd({
          ...adminCall(opts),
          project: projectId,
          member: {
            email: opts.email,
            products: opts.products ?? [{ key: "docs", access: "member" }],
            companyId: opts.company,
            roleIds: opts.role?.split(",").map((r) => r.trim()).filter(Boolean),
          },
        }, ctx);
        ctx.info(`Added ${member.email} to project ${projectId}`);
        await ctx.emit(member, { columns: ["id", "name", "email", "companyName", "status"] });
      },
    },
    {
      name: "remove",
      aliases: ["rm"],
      description: "remove a member from a project (by user id, Autodesk id or e-mail)",
      args: [PROJECT_ARG, {
        spec: "<user>",
        description: "the member: account user id, Autodesk id or e-mail",
      }],
      options: ADMIN_OPTIONS,
      examples: [
        `diazo admin project user remove ${EXAMPLE_PROJECT} ada.moreno@example.com --yes`,
        `diazo admin project user rm ${EXAMPLE_PROJECT} ${EXAMPLE_USER} --yes`,
      ],
      run: async (ctx, args: string[], opts: AdminOpts) => {
        const [projectId, member] = args as [AccProjectId, string];
        await ctx.confirmOrCancel(`Remove ${member} from project ${projectId}?`);
        const done = await runAdminProjectUserRemove({ ...adminCall(opts), project: projectId, member }, ctx);
        ctx.info(`Removed ${done.email ?? done.userId} from project ${projectId}`);
        await ctx.emit(done);
      },
    },
  ],
};

/** The options of `admin project update`. */
type ProjectUpdateOpts = AdminOpts & {
  account: AccAccountId;
  name?: string;
  type?: string;
  status?: string;
  startDate?: string;
  endDate?: string;
  jobNumber?: string;
};

/** `admin project update` (HQ PATCH: a project of either generation). */
export const projectUpdateCommand: CommandDecl = {
  name: "update",
  description: "change a project's name, type, status, dates or job number",
  args: [PROJECT_ARG],
  options: [
    ACCOUNT_OPTION,
    { flags: "--name <name>", description: "new name" },
    { flags: "--type <type>", description: "new project type" },
    { flags: "--status <status>", description: `one of ${HQ_PROJECT_STATUSES.join(", ")}` },
    { flags: "--start-date <date>", description: "first day, YYYY-MM-DD", parse: dateOption("--start-date") },
    { flags: "--end-date <date>", description: "last day, YYYY-MM-DD", parse: dateOption("--end-date") },
    { flags: "--job-number <text>", description: "your own identifier for the project" },
    ...ADMIN_OPTIONS,
  ],
  examples: [
    `diazo admin project update ${EXAMPLE_PROJECT} --account ${EXAMPLE_ACCOUNT} --name 'North Depot II'`,
    `diazo admin project update ${EXAMPLE_PROJECT} --account ${EXAMPLE_ACCOUNT} --status archived`,
  ],
  run: async (ctx, [projectId]: AccProjectId[], opts: ProjectUpdateOpts) => {
    if (opts.status !== undefined) choices("--status", HQ_PROJECT_STATUSES)(opts.status);
    const fields: HqProjectFields = {
      name: opts.name?.trim(),
      project_type: opts.type,
      status: opts.status,
      start_date: opts.startDate,
      end_date: opts.endDate,
      job_number: opts.jobNumber,
    };
    if (Object.values(fields).every((v) => v === undefined)) {
      throw usageError(
        "nothing to change",
        "Give at least one of --name, --type, --status, --start-date, --end-date, --job-number.",
      );
    }
    await ctx.emit(
      await runAdminProjectUpdate(
        { ...adminCall(opts), account: opts.account, project: projectId, fields },
        ctx,
      ),
    );
  },
};

/** `admin account list`. */
export const ACCOUNT: CommandDecl = {
  name: "account",
  description: "the accounts your login can see",
  examples: ["diazo admin account list"],
  commands: [{ ...accountListCommand("list", "diazo admin account list"), aliases: ["ls"] }],
};

/** `admin user list|add|import`: the member directory of an account. */
export const USER: CommandDecl = {
  name: "user",
  description: "the member directory of an account",
  examples: [`diazo admin user list --account ${EXAMPLE_ACCOUNT}`],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "list the users of an account, following every page",
      options: [ACCOUNT_OPTION, limitOption("users"), ...ADMIN_OPTIONS],
      examples: [
        `diazo admin user list --account ${EXAMPLE_ACCOUNT}`,
        `diazo admin user list --account ${EXAMPLE_ACCOUNT.slice(2)} -o csv`,
        `diazo admin user list --account ${EXAMPLE_ACCOUNT.slice(2)} --region EMEA`,
      ],
      run: async (ctx, _args, opts: AdminOpts & { account: AccAccountId; limit?: number }) => {
        const users = await runAdminUserList(
          { ...adminCall(opts), account: opts.account, limit: opts.limit },
          ctx,
        );
        await ctx.emit(users, { columns: USER_COLUMNS });
      },
    },
    userAddCommand("add", "diazo admin user add"),
    USER_IMPORT,
  ],
};

/** `admin company list`: the companies of an account. */
export const COMPANY: CommandDecl = {
  name: "company",
  description: "the companies of an account",
  examples: [`diazo admin company list --account ${EXAMPLE_ACCOUNT} -o json`],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "list the companies of an account (ACC or BIM 360, by its kind), following every page",
      options: [ACCOUNT_OPTION, limitOption("companies"), PLATFORM_OPTION, ...ADMIN_OPTIONS],
      examples: [`diazo admin company list --account ${EXAMPLE_ACCOUNT}`],
      run: async (
        ctx,
        _args,
        opts: AdminOpts & { account: AccAccountId; limit?: number; platform?: string },
      ) => {
        const rows = await runAdminCompanyList({
          ...adminCall(opts),
          account: opts.account,
          limit: opts.limit,
          platform: opts.platform,
        }, ctx);
        await ctx.emit(rows, { columns: ["id", "name", "trade"] });
      },
    },
  ],
};
