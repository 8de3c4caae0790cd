/**
 * The contract test's runner. A plan lists every operation of one official file with either a step
 * that exercises it against an in-process sandbox or the reason the sandbox does not serve it. The
 * runner checks that the plan covers the file, runs the steps (every answer checked against the
 * file), probes each "not served" operation to prove it really is not served, and fails on any
 * problem that is neither a known defect of the file nor a known deviation of the sandbox.
 */

import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { APP, basic } from "../sandbox/helpers.ts";
import { login } from "../sandbox/oauth_helpers.ts";
import { type KnownProblem, SANDBOX_DEVIATIONS, SPEC_DEFECTS } from "./known_defects.ts";
import { loadSpec, type Problem, type Spec } from "./spec.ts";

/** How one request is sent; `json` and `form` set the body and its content type. */
export interface CallInit {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** An answer: status, headers, and the body as JSON (when it is) and as bytes. */
export interface Answer {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  json: any;
  bytes: Uint8Array;
}

/** What a step is given: the sandbox and requests that are checked against the plan's file. */
export interface Session {
  sb: Sandbox;
  /** Sends `op`'s method to `path` (with its query) and checks the answer against the file. */
  call(op: string, path: string, init?: CallInit): Promise<Answer>;
  /** Sends a request that is not checked: setup through another service, a signed URL. */
  send(method: string, url: string, init?: CallInit): Promise<Answer>;
  /** A 2-legged token of the well-known app. */
  appToken(scopes: string): Promise<string>;
  /** A 3-legged token of the sandbox user. */
  userToken(scopes: string): Promise<string>;
}

/** Exercises one operation; `w` is what the plan's setup returned. */
export type Step<W> = (s: Session, w: W) => Promise<void>;

/** Why an operation of the file is not served by the sandbox. */
export interface NotServed {
  notServed: string;
}

/** Every operation of one official file, in the order the steps run. */
export interface Plan<W> {
  /** Path below openapi/. */
  file: string;
  setup: (s: Session) => Promise<W>;
  ops: Record<string, Step<W> | NotServed>;
}

/** The operation key of a path: `METHOD /path/{template}` as in the file. */
export type OpKey = string;

const encoder = new TextEncoder();

function requestInit(method: string, init: CallInit): RequestInit {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form);
  }
  return { method, headers, body, redirect: "manual" };
}

async function read(res: Response): Promise<Answer> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  let json: unknown = undefined;
  if (bytes.length > 0 && /json/.test(res.headers.get("content-type") ?? "")) {
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      // left undefined: the check reports a JSON media type with a body that is not JSON
    }
  }
  return { status: res.status, headers: res.headers, json, bytes };
}

function matches(known: Omit<KnownProblem, "why">, file: string, p: Problem): boolean {
  return known.file === file && (known.op ?? p.op) === p.op && (known.status ?? p.status) === p.status &&
    (typeof known.match === "string" ? p.detail.includes(known.match) : known.match.test(p.detail));
}

/** The problems the files' defects explain, as known problems. */
const SKIPPED: readonly Omit<KnownProblem, "why">[] = SPEC_DEFECTS.flatMap((d) =>
  d.skip ? [{ file: d.file, ...d.skip }] : []
);

/** A path of `op` with every template parameter filled, to probe a route. */
function probePath(path: string): string {
  return path.replace(/\{[^}]+\}/g, "contract-probe");
}

/** Whether the sandbox answers `method path` as a path no route serves. */
async function notServedBySandbox(sb: Sandbox, method: string, path: string): Promise<string | undefined> {
  const res = await fetch(`${sb.url}${probePath(path)}`, { method, redirect: "manual" });
  const text = await res.text();
  if (res.status === 405) return undefined;
  if (res.status === 404 && text.includes("SANDBOX-404")) return undefined;
  return `answers ${res.status} ${text.slice(0, 120)}`;
}

/** What a session records: problems, operations called, and the first call of each with a token. */
interface SessionLog {
  problems: Problem[];
  exercised: Set<string>;
  withToken: Map<string, { path: string; init: CallInit }>;
}

function createSession(sb: Sandbox, spec: Spec, rec: SessionLog): Session {
  const send = async (method: string, url: string, init: CallInit = {}) =>
    await read(await fetch(url, requestInit(method, init)));
  return {
    sb,
    send,
    async call(op, path, init = {}) {
      const operation = spec.operations.get(op);
      if (!operation) throw new Error(`${spec.file} has no operation ${op}`);
      const answer = await send(operation.method, `${sb.url}${path}`, init);
      rec.exercised.add(op);
      if (init.token !== undefined && !rec.withToken.has(op)) rec.withToken.set(op, { path, init });
      const mediaType = (answer.headers.get("content-type") ?? "").split(";")[0].trim();
      rec.problems.push(
        ...await spec.check(op, {
          status: answer.status,
          mediaType,
          json: answer.json,
          hasBody: answer.bytes.length > 0,
        }),
      );
      return answer;
    },
    async appToken(scopes) {
      const a = await send("POST", `${sb.url}/authentication/v2/token`, {
        form: { grant_type: "client_credentials", scope: scopes },
        headers: { authorization: basic(APP.id, APP.secret) },
      });
      assert.equal(a.status, 200, `token: ${JSON.stringify(a.json)}`);
      return a.json.access_token;
    },
    async userToken(scopes) {
      return (await login(sb, scopes)).access_token;
    },
  };
}

function describe(p: Problem): string {
  return `${p.op} → ${p.status} [${p.kind}] ${p.detail}`;
}

/** Runs `plan` against a fresh sandbox and fails on what the contract does not allow. */
export async function runPlan<W>(plan: Plan<W>): Promise<void> {
  const spec = await loadSpec(plan.file);
  const inFile = [...spec.operations.keys()];
  const planned = Object.keys(plan.ops);
  const failures: string[] = [
    ...inFile.filter((op) => !planned.includes(op)).map((op) => `${op}: no entry in the plan`),
    ...planned.filter((op) => !spec.operations.has(op)).map((op) => `${op}: not an operation of the file`),
  ];
  const rec: SessionLog = { problems: [], exercised: new Set(), withToken: new Map() };
  const problems = rec.problems;
  const sb = await startTestSandbox();
  try {
    const session = createSession(sb, spec, rec);
    const world = await plan.setup(session);
    for (const [op, entry] of Object.entries(plan.ops)) {
      if (typeof entry === "function") {
        await entry(session, world);
        if (!rec.exercised.has(op)) failures.push(`${op}: its step never called it`);
      } else {
        const served = await notServedBySandbox(sb, op.split(" ")[0], op.slice(op.indexOf(" ") + 1));
        if (served) failures.push(`${op}: listed as not served (${entry.notServed}) but ${served}`);
      }
    }
    // Every operation called with a token is called once more without one: its 401 is checked too.
    for (const [op, { path, init }] of rec.withToken) {
      const a = await session.call(op, path, { ...init, token: undefined });
      if (a.status !== 401) failures.push(`${op}: without a token answers ${a.status}, not 401`);
    }
  } finally {
    await sb.close();
  }

  // Each deviation is printed once, with how many answers it affected and the first of them.
  const deviations = new Map<KnownProblem, Problem[]>();
  for (const p of problems) {
    if (SKIPPED.some((k) => matches(k, plan.file, p))) continue;
    const known = SANDBOX_DEVIATIONS.find((k) => matches(k, plan.file, p));
    if (known) deviations.set(known, [...deviations.get(known) ?? [], p]);
    else failures.push(describe(p));
  }
  for (const k of [...SKIPPED, ...SANDBOX_DEVIATIONS]) {
    if (k.file === plan.file && !problems.some((p) => matches(k, plan.file, p))) {
      failures.push(
        `known problem no longer seen, remove it from known_defects.ts: ${k.op ?? "*"} → ${k.status ?? "*"} ${
          String(k.match)
        }`,
      );
    }
  }
  for (const [k, seen] of deviations) {
    console.log(
      `known sandbox deviation (${plan.file}, ${seen.length} answer(s)): ${k.why}\n  e.g. ${
        describe(seen[0])
      }`,
    );
  }
  assert.deepEqual(failures, [], `${plan.file}:\n  ${failures.join("\n  ")}`);
}

/** The path of `op` with each `{name}` replaced by `params[name]`, URL-encoded. */
export function fill(op: OpKey, params: Record<string, string>): string {
  return op.slice(op.indexOf(" ") + 1).replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${op}: no value for {${name}}`);
    return encodeURIComponent(params[name]);
  });
}

/** What a plan's steps share: the token `t`, and path parameters by the file's names (learnt as steps run). */
export interface World extends Record<string, string> {
  t: string;
}

/** How `expect` calls: a request, a query to append, path parameters over the world's. */
export interface ExpectInit extends CallInit {
  query?: string;
  params?: Record<string, string>;
}

/** Calls `op` with the world's token and parameters, asserting the answer's `status`. */
export async function expect(
  s: Session,
  w: World,
  op: OpKey,
  status: number,
  init: ExpectInit = {},
): Promise<Answer> {
  const path = fill(op, { ...w, ...init.params }) + (init.query ?? "");
  const a = await s.call(op, path, { token: w.t, ...init });
  assert.equal(a.status, status, `${op}: ${JSON.stringify(a.json)}`);
  return a;
}

/** Bytes of `text`, for bodies. */
export function bytesOf(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}
