/**
 * A hook's `filter`: a JsonPath filter expression over the
 * event's payload, e.g. `$[?(@.ext=='txt')]` or `$[?(@.sizeInBytes>=1048576 && @.hidden==false)]`,
 * or a list of them (stored as its JSON text) all of which must match. The sandbox understands
 * comparisons (`== != > >= < <=`) of a `@.a.b` path with a string, number, boolean or null literal,
 * a bare `@.a.b` (present and truthy), `&&` and `||`; an expression it cannot read lets every event
 * through, as no filter would.
 */

type Literal = string | number | boolean | null;

const TERM =
  /^@((?:\.[A-Za-z_$][\w$-]*)+)\s*(?:(==|!=|>=|<=|>|<)\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null))?$/;

function literal(text: string): Literal {
  if (text.startsWith("'") || text.startsWith('"')) return text.slice(1, -1).replace(/\\(.)/g, "$1");
  if (text === "true" || text === "false") return text === "true";
  if (text === "null") return null;
  return Number(text);
}

function compare(value: unknown, op: string, want: Literal): boolean {
  if (op === "==") return value === want;
  if (op === "!=") return value !== want;
  if (typeof value !== typeof want || (typeof value !== "number" && typeof value !== "string")) return false;
  const [a, b] = [value as number | string, want as number | string];
  return op === ">" ? a > b : op === ">=" ? a >= b : op === "<" ? a < b : a <= b;
}

/** Splits `text` at `sep` outside quotes. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  return [...parts, text.slice(start)];
}

/** One term against the payload; undefined when the sandbox cannot read it. */
function term(text: string, payload: Record<string, unknown>): boolean | undefined {
  const m = TERM.exec(text.trim());
  if (!m) return undefined;
  let value: unknown = payload;
  for (const key of m[1].slice(1).split(".")) {
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  }
  return m[2] === undefined ? Boolean(value) : compare(value, m[2], literal(m[3]));
}

/** One `$[?(...)]` expression; undefined when the sandbox cannot read it. */
function expression(text: string, payload: Record<string, unknown>): boolean | undefined {
  const m = /^\$\[\?\((.*)\)\]$/s.exec(text.trim());
  if (!m) return undefined;
  let any = false;
  for (const alternative of splitOutsideQuotes(m[1], "||")) {
    let all = true;
    for (const part of splitOutsideQuotes(alternative, "&&")) {
      const r = term(part, payload);
      if (r === undefined) return undefined;
      all &&= r;
    }
    any ||= all;
  }
  return any;
}

/** Whether an event's payload passes a hook's stored `filter` (no filter: every event passes). */
export function passesFilter(filter: string | undefined, payload: Record<string, unknown>): boolean {
  if (filter === undefined || filter.trim() === "") return true;
  let list: unknown = [filter];
  if (filter.trim().startsWith("[")) {
    try {
      list = JSON.parse(filter);
    } catch {
      return true;
    }
  }
  if (!Array.isArray(list)) return true;
  return list.every((f) => typeof f !== "string" || expression(f, payload) !== false);
}
