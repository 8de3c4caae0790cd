/**
 * The options and argument parsers the account administration commands share (`admin …` and
 * their `acc accounts|projects|create-project|add-user` spellings): the account and project ids, the
 * `--region` data centre, who a command acts as (`--as user|app`, `--user`), the API generation
 * (`--platform`), and comma lists checked against allowed values — all before any request.
 */
import { PROJECT_PLATFORMS } from "../../aps/admin.ts";
import { accId } from "../../aps/dm_ids.ts";
import type { AccAccountId, AccProjectId } from "../../aps/ids.ts";
import type { AdminCall } from "./verbs.ts";
import { DATA_CENTRES, parseDataCentre } from "../../aps/regions.ts";
import { usageError } from "../../core/errors.ts";
import type { OptionDecl } from "../../command/decl.ts";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Help of `--account`. */
export const ACCOUNT_HELP =
  "account: the ACC hub id (b.<guid>, as `diazo hub list` shows it), its bare GUID, or the hub's name; default DIAZO_HUB or `diazo config set hub`";
/** Help of a project id argument. */
export const PROJECT_HELP =
  "project: its id (a GUID; the data management b.<guid> form is accepted) or its name";
/** An account id of the examples. */
export const EXAMPLE_ACCOUNT = "b.dc6589d2-9ad1-4301-a2e8-6a1ff3b25cec";
/** An account user id of the examples. */
export const EXAMPLE_USER = "8f2d1c3b-4a5e-4f60-9b7a-1c2d3e4f5a6b";
/** A project id of the examples. */
export const EXAMPLE_PROJECT = "91f8bd44-058f-480c-adbb-861df5101b22";

/** The `--region` option: checked (upper-cased) before any request; absent sends no header. */
export const REGION_OPTION: OptionDecl = {
  flags: "--region <region>",
  description: `data centre of the account (${DATA_CENTRES.join(", ")}); default: the platform's, US`,
  parse: parseDataCentre,
  complete: "region",
};

/** An option parser for a comma list whose values must be among `allowed`. */
export function choices(flag: string, allowed: readonly string[]): (value: string) => string[] {
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
export function accountOption(value: string): AccAccountId {
  return accId(value);
}

/** A project id argument, checked before any request (a bare GUID; `b.<guid>` is accepted). */
export function projectArgument(value: string): AccProjectId {
  return accId(value);
}

/** `--region`, `--as user|app` and `--user`: the options every admin command ends with. */
export const ADMIN_OPTIONS: readonly OptionDecl[] = [
  REGION_OPTION,
  {
    flags: "--as <who>",
    description: "act as the logged-in user (default) or as the app (2-legged, account:* granted to it)",
    choices: ["user", "app"],
  },
  {
    flags: "--user <id>",
    description: "with --as app: the account user (id or Autodesk id) a write acts for (User-Id)",
  },
];

/** `--platform acc|bim360`: the API generation, instead of asking the accounts list for the account's kind. */
export const PLATFORM_OPTION: OptionDecl = {
  flags: "--platform <kind>",
  description:
    "the account's kind, acc (ACC Admin v1) or bim360 (HQ v1); default: as `diazo acc accounts` reports it",
  choices: PROJECT_PLATFORMS,
};

/** The region and who a command acts as, from its parsed options. */
export function adminCall(opts: Record<string, unknown>): AdminCall {
  return {
    region: opts.region as string | undefined,
    as: opts.as as AdminCall["as"],
    user: opts.user as string | undefined,
  };
}

/** A `--start-date`/`--end-date` parser: YYYY-MM-DD, checked before any request. */
export function dateOption(flag: string): (value: string) => string {
  return (value) => {
    if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      throw usageError(`${flag} '${value}' is not a date`, `Write it as YYYY-MM-DD, e.g. ${flag} 2025-03-01`);
    }
    return value;
  };
}
