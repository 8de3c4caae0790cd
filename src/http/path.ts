/**
 * Request paths built from input: every interpolated value becomes exactly ONE path segment, so a
 * key such as `a/b`, `?x` or `..` can never address another resource.
 *
 * `.` and `..` are special: WHATWG URL parsing — which `fetch` applies — removes them even when
 * percent-encoded (`%2E%2E` too), so `DELETE …/objects/..` would reach the bucket. They are refused
 * before any request instead of being sent somewhere else.
 */
import { usageError } from "../core/errors.ts";

/** Dot segments; an input `%2E` is safe, as its `%` is encoded (`%252E`). */
const DOT_SEGMENT = /^\.{1,2}$/;

/** One path segment from input: percent-encoded so that it stays one segment; `.`/`..` refused (exit 2). */
export function segment(value: string): string {
  if (DOT_SEGMENT.test(value)) {
    throw usageError(
      `'${value}' cannot be used as a name in a request path: URLs drop '.' and '..' segments`,
      "Such an object or resource cannot be addressed over HTTP; use another name.",
    );
  }
  return encodeURIComponent(value);
}

/** A request path whose every interpolated value is one encoded segment: apiPath`/a/${x}/b`. */
export function apiPath(strings: TemplateStringsArray, ...values: readonly string[]): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? segment(values[i]) : ""), "");
}
