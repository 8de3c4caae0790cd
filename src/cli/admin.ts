/**
 * `diazo admin ...`: account administration — projects of an account, their users, and the
 * account's member directory. Every command acts as the logged-in user (`diazo auth login`).
 * `--region` routes a command to the data centre hosting the account (no header: the platform's US).
 */
import { Option } from "@commander-js/extra-typings";
import { accId } from "../aps/dm_ids.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { DATA_CENTRES, parseDataCentre } from "../aps/regions.ts";
import {
  type AccountProject,
  createAccountProject,
  getProject,
  listAccountProjects,
  listAccountUsers,
  listProjectUsers,
} from "../services/admin.ts";
import type { Http } from "../services/http.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";
import type { Ctx } from "./context.ts";

const STATUSES = ["active", "pending", "archived", "suspended"];
const CLASSIFICATIONS = ["production", "template", "component", "sample"];
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
function accountOption(value: string): string {
  return accId(value);
}

/** An HTTP client acting as the logged-in user: without a login this fails before any request. */
function userHttp(ctx: Ctx): Promise<Http> {
  return ctx.http({ mode: "3-legged" });
}

/** Polls a created project until it is no longer pending, within the --timeout (default 120 s). */
async function waitProvisioned(
  ctx: Ctx,
  http: Http,
  project: AccountProject,
  region?: string,
): Promise<AccountProject> {
  const limitMs = (ctx.flags.timeout ?? 120) * 1000;
  const start = Date.now();
  let current = project;
  while (current.status === "pending") {
    if (Date.now() - start > limitMs) {
      throw new DiazoError("failure", {
        params: {
          detail: `project ${project.id} is still pending after ${Math.round(limitMs / 1000)} s`,
          hint:
            `Check it later with \`diazo admin project get ${project.id}\`; provisioning can take a while.`,
        },
      });
    }
    await new Promise((r) => setTimeout(r, 1000));
    current = await getProject(http, project.id, { region });
  }
  return current;
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
    .option("--status <list>", `only these statuses (${STATUSES.join(", ")})`, choices("--status", STATUSES))
    .option("--name <text>", "only names containing this text")
    .option(
      "--classification <list>",
      `only these classifications (${CLASSIFICATIONS.join(", ")})`,
      choices("--classification", CLASSIFICATIONS),
    )
    .option("--limit <n>", "stop after n projects", positiveNumber("--limit", true))
    .addOption(regionOption())
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const http = await userHttp(ctx);
      const out: AccountProject[] = [];
      for await (const p of listAccountProjects(http, opts.account, opts)) out.push(p);
      await ctx.emit(out, { columns: PROJECT_COLUMNS });
    });
  examples(list, [
    "diazo admin project list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69",
    "diazo admin project list --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --status active,pending -o json",
    "diazo admin project list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --region EMEA",
  ]);

  const create = project.command("create")
    .description("create a project; the platform accepts it as pending and provisions it shortly after")
    .requiredOption("--account <id>", ACCOUNT_HELP, accountOption)
    .requiredOption("--name <name>", "project name, unique in the account (at most 255 characters)")
    .requiredOption("--type <type>", "project type, e.g. Office, Bridge, Hospital")
    .option("--classification <c>", `one of ${CLASSIFICATIONS.join(", ")} (default production)`)
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
        choices("--classification", CLASSIFICATIONS)(opts.classification);
      }
      const templateId = opts.template === undefined ? undefined : accId(opts.template);
      const http = await userHttp(ctx);
      let created = await createAccountProject(http, opts.account, {
        name,
        type: opts.type,
        classification: opts.classification,
        jobNumber: opts.jobNumber,
        templateId,
      }, { region: opts.region });
      ctx.info(`Project ${created.name} (${created.id}) accepted, status ${created.status}`);
      if (ctx.flags.wait) {
        created = await waitProvisioned(ctx, http, created, opts.region);
        ctx.info(`Project ${created.id} is ${created.status}`);
      }
      await ctx.emit(created);
    });
  examples(create, [
    "diazo admin project create --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --name 'North Depot' --type Office",
    "diazo admin project create --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --name 'East Wing' --type Hospital --wait",
  ]);

  const get = project.command("get").alias("info")
    .description("show a project")
    .argument("<projectId>", "project id (a GUID; the data management b.<guid> form is accepted)")
    .addOption(regionOption())
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const projectId = accId(id);
      await ctx.emit(await getProject(await userHttp(ctx), projectId, { region: opts.region }));
    });
  examples(get, [
    "diazo admin project get 1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081",
    "diazo admin project get 1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081 --region emea",
  ]);

  const users = project.command("users")
    .description("list the users of a project, following every page")
    .argument("<projectId>", "project id (a GUID; the data management b.<guid> form is accepted)")
    .option("--limit <n>", "stop after n users", positiveNumber("--limit", true))
    .addOption(regionOption())
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const projectId = accId(id);
      const http = await userHttp(ctx);
      const out = [];
      for await (const u of listProjectUsers(http, projectId, opts)) {
        out.push({ ...u, projectAdmin: u.accessLevels?.projectAdmin ?? false });
      }
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
      const http = await userHttp(ctx);
      const out = [];
      for await (const u of listAccountUsers(http, opts.account, opts)) out.push(u);
      await ctx.emit(out, { columns: ["id", "name", "email", "role", "status", "company_name"] });
    });
  examples(list, [
    "diazo admin user list --account b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69",
    "diazo admin user list --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 -o csv",
    "diazo admin user list --account c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 --region EMEA",
  ]);
}
