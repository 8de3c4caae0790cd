/**
 * `--query`: a JMESPath expression checked before any request and applied to a result (README.md,
 * "Output"). Loaded only in a run with --query (core/output.ts renders without it).
 */
import { usageError } from "./errors.ts";
import { legacyLiterals } from "./query_literal.ts";

/**
 * Checks a JMESPath expression without running it, so bad input fails before any request. The AWS CLI's
 * legacy literal form (`` `persistent` `` for a string) is accepted beside standard JMESPath.
 */
export async function compileQuery(expression: string): Promise<void> {
  const { compile } = await import("@jmespath-community/jmespath");
  try {
    compile(legacyLiterals(expression));
  } catch (e) {
    throw usageError(
      `invalid --query '${expression}': ${(e as Error).message}`,
      "See https://jmespath.org for the syntax, e.g. --query 'items[].bucketKey'.",
    );
  }
}

/** Applies a JMESPath expression to a JSON value. */
export async function applyQuery(value: unknown, expression: string): Promise<unknown> {
  const { search } = await import("@jmespath-community/jmespath");
  try {
    // deno-lint-ignore no-explicit-any
    return search(JSON.parse(JSON.stringify(value ?? null)) as any, legacyLiterals(expression));
  } catch (e) {
    throw usageError(`invalid --query '${expression}': ${(e as Error).message}`, "See https://jmespath.org.");
  }
}
