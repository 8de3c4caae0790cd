/**
 * `admin user import --from-file users.csv`: adds every row of a CSV file to an account's member
 * directory, one HQ `POST users` per row, resumably. The file is checked whole before any request
 * (columns, e-mails, duplicates: a usage error naming the line). Each row added (201) or already in
 * the account (409) is recorded at once in a state file (families/admin/import_state.ts, written
 * atomically), so that a run stopped by a failure, Ctrl-C or a kill continues on the next run with
 * no duplicate and no loss; a re-run reports the rows an earlier run did.
 */
import path from "node:path";
import { EMAIL_PATTERN, IMPORT_COLUMNS } from "../../aps/admin.ts";
import type { AccAccountId } from "../../aps/ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import { readInputText } from "../../core/input_file.ts";
import { type AccountUserInput, createAccountUser } from "./api_hq.ts";
import { type ImportState, importStatePath, readImportState, writeImportState } from "./import_state.ts";
import { type AdminCall, adminClient } from "./account.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** One row of a users file. */
export interface ImportRow {
  /** 1-based line number in the file. */
  line: number;
  user: AccountUserInput;
}

/** Splits CSV text into records of fields (RFC 4180 quotes), each with the line it starts on. */
function csvRecords(text: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0].trim() !== "") out.push({ line: start, fields });
    fields = [];
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"', i++);
      else if (c === '"') quoted = false;
      else field += c;
      if (c === "\n") line++;
    } else if (c === '"') quoted = true;
    else if (c === ",") (fields.push(field), field = "");
    else if (c === "\n") (end(), line++, start = line);
    else if (c !== "\r") field += c;
  }
  if (field !== "" || fields.length > 0) end();
  return out;
}

/** Parses and checks a users file: a header of IMPORT_COLUMNS, then one user per line; usage errors name `name:line`. */
export function parseUsersCsv(text: string, name: string): ImportRow[] {
  const records = csvRecords(text.replace(/^\uFEFF/, ""));
  if (records.length === 0) {
    throw usageError(
      `${name} is empty`,
      `The first line names the columns, e.g. ${IMPORT_COLUMNS.join(",")}.`,
    );
  }
  const header = records[0].fields.map((h) => h.trim().toLowerCase());
  const unknown = header.find((h) => !IMPORT_COLUMNS.includes(h));
  if (unknown !== undefined || !header.includes("email")) {
    throw usageError(
      unknown !== undefined ? `${name}:1: unknown column '${unknown}'` : `${name}:1: no 'email' column`,
      `The columns are ${IMPORT_COLUMNS.join(", ")}; email is required.`,
    );
  }
  const seen = new Map<string, number>();
  return records.slice(1).map(({ line, fields }) => {
    if (fields.length !== header.length) {
      throw usageError(
        `${name}:${line}: ${fields.length} fields, the header has ${header.length}`,
        'Quote a value holding a comma: "Smith, Jr."',
      );
    }
    const user: Record<string, string> = {};
    header.forEach((h, i) => {
      if (fields[i].trim() !== "") user[h] = fields[i].trim();
    });
    const email = (user.email ?? "").toLowerCase();
    if (!EMAIL_PATTERN.test(email)) {
      throw usageError(
        `${name}:${line}: '${user.email ?? ""}' is not an e-mail address`,
        "Each row needs an email.",
      );
    }
    const first = seen.get(email);
    if (first !== undefined) {
      throw usageError(`${name}:${line}: ${email} is already on line ${first}`, "List each user once.");
    }
    seen.set(email, line);
    return { line, user: { ...user, email } as AccountUserInput };
  });
}

/** What became of one row of an import. */
export interface ImportResult {
  line: number;
  email: string;
  /** created, existed (the account had it: 409), done-before (an earlier run did it), failed. */
  result: "created" | "existed" | "done-before" | "failed";
  id?: string;
  error?: string;
}

/** The report of an import. */
export interface ImportReport {
  total: number;
  created: number;
  existed: number;
  doneBefore: number;
  failed: number;
  state: string;
  rows: ImportResult[];
}

/** The errors that end a run (the next run continues); any other error is one row's own. */
const STOPPING = new Set(["server_error", "rate_limited", "timeout", "network", "request_failed"]);

/** Adds one row; its result, or throws when the run must stop. */
async function importRow(
  post: (user: AccountUserInput) => Promise<{ id: string }>,
  row: ImportRow,
): Promise<ImportResult> {
  const base = { line: row.line, email: row.user.email };
  try {
    return { ...base, result: "created", id: (await post(row.user)).id };
  } catch (e) {
    if (!(e instanceof DiazoError)) throw e;
    if (e.code === "conflict") return { ...base, result: "existed" };
    if (e.code === "bad_request") return { ...base, result: "failed", error: e.message };
    throw e;
  }
}

/** `admin user import`: adds the file's users to the account, continuing an earlier run of the same file. */
export async function runAdminUserImport(
  opts: AdminCall & {
    account: AccAccountId;
    file: string;
    /** Called after each row with the rows done and the total (progress lines on stderr). */
    onRow?: (done: number, total: number) => void;
  },
  deps: OpsDeps,
): Promise<ImportReport> {
  const file = path.resolve(deps.cwd, opts.file);
  let text: string;
  try {
    text = (await readInputText(file, "csv", { shown: opts.file }))!;
  } catch (e) {
    if (e instanceof DiazoError) throw e;
    throw new DiazoError("file_not_found", { params: { file: opts.file } });
  }
  const rows = parseUsersCsv(text, opts.file);
  const { http, call } = await adminClient(deps, opts, true);
  const id = {
    baseUrl: http.baseUrl,
    account: opts.account,
    region: opts.region ?? "US",
    file,
  };
  const statePath = importStatePath(deps.stateDir, id);
  const state: ImportState = {
    ...(await readImportState(deps.stateDir, id) ?? { ...id, rows: {} }),
    total: rows.length,
  };
  const results: ImportResult[] = [];
  // A resent row answers 409 if its first attempt was stored: it is then recorded as existing.
  const post = (u: AccountUserInput) => createAccountUser(http, opts.account, u, { ...call, retry: true });
  for (const row of rows) {
    const before = state.rows[row.user.email];
    let r: ImportResult;
    if (before) {
      r = { line: row.line, email: row.user.email, result: "done-before", id: before.id };
    } else {
      try {
        r = await importRow(post, row);
      } catch (e) {
        const done = rows.filter((x) => state.rows[x.user.email]).length;
        if (e instanceof DiazoError && STOPPING.has(e.code)) {
          throw new DiazoError("import_interrupted", {
            params: { done, total: rows.length, detail: e.message, state: statePath },
            status: e.status,
            cause: e,
          });
        }
        throw e;
      }
      if (r.result !== "failed") {
        state.rows[row.user.email] = {
          id: r.id,
          result: r.result as "created" | "existed",
          at: new Date().toISOString(),
        };
        await writeImportState(deps.stateDir, state);
      }
    }
    results.push(r);
    opts.onRow?.(results.length, rows.length);
  }
  const count = (k: ImportResult["result"]) => results.filter((r) => r.result === k).length;
  return {
    total: rows.length,
    created: count("created"),
    existed: count("existed"),
    doneBefore: count("done-before"),
    failed: count("failed"),
    state: statePath,
    rows: results,
  };
}
