/**
 * `diazo admin ...`: account administration — projects of an account, their users, and the
 * account's member directory. Every command acts as the logged-in user (`diazo auth login`).
 * `--region` routes a command to the data centre hosting the account (no header: the platform's US).
 */
import { PROJECT_CLASSIFICATIONS, PROJECT_STATUSES } from "../aps/admin.ts";
import { Option } from "@commander-js/extra-typings";
import { accId } from "../aps/dm_ids.ts";
import type { AccAccountId, AccProjectId } from "../aps/ids.ts";
import { usageError } from "../core/errors.ts";
import { DATA_CENTRES, parseDataCentre } from "../aps/regions.ts";
import {
  runAdminProjectCreate,
  runAdminProjectGet,
  runAdminProjectList,
  runAdminProjectUsers,
  runAdminUserList,
} from "../ops/admin.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";

const PROJECT_COLUMNS = ["id", "name", "type", "status", "platform", "classification", "createdAt"];
const ACCOUNT_HELP = "account id: the ACC hub id (b.<guid>, as `diazo hub list` shows it) or its bare GUID";

/** The `--region` option: checked (upper-cased) before any request; absent sends no header. */
const regionOption = () =>
  new Option(
    "--region <region>",
    `data centre of the account (${DATA_CENTRES.join(", ")}); default: the platform's, US`,
  ).argParser(parseDataCentre);

/** An option parser for a comma list whose values must be among `allowed`. */
function choices(flag: string, allowed: readonly string[]): (value: string) => string[] {
  return (value) => {
    const values = value.split(",").map((v) => v.trim()).filter(Boolean);
    const bad = values.filter((v) => !allowed.includes(v));
    if (values.length === 0 || bad.length > 0) {
      throw usageError(
        `${flag} '${value}' is not allowed`,
        `Use one or more of ${allowed.join(", ")}, separated by commas.`,
      );
    }
    return values;
  };
}

/** The account id of `--account`, checked before any request (the platform's form: no `b.`). */
function accountOption(value: string): AccAccountId {
  return accId(value);
}

/** A project id argument, checked before any request (a bare GUID; `b.<guid>` is accepted). */
function projectArgument(value: string): AccProjectId {
  return accId(value);
}

/** Registers `admin project create` (with --wait: until the project is provisioned). */
function registerCreate(project: AnyCommand, makeCtx: ContextFactory): void {
  const create = project.command("create")
    .description("create a project; the platform accepts it as pending and provisions it shortly after")
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .requiredOption("--name <name>", "project name, unique in the account (at most 255 characters)")
    .requiredOption("--type <type>", "project type, e.g. Office, Bridge, Hospital")
    .option("--classification <c>", `one of ${PROJECT_CLASSIFICATIONS.join(", ")} (default production)`)
    .option("--job-number <text>", "your own identifier for the project")
    .option("--template <projectId>", "clone this template project")
    .addOption(regionOption())
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const name = opts.name.trim();
      if (name === "" || name.length > 255) {
        throw usageError("--name must be 1 to 255 characters", "Example: --name 'Riverside Tower'");
      }
      if (opts.classification !== undefined) {
        choices("--classification", PROJECT_CLASSIFICATIONS)(opts.classification);
      }
      const templateId = opts.template === undefined ? undefined : projectArgument(opts.template);
      const timeoutMs = ctx.flags.timeout === undefined ? undefined : ctx.flags.timeout * 1000;
      const created = await runAdminProjectCreate({
        ...opts,
        name,
        templateId,
        wait: ctx.flags.wait ? { timeoutMs } : undefined,
        onAccepted: (p) => ctx.info(`Project ${p.name} (${p.id}) accepted, status ${p.status}`),
      }, ctx);
      if (ctx.flags.wait) ctx.info(`Project ${created.id} is ${created.status}`);
      await ctx.emit(created);
    });
  examples(create, [
    "diazo admin project create --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --name 'North Depot' --type Office",
    "diazo admin project create --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --name 'East Wing' --type Hospital --wait",
  ]);
}

function registerProjects(admin: AnyCommand, makeCtx: ContextFactory): void {
  const project = admin.command("project").description("list, create and inspect the projects of an account");
  examples(project, [
    "diazo admin project list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69",
    "diazo admin project users 1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081",
  ]);

  const list = project.command("list").alias("ls")
    .description("list the projects of an account, following every page")
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
    .option("--limit <n>", "stop after n projects", positiveNumber("--limit", true))
    .addOption(regionOption())
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runAdminProjectList(opts, ctx), { columns: PROJECT_COLUMNS });
    });
  examples(list, [
    "diazo admin project list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69",
    "diazo admin project list --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --status active,pending -o json",
    "diazo admin project list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --region EMEA",
  ]);

  registerCreate(project, makeCtx);

  const get = project.command("get").alias("info")
    .description("show a project")
    .argument(
      "<projectId>",
      "project id (a GUID; the data management b.<guid> form is accepted)",
      projectArgument,
    )
    .addOption(regionOption())
    .action(async (project, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runAdminProjectGet({ ...opts, project }, ctx));
    });
  examples(get, [
    "diazo admin project get 1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081",
    "diazo admin project get 1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081 --region emea",
  ]);

  const users = project.command("users")
    .description("list the users of a project, following every page")
    .argument(
      "<projectId>",
      "project id (a GUID; the data management b.<guid> form is accepted)",
      projectArgument,
    )
    .option("--limit <n>", "stop after n users", positiveNumber("--limit", true))
    .addOption(regionOption())
    .action(async (project, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const users = await runAdminProjectUsers({ ...opts, project }, ctx);
      const out = users.map((u) => ({ ...u, projectAdmin: u.accessLevels?.projectAdmin ?? false }));
      await ctx.emit(out, { columns: ["id", "name", "email", "companyName", "status", "projectAdmin"] });
    });
  examples(users, [
    "diazo admin project users 1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081",
    "diazo admin project users b.1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081 -o json --query '[].email'",
  ]);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const admin = program.command("admin")
    .description("account administration: projects and users of an account (needs `diazo auth login`)");
  examples(admin, [
    "diazo auth login --scopes account:read,account:write",
    "diazo admin project list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69",
    "diazo admin user list --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69",
  ]);
  registerProjects(admin, makeCtx);

  const user = admin.command("user").description("the member directory of an account");
  examples(user, ["diazo admin user list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69"]);
  const list = user.command("list").alias("ls")
    .description("list the users of an account, following every page")
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .option("--limit <n>", "stop after n users", positiveNumber("--limit", true))
    .addOption(regionOption())
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runAdminUserList(opts, ctx), {
        columns: ["id", "name", "email", "role", "status", "company_name"],
      });
    });
  examples(list, [
    "diazo admin user list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69",
    "diazo admin user list --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 -o csv",
    "diazo admin user list --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --region EMEA",
  ]);
}
