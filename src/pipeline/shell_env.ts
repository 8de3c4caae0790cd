/**
 * What a shell step receives (README.md "Pipelines"): values only in its environment, never in its text.
 * Every variable is `DIAZO_VAR_<name>`; every earlier step with an `id` is `DIAZO_STEP_<id>_RESULT` (its
 * result as JSON), `DIAZO_STEP_<id>_EXIT_CODE` and `DIAZO_STEP_<id>_STATUS`.
 */
import { type Reference, referenceText, type StepOutcome } from "./interpolate.ts";
import type { StepField } from "./interpolate.ts";

/** The largest result put in the environment, bytes of JSON (Linux refuses one variable over 128 KiB). */
export const MAX_ENV_RESULT_BYTES = 96 * 1024;

const SUFFIX: Record<StepField, string> = { result: "RESULT", exit_code: "EXIT_CODE", status: "STATUS" };

/** The environment variable of a pipeline variable. */
export function varEnvName(name: string): string {
  return `DIAZO_VAR_${name}`;
}

/** The environment variable of a step's field (`DIAZO_STEP_<id>_RESULT`, `_EXIT_CODE`, `_STATUS`). */
export function stepEnvName(id: string, field: StepField): string {
  return `DIAZO_STEP_${id}_${SUFFIX[field]}`;
}

/** A step result that was too large for the environment. */
export interface OmittedResult {
  name: string;
  bytes: number;
}

/** The environment of a shell step: the variables and the outcomes of the steps with an id so far. */
export function shellEnv(
  vars: Readonly<Record<string, string>>,
  steps: ReadonlyMap<string, StepOutcome>,
): { env: Record<string, string>; omitted: OmittedResult[] } {
  const env: Record<string, string> = {};
  const omitted: OmittedResult[] = [];
  for (const [name, value] of Object.entries(vars)) env[varEnvName(name)] = value;
  const encoder = new TextEncoder();
  for (const [id, outcome] of steps) {
    env[stepEnvName(id, "exit_code")] = String(outcome.exitCode);
    env[stepEnvName(id, "status")] = outcome.status;
    const json = JSON.stringify(outcome.result ?? null);
    const bytes = json.length * 3 <= MAX_ENV_RESULT_BYTES ? json.length : encoder.encode(json).length;
    if (bytes > MAX_ENV_RESULT_BYTES) omitted.push({ name: stepEnvName(id, "result"), bytes });
    else env[stepEnvName(id, "result")] = json;
  }
  return { env, omitted };
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** How a POSIX shell reads the variable `name` (through printenv when it is not a shell identifier). */
function readForm(name: string): string {
  return SHELL_NAME.test(name) ? `"$${name}"` : `"$(printenv '${name}')"`;
}

/** A jq filter for a result path, e.g. `.[0].objectKey`. */
function jqPath(path: readonly (string | number)[]): string {
  const text = path.map((p) =>
    typeof p === "number" ? `[${p}]` : SHELL_NAME.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`
  ).join("");
  return text.startsWith("[") ? `.${text}` : text;
}

/** What a shell step writes instead of `${{ <ref> }}`, for the problem that refuses it. */
export function shellEnvHint(ref: Reference): string {
  const instead = `instead of \${{ ${referenceText(ref)} }}`;
  if (ref.kind === "var") return `${readForm(varEnvName(ref.name))} ${instead}`;
  const form = readForm(stepEnvName(ref.id, ref.field));
  if (ref.field !== "result") return `${form} ${instead}`;
  if (ref.path.length === 0) return `${form} (the step's result as JSON) ${instead}`;
  const filter = jqPath(ref.path).replaceAll("'", `'\\''`);
  return `${form}, the step's result as JSON (e.g. printf %s ${form} | jq -r '${filter}') ${instead}`;
}
