/**
 * `diazo admin account|user|company ...`, `admin project user add|remove` and `admin project
 * update`: the accounts a login can see, the member directory (list, add, bulk import from CSV),
 * project members and companies. `acc accounts` and `acc add-user` (acc_admin.ts) share the
 * definitions of `admin account list` and `admin user add`.
 */
import { EMAIL_PATTERN, HQ_PROJECT_STATUSES, PRODUCT_ACCESS, PRODUCT_KEYS } from "../../aps/admin.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import { runAccountList } from "./account.ts";
import { IMPORT_COLUMNS, runAdminUserImport } from "./import.ts";
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
  adminCall,
  adminOptions,
  attach,
  choices,
  dateOption,
  EXAMPLE_ACCOUNT,
  EXAMPLE_PROJECT,
  EXAMPLE_USER,
  platformOption,
  PROJECT_HELP,
  projectArgument,
} from "./options.ts";
import { Command } from "@commander-js/extra-typings";
import { progressLines } from "../../command/progress.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";

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

/** Defines an account-listing command on `cmd` (`admin account list`, `acc accounts`). */
export function defineAccountList(name: string, makeCtx: ContextFactory, spell: string): AnyCommand {
  const list = new Command(name)
    .description(
      "list the accounts your login (or the app) can see (their data management hubs; needs data:read), with their kind: acc or bim360",
    )
    .option("--limit <n>", "stop after n accounts", positiveNumber("--limit", true));
  adminOptions(list).action(async (o, command) => {
    const ctx = makeCtx(command);
    const accounts = await runAccountList({ ...adminCall(o), limit: o.limit as number | undefined }, ctx);
    await ctx.emit(accounts, { columns: ["id", "name", "platform", "region"] });
  });
  examples(list, [spell, `${spell} -o json --query "[?platform=='bim360'].id"`, `${spell} --as app`]);
  return list;
}

/** Defines a command adding a user to an account's directory on `cmd` (`admin user add`, `acc add-user`). */
export function defineUserAdd(name: string, makeCtx: ContextFactory, spell: string): AnyCommand {
  const add = new Command(name)
    .description("add a user to an account's member directory (invited: pending until they sign in)")
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .requiredOption("--email <address>", "the user's e-mail address", emailOption)
    .option("--first-name <name>", "first name")
    .option("--last-name <name>", "last name")
    .option("--company <id>", "company id (`diazo admin company list`)")
    .option("--job-title <text>", "job title");
  adminOptions(add).action(async (o, command) => {
    const opts = o as Record<string, unknown> & typeof o;
    const ctx = makeCtx(command);
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
  });
  examples(add, [
    `${spell} --account ${EXAMPLE_ACCOUNT} --email ada.moreno@example.com --first-name Ada --last-name Moreno`,
    `${spell} --account ${EXAMPLE_ACCOUNT.slice(2)} --email bo@example.com --as app --user ${EXAMPLE_USER}`,
  ]);
  return add;
}

function registerImport(user: AnyCommand, makeCtx: ContextFactory): void {
  const imp = user.command("import")
    .description(
      "add every user of a CSV file to an account, resumably: run it again after a failure to continue " +
        "(rows already added are skipped, none is added twice)",
    )
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .requiredOption(
      "--from-file <users.csv>",
      `CSV with a header line; columns: ${IMPORT_COLUMNS.join(", ")}`,
    );
  adminOptions(imp).action(async (o, command) => {
    const opts = o as Record<string, unknown> & typeof o;
    const ctx = makeCtx(command);
    let progress: ReturnType<typeof progressLines> | undefined;
    const report = await runAdminUserImport({
      ...adminCall(opts),
      account: opts.account,
      file: opts.fromFile,
      // One line every few seconds, terminal or not: an import runs for minutes.
      onRow: (done, total) => (progress ??= progressLines(ctx, "users", total, "users")).update(done, total),
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
  });
  examples(imp, [
    `diazo admin user import --account ${EXAMPLE_ACCOUNT} --from-file users.csv`,
    `diazo admin user import --account ${EXAMPLE_ACCOUNT} --from-file users.csv --as app --user ${EXAMPLE_USER}`,
  ]);
}

function registerMembers(project: AnyCommand, makeCtx: ContextFactory): void {
  const user = project.command("user").description("add or remove the members of a project");
  examples(user, [
    `diazo admin project user add ${EXAMPLE_PROJECT} --email ada.moreno@example.com`,
    `diazo admin project user remove ${EXAMPLE_PROJECT} ada.moreno@example.com --yes`,
  ]);
  const add = user.command("add")
    .description("give a user (by e-mail) access to a project's products")
    .argument("<projectId>", PROJECT_HELP, projectArgument)
    .requiredOption("--email <address>", "the user's e-mail address", emailOption)
    .option("--products <list>", "key:access pairs (default docs:member)", productsOption)
    .option("--company <id>", "the company the user represents in the project")
    .option("--role <ids>", "role ids, comma-separated");
  adminOptions(add).action(async (projectId, o, command) => {
    const opts = o as Record<string, unknown> & typeof o;
    const ctx = makeCtx(command);
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
  });
  examples(add, [
    `diazo admin project user add ${EXAMPLE_PROJECT} --email ada.moreno@example.com`,
    `diazo admin project user add ${EXAMPLE_PROJECT} --email bo@example.com --products docs:administrator,build:member`,
  ]);
  const remove = user.command("remove").alias("rm")
    .description("remove a member from a project (by user id, Autodesk id or e-mail)")
    .argument("<projectId>", PROJECT_HELP, projectArgument)
    .argument("<user>", "the member: account user id, Autodesk id or e-mail");
  adminOptions(remove).action(async (projectId, member, o, command) => {
    const ctx = makeCtx(command);
    await ctx.confirmOrCancel(`Remove ${member} from project ${projectId}?`);
    const done = await runAdminProjectUserRemove({ ...adminCall(o), project: projectId, member }, ctx);
    ctx.info(`Removed ${done.email ?? done.userId} from project ${projectId}`);
    await ctx.emit(done);
  });
  examples(remove, [
    `diazo admin project user remove ${EXAMPLE_PROJECT} ada.moreno@example.com --yes`,
    `diazo admin project user rm ${EXAMPLE_PROJECT} ${EXAMPLE_USER} --yes`,
  ]);
}

/** Registers `admin project update` (HQ PATCH: a project of either generation). */
export function registerProjectUpdate(project: AnyCommand, makeCtx: ContextFactory): void {
  const update = project.command("update")
    .description("change a project's name, type, status, dates or job number")
    .argument("<projectId>", PROJECT_HELP, projectArgument)
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .option("--name <name>", "new name")
    .option("--type <type>", "new project type")
    .option("--status <status>", `one of ${HQ_PROJECT_STATUSES.join(", ")}`)
    .option("--start-date <date>", "first day, YYYY-MM-DD", dateOption("--start-date"))
    .option("--end-date <date>", "last day, YYYY-MM-DD", dateOption("--end-date"))
    .option("--job-number <text>", "your own identifier for the project");
  adminOptions(update).action(async (projectId, o, command) => {
    const opts = o as Record<string, unknown> & typeof o;
    const ctx = makeCtx(command);
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
  });
  examples(update, [
    `diazo admin project update ${EXAMPLE_PROJECT} --account ${EXAMPLE_ACCOUNT} --name 'North Depot II'`,
    `diazo admin project update ${EXAMPLE_PROJECT} --account ${EXAMPLE_ACCOUNT} --status archived`,
  ]);
}

/** Registers `admin account`, `admin user`, `admin company` and `admin project user`. */
export function registerAdminPeople(admin: AnyCommand, project: AnyCommand, makeCtx: ContextFactory): void {
  const account = admin.command("account").description("the accounts your login can see");
  examples(account, ["diazo admin account list"]);
  attach(account, defineAccountList("list", makeCtx, "diazo admin account list")).alias("ls");

  const user = admin.command("user").description("the member directory of an account");
  examples(user, [`diazo admin user list --account ${EXAMPLE_ACCOUNT}`]);
  const list = user.command("list").alias("ls")
    .description("list the users of an account, following every page")
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .option("--limit <n>", "stop after n users", positiveNumber("--limit", true));
  adminOptions(list).action(async (o, command) => {
    const ctx = makeCtx(command);
    const users = await runAdminUserList({ ...adminCall(o), account: o.account, limit: o.limit }, ctx);
    await ctx.emit(users, { columns: USER_COLUMNS });
  });
  examples(list, [
    `diazo admin user list --account ${EXAMPLE_ACCOUNT}`,
    `diazo admin user list --account ${EXAMPLE_ACCOUNT.slice(2)} -o csv`,
    `diazo admin user list --account ${EXAMPLE_ACCOUNT.slice(2)} --region EMEA`,
  ]);
  attach(user, defineUserAdd("add", makeCtx, "diazo admin user add"));
  registerImport(user, makeCtx);
  registerMembers(project, makeCtx);

  const company = admin.command("company").description("the companies of an account");
  const companies = company.command("list").alias("ls")
    .description("list the companies of an account (ACC or BIM 360, by its kind), following every page")
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .option("--limit <n>", "stop after n companies", positiveNumber("--limit", true));
  adminOptions(platformOption(companies)).action(async (o, command) => {
    const opts = o as Record<string, unknown> & typeof o;
    const ctx = makeCtx(command);
    const rows = await runAdminCompanyList({
      ...adminCall(opts),
      account: opts.account,
      limit: opts.limit,
      platform: opts.platform as string | undefined,
    }, ctx);
    await ctx.emit(rows, { columns: ["id", "name", "trade"] });
  });
  examples(companies, [`diazo admin company list --account ${EXAMPLE_ACCOUNT}`]);
  examples(company, [`diazo admin company list --account ${EXAMPLE_ACCOUNT} -o json`]);
}
