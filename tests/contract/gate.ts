/**
 * The contract gate: every request the test suite sent to its sandboxes (the lines that
 * tests/e2e/test_sandbox.ts appends to the file `DIAZO_CONTRACT_LOG` names) is an operation of an
 * official file in openapi/ (method and path template) or of the one list of real operations
 * without a file (undocumented.ts); a query parameter is sent more than once only where the file
 * types it as an array. `.ci/run` runs the suite with the log and then this module on it:
 * `deno run -A tests/contract/gate.ts <log>` prints every problem and exits 1 on any.
 *
 * The sandbox's own control API (`/_sandbox/`) is not the platform and is not checked.
 */

import { loadSpec, type Spec } from "./spec.ts";
import { undocumentedOperation } from "./undocumented.ts";

/** The official files, below openapi/. */
export const OFFICIAL_FILES = [
  "authentication/authentication.yaml",
  "secureserviceaccount/secureServiceAccount.yaml",
  "oss/oss.yaml",
  "modelderivative/modelderivative.yaml",
  "datamanagement/datamanagement.yaml",
  "webhooks/webhooks.yaml",
  "construction/accountadmin/accountadmin.yaml",
  "construction/issues/Issues.yaml",
] as const;

/** One request as the gate reads it. */
export interface GateRequest {
  method: string;
  path: string;
  status: number;
  /** Query parameters sent more than once. */
  repeated: string[];
}

/**
 * Requests tests send on purpose to show how the sandbox answers what no route serves, never a
 * request of diazo's own: the contract test's probes of operations the sandbox does not serve
 * (tests/contract/contract.ts), and these, each with the test that sends it.
 */
const DELIBERATE_PROBE = /(^|\/)contract-probe(\/|$)/;
const DELIBERATE: ReadonlySet<string> = new Set([
  "GET /no/such/route", // tests/sandbox/control_test.ts: the 404 of no route, and its log line
  "GET /nope", // tests/sandbox/control_test.ts: a request no route serves is logged
  "PUT /oss/v2/buckets", // tests/sandbox/control_test.ts: a method no route serves
  "GET /oss/v2/buckets/a/b/c", // tests/sandbox/control_test.ts: a path too deep for any route
  "GET /no/such", // tests/e2e/api_test.ts: `diazo api` reports the platform's 404
]);

/** Every problem of `requests`: a request that no file and no listed operation knows, a repeated parameter. */
export async function gateProblems(requests: readonly GateRequest[]): Promise<string[]> {
  const specs: Spec[] = await Promise.all(OFFICIAL_FILES.map((f) => loadSpec(f)));
  const problems = new Set<string>();
  for (const r of requests) {
    if (r.path.startsWith("/_sandbox/") || DELIBERATE_PROBE.test(r.path)) continue;
    if (DELIBERATE.has(`${r.method} ${r.path}`)) continue;
    const spec = specs.find((s) => s.operationOf(r.method, r.path));
    if (spec) {
      const op = spec.operationOf(r.method, r.path)!;
      for (const name of r.repeated) {
        if (spec.queryParameterType(op, name) !== "array") {
          problems.add(
            `${r.method} ${r.path}: \`${name}\` sent more than once; ${spec.file} (${op}) takes one`,
          );
        }
      }
      continue;
    }
    if (undocumentedOperation(r.method, r.path)) continue;
    problems.add(
      `${r.method} ${r.path} (answered ${r.status}): no operation of the official files in openapi/ and not ` +
        "in tests/contract/undocumented.ts",
    );
  }
  return [...problems];
}

/** Reads the gate's log: one JSON request per line. */
export async function readGateLog(file: string): Promise<GateRequest[]> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line) as GateRequest);
}

if (import.meta.main) {
  const file = Deno.args[0];
  const requests = await readGateLog(file);
  const problems = await gateProblems(requests);
  for (const p of problems) console.error(`contract gate: ${p}`);
  console.log(`contract gate: ${requests.length} distinct requests checked, ${problems.length} problems`);
  if (requests.length === 0) {
    console.error("contract gate: the log is empty: did the suite run with DIAZO_CONTRACT_LOG?");
    Deno.exit(1);
  }
  Deno.exit(problems.length > 0 ? 1 : 0);
}
