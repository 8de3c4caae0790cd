/**
 * The construction-cloud record machinery: one `RecordKind` per kind (families/rfi/kind.ts, families/asset/kind.ts,
 * families/submittal/kind.ts, families/checklist/kind.ts) and the verbs written once over it — list, get, create and
 * update. `recordBody` is the one place a body is assembled from fields (flags, tool arguments) and a
 * `--from-file` body; issues (families/issue/verbs.ts) use it too. Every verb acts as the logged-in user; a body
 * file is read and checked before any request, and `update` sends only the fields whose value differs
 * from the record's.
 */
import type { AccProjectId } from "../../aps/ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import type { Http } from "../../http/http.ts";
import type { PageResult } from "../../http/pagination.ts";
import type { BodyShape, BodySource } from "../../session/body_file.ts";
import type { OpsDeps } from "../../session/deps.ts";
import type { ListPage } from "../../http/list.ts";

/** What a person scans in a table of records. */
export type ScanRow = Record<string, unknown> & { id: string };

/** One kind of construction-cloud record and the calls that reach it. */
export interface RecordKind<R, F> {
  /** How a person names one record: "RFI", "asset", ... */
  noun: string;
  /** The fields a create or update body may hold. */
  shape: BodyShape;
  /** The fields a create body must hold. */
  required: readonly string[];
  /** The table's columns, in order (keys of `row`). */
  columns: readonly string[];
  list(http: Http, project: AccProjectId, opts: F & { limit?: number }): AsyncGenerator<R>;
  page(
    http: Http,
    project: AccProjectId,
    opts: F & { limit: number; cursor?: string },
  ): Promise<PageResult<R>>;
  /** The record, or undefined when the platform answers "none" without an error. */
  get(http: Http, project: AccProjectId, id: string): Promise<R | undefined>;
  create(http: Http, project: AccProjectId, body: Record<string, unknown>): Promise<R>;
  update(http: Http, project: AccProjectId, id: string, changes: Record<string, unknown>): Promise<R>;
  /** The record's values of the body fields, to tell what an update changes. */
  values(record: R): Record<string, unknown>;
  /** The record as a table row. */
  row(record: R): ScanRow;
  /**
   * The field that holds the record's workflow status, its value, and the values the platform says
   * it may move to (from the record's permitted actions); undefined when the record does not say.
   */
  moves?(record: R): { field: string; from: string; allowed: string[] } | undefined;
}

/** Where a record verb goes: the project (bare GUID). */
export interface ProjectTarget {
  project: AccProjectId;
}

/** The fields a create or update is given: from flags, and from a body file (flags win). */
export interface RecordInput {
  fields: Record<string, unknown>;
  fromFile?: BodySource;
  /** Values of fields that neither the flags nor the file give (create only). */
  defaults?: Record<string, unknown>;
  /** The flag that sets a field (`categoryId` → `--category`), to name what a person types. */
  flagOf?: Readonly<Record<string, string>>;
}

/** An HTTP client acting as the logged-in user: without a login this fails before any request. */
export function userHttp(deps: OpsDeps): Promise<Http> {
  return deps.http({ mode: "3-legged" });
}

/**
 * Filters with `me` among the assignees replaced by the caller's Autodesk id, which `me()` reads
 * (one request, only when `me` is there).
 */
export async function withMe<F extends { assignedTo?: string[] }>(
  f: F,
  me: () => Promise<string>,
): Promise<F> {
  if (!f.assignedTo?.some((a) => a.toLowerCase() === "me")) return f;
  const id = await me();
  return { ...f, assignedTo: f.assignedTo.map((a) => a.toLowerCase() === "me" ? id : a) };
}

/** The fields of `wanted` whose value differs from the record's `have` (a missing value is null). */
export function changesFrom(
  have: Record<string, unknown>,
  wanted: Record<string, unknown>,
): Record<string, unknown> {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return Object.fromEntries(Object.entries(wanted).filter(([k, v]) => !same(have[k], v)));
}

/** `<kind> list`: every record that passes the filters, every page up to `limit`. */
export async function runRecordList<R, F>(
  kind: RecordKind<R, F>,
  opts: ProjectTarget & { filters: F; limit?: number },
  deps: OpsDeps,
): Promise<R[]> {
  const http = await userHttp(deps);
  const out: R[] = [];
  for await (const r of kind.list(http, opts.project, { ...opts.filters, limit: opts.limit })) out.push(r);
  return out;
}

/** One page of a list for the tool server: at most `limit` records from `cursor`. */
export async function runRecordPage<R, F>(
  kind: RecordKind<R, F>,
  opts: ProjectTarget & { filters: F; limit: number; cursor?: string },
  deps: OpsDeps,
): Promise<ListPage<R>> {
  const http = await userHttp(deps);
  return await kind.page(http, opts.project, { ...opts.filters, limit: opts.limit, cursor: opts.cursor });
}

async function getOr404<R, F>(
  kind: RecordKind<R, F>,
  http: Http,
  project: AccProjectId,
  id: string,
): Promise<R> {
  const record = await kind.get(http, project, id);
  if (record === undefined) {
    throw new DiazoError("not_found", { status: 404, params: { what: `${kind.noun} ${id}` } });
  }
  return record;
}

/** `<kind> get`: one record. */
export async function runRecordGet<R, F>(
  kind: RecordKind<R, F>,
  opts: ProjectTarget & { id: string },
  deps: OpsDeps,
): Promise<R> {
  return await getOr404(kind, await userHttp(deps), opts.project, opts.id);
}

/**
 * The body of a create or update: the defaults, under the body file's fields (checked against
 * `shape`), under the given fields (flags win; undefined ones are left out). Read before any request.
 */
export async function recordBody(shape: BodyShape, input: RecordInput): Promise<Record<string, unknown>> {
  let fromFile: Record<string, unknown> = {};
  if (input.fromFile) {
    // The YAML reader loads only when a file is given (heavy modules load lazily; ARCHITECTURE.md).
    const { readBodyFile } = await import("../../session/body_file.ts");
    fromFile = await readBodyFile(input.fromFile, shape);
  }
  const fields: Record<string, unknown> = { ...input.defaults, ...fromFile };
  for (const [k, v] of Object.entries(input.fields)) if (v !== undefined) fields[k] = v;
  return fields;
}

/** `<kind> create`: a new record from flags and/or a body file; required fields are checked first. */
export async function runRecordCreate<R, F>(
  kind: RecordKind<R, F>,
  opts: ProjectTarget & RecordInput,
  deps: OpsDeps,
): Promise<R> {
  const body = await recordBody(kind.shape, opts);
  const missing = kind.required.filter((f) => body[f] === undefined);
  if (missing.length > 0) {
    const named = missing.map((f) => opts.flagOf?.[f] ? `${opts.flagOf[f]} (${f})` : f);
    throw usageError(
      `a new ${kind.noun} needs ${named.join(", ")}`,
      `Pass them as flags or in --from-file (fields: ${Object.keys(kind.shape).join(", ")}).`,
    );
  }
  return await kind.create(await userHttp(deps), opts.project, body);
}

/** What an update did: the record after it, and the fields it sent (none: nothing differed, nothing sent). */
export interface UpdateResult<R> {
  record: R;
  changed: string[];
}

/** Refuses a status the record's permitted actions do not allow, before sending anything. */
function checkMove<R, F>(kind: RecordKind<R, F>, record: R, changes: Record<string, unknown>): void {
  const moves = kind.moves?.(record);
  if (!moves || changes[moves.field] === undefined) return;
  const to = String(changes[moves.field]);
  if (moves.allowed.includes(to)) return;
  throw usageError(
    `cannot move ${kind.noun} ${kind.row(record).id} from '${moves.from}' to '${to}'`,
    moves.allowed.length > 0
      ? `From '${moves.from}' it may move to: ${moves.allowed.join(", ")}.`
      : `'${moves.from}' is final: it moves no further.`,
  );
}

/** `<kind> update`: reads the record, then sends only the given fields whose value differs from it. */
export async function runRecordUpdate<R, F>(
  kind: RecordKind<R, F>,
  opts: ProjectTarget & RecordInput & { id: string },
  deps: OpsDeps,
): Promise<UpdateResult<R>> {
  const wanted = await recordBody(kind.shape, { ...opts, defaults: undefined });
  if (Object.keys(wanted).length === 0) {
    throw usageError(
      `nothing to change on ${kind.noun} ${opts.id}`,
      `Pass a field flag or --from-file (fields: ${Object.keys(kind.shape).join(", ")}).`,
    );
  }
  const http = await userHttp(deps);
  const current = await getOr404(kind, http, opts.project, opts.id);
  const changes = changesFrom(kind.values(current), wanted);
  const changed = Object.keys(changes);
  if (changed.length === 0) return { record: current, changed };
  checkMove(kind, current, changes);
  return { record: await kind.update(http, opts.project, opts.id, changes), changed };
}
