/**
 * `diazo admin ...`: account administration — the accounts a login can see, projects of an
 * account (list, create, get, update, users, members), the account's member directory (list, add,
 * bulk import) and companies. Every command acts as the logged-in user (`diazo auth login`), or
 * as the app with `--as app` (`--user` names who a write acts for). An account's projects are
 * reached through the API generation of its kind (ACC Admin v1 or BIM 360 HQ v1). `--region`
 * routes a command to the data centre hosting the account (no header: the platform's US).
 * the `acc accounts|projects|create-project|add-user` spellings (acc_admin.ts) share these commands.
 */
import { PROJECT_CLASSIFICATIONS, PROJECT_STATUSES } from "../../aps/admin.ts";
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
import { registerAdminPeople, registerProjectUpdate } from "./users_commands.ts";
import { Command } from "@commander-js/extra-typings";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";

const PROJECT_COLUMNS = ["id", "name", "type", "status", "platform", "classification", "createdAt"];

/** Defines a project-creating command on `cmd` (`admin project create`, `acc create-project`); `spell` starts its examples. */
export function defineProjectCreate(name: string, makeCtx: ContextFactory, spell: string): AnyCommand {
  const create = new Command(name)
    .description(
      "create a project: ACC accepts it as pending and provisions it shortly after; BIM 360 creates it at once",
    )
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .requiredOption("--name <name>", "project name, unique in the account (at most 255 characters)")
    .requiredOption("--type <type>", "project type, e.g. Office, Bridge, Hospital")
    .option("--classification <c>", `ACC: one of ${PROJECT_CLASSIFICATIONS.join(", ")} (default production)`)
    .option("--job-number <text>", "your own identifier for the project")
    .option("--template <projectId>", "ACC: clone this template project")
    .option(
      "--start-date <date>",
      "first day, YYYY-MM-DD (BIM 360 default: today)",
      dateOption("--start-date"),
    )
    .option(
      "--end-date <date>",
      "last day, YYYY-MM-DD (BIM 360 default: a year after the start)",
      dateOption("--end-date"),
    );
  adminOptions(platformOption(create)).action(async (o, command) => {
    const opts = o as Record<string, unknown> & typeof o;
    const ctx = makeCtx(command);
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
      platform: opts.platform as string | undefined,
      templateId,
      wait: ctx.flags.wait ? { timeoutMs } : undefined,
      onAccepted: (p) => ctx.info(`Project ${p.name} (${p.id}) accepted, status ${p.status}`),
    }, ctx);
    if (ctx.flags.wait) ctx.info(`Project ${created.id} is ${created.status}`);
    await ctx.emit(created);
  });
  examples(create, [
    `${spell} --account ${EXAMPLE_ACCOUNT} --name 'North Depot' --type Office`,
    `${spell} --account ${EXAMPLE_ACCOUNT.slice(2)} --name 'East Wing' --type Hospital --wait`,
    `${spell} --account ${EXAMPLE_ACCOUNT} --name 'Pier 9' --type Bridge --as app --user ${EXAMPLE_USER}`,
  ]);
  return create;
}

/** Defines a project-listing command on `cmd` (`admin project list`, `acc projects`); `spell` starts its examples. */
export function defineProjectList(name: string, makeCtx: ContextFactory, spell: string): AnyCommand {
  const list = new Command(name)
    .description("list the projects of an account (ACC or BIM 360, by its kind), following every page")
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .option(
      "--status <list>",
      `only these statuses (${PROJECT_STATUSES.join(", ")})`,
      choices("--status", PROJECT_STATUSES),
    )
    .option("--name <text>", "only names containing this text")
    .option(
      "--classification <list>",
      `only these classifications (${PROJECT_CLASSIFICATIONS.join(", ")})`,
      choices("--classification", PROJECT_CLASSIFICATIONS),
    )
    .option("--limit <n>", "stop after n projects", positiveNumber("--limit", true));
  adminOptions(platformOption(list)).action(async (o, command) => {
    const opts = o as Record<string, unknown> & typeof o;
    const ctx = makeCtx(command);
    const projects = await runAdminProjectList({
      ...adminCall(opts),
      account: opts.account,
      status: opts.status,
      name: opts.name,
      classification: opts.classification,
      limit: opts.limit,
      platform: opts.platform as string | undefined,
    }, ctx);
    await ctx.emit(projects, { columns: PROJECT_COLUMNS });
  });
  examples(list, [
    `${spell} --account ${EXAMPLE_ACCOUNT}`,
    `${spell} --account ${EXAMPLE_ACCOUNT.slice(2)} --status active,pending -o json`,
    `${spell} --account ${EXAMPLE_ACCOUNT} --region EMEA`,
  ]);
  return list;
}

function registerProjects(admin: AnyCommand, makeCtx: ContextFactory): AnyCommand {
  const project = admin.command("project").description(
    "list, create, update and inspect the projects of an account",
  );
  examples(project, [
    `diazo admin project list --account ${EXAMPLE_ACCOUNT}`,
    `diazo admin project users ${EXAMPLE_PROJECT}`,
  ]);
  attach(project, defineProjectList("list", makeCtx, "diazo admin project list")).alias("ls");
  attach(project, defineProjectCreate("create", makeCtx, "diazo admin project create"));

  const get = adminOptions(
    project.command("get").alias("info").description("show a project").argument(
      "<projectId>",
      PROJECT_HELP,
      projectArgument,
    ),
  ).action(async (projectId, o, command) => {
    const ctx = makeCtx(command);
    await ctx.emit(await runAdminProjectGet({ ...adminCall(o), project: projectId }, ctx));
  });
  examples(get, [
    `diazo admin project get ${EXAMPLE_PROJECT}`,
    `diazo admin project get ${EXAMPLE_PROJECT} --region emea`,
  ]);

  const users = adminOptions(
    project.command("users")
      .description("list the users of a project, following every page")
      .argument("<projectId>", PROJECT_HELP, projectArgument)
      .option("--limit <n>", "stop after n users", positiveNumber("--limit", true)),
  ).action(async (projectId, o, command) => {
    const ctx = makeCtx(command);
    const list = await runAdminProjectUsers({ ...adminCall(o), project: projectId, limit: o.limit }, ctx);
    const out = list.map((u) => ({ ...u, projectAdmin: u.accessLevels?.projectAdmin ?? false }));
    await ctx.emit(out, { columns: ["id", "name", "email", "companyName", "status", "projectAdmin"] });
  });
  examples(users, [
    `diazo admin project users ${EXAMPLE_PROJECT}`,
    `diazo admin project users b.${EXAMPLE_PROJECT} -o json --query '[].email'`,
  ]);
  registerProjectUpdate(project, makeCtx);
  return project;
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const admin = program.command("admin")
    .description(
      "account administration: accounts, projects, users and companies (needs `diazo auth login`)",
    );
  examples(admin, [
    "diazo auth login --scopes account:read,account:write",
    `diazo admin project list --account ${EXAMPLE_ACCOUNT}`,
    `diazo admin user import --account ${EXAMPLE_ACCOUNT} --from-file users.csv`,
  ]);
  const project = registerProjects(admin, makeCtx);
  registerAdminPeople(admin, project, makeCtx);
}
