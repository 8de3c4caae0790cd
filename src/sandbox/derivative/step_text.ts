/**
 * ISO 10303-21 ("STEP physical file", the text form of IFC and STEP) in pieces: statements of a
 * byte stream with bounded memory, entity instances, their attribute lists and strings.
 */

import { CorruptModelError } from "./model.ts";

/** Longest statement kept whole; longer ones (huge point lists) are cut, never the stream. */
export const MAX_STATEMENT_LENGTH = 1 << 20;

const STAR = 42;

/**
 * Calls `onStatement` with each statement of the stream (text before `;`, outside strings and
 * comments, trimmed), and whether it was `cut` at `MAX_STATEMENT_LENGTH`. `onStatement` may
 * return `false` to stop.
 * Returns whether the stream ended right after a statement (only whitespace or comments after it).
 */
export async function forEachStatement(
  stream: ReadableStream<Uint8Array>,
  onStatement: (text: string, index: number, cut: boolean) => void | boolean,
): Promise<{ statements: number; cleanEnd: boolean }> {
  const decoder = new TextDecoder();
  let parts: string[] = [];
  let kept = 0;
  let inString = false, inComment = false;
  let count = 0;
  let stopped = false;
  const keep = (s: string) => {
    if (kept >= MAX_STATEMENT_LENGTH || s === "") return;
    const piece = s.length + kept > MAX_STATEMENT_LENGTH ? s.slice(0, MAX_STATEMENT_LENGTH - kept) : s;
    parts.push(piece);
    kept += piece.length;
  };
  const special = /[;'/]/g;
  const scan = (text: string) => {
    if (text.includes("\0")) throw new CorruptModelError(`binary data found in statement ${count + 1}`);
    let start = 0, i = 0;
    while (i < text.length && !stopped) {
      if (inComment) {
        const close = text.indexOf("*/", i);
        if (close < 0) return; // the comment continues in the next chunk
        inComment = false;
        i = start = close + 2;
      } else if (inString) {
        const quote = text.indexOf("'", i);
        if (quote < 0) break;
        inString = false; // a doubled quote reopens at once: same outcome
        i = quote + 1;
      } else {
        special.lastIndex = i;
        const m = special.exec(text);
        if (!m) break;
        i = m.index + 1;
        if (m[0] === "'") {
          inString = true;
        } else if (m[0] === "/") {
          if (text.charCodeAt(i) === STAR) {
            keep(text.slice(start, i - 1));
            inComment = true;
            i++;
          }
        } else {
          keep(text.slice(start, i - 1));
          const statement = parts.join("").trim();
          const cut = kept >= MAX_STATEMENT_LENGTH;
          parts = [];
          kept = 0;
          start = i;
          if (onStatement(statement, count++, cut) === false) stopped = true;
        }
      }
    }
    if (!inComment && !stopped) keep(text.slice(start));
  };
  const reader = stream.getReader();
  try {
    while (!stopped) {
      const { done, value } = await reader.read();
      if (done) break;
      scan(decoder.decode(value, { stream: true }));
    }
    if (!stopped) scan(decoder.decode());
  } finally {
    if (stopped) await reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
  return { statements: count, cleanEnd: !inString && parts.join("").trim() === "" };
}

/** An entity instance `#id=TYPE(args)`. */
export interface StepEntity {
  id: number;
  /** Upper case, e.g. `IFCWALL`. */
  type: string;
  /** The raw attribute list between the outer parentheses. */
  args: string;
}

const TYPE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The entity instance a DATA statement declares, or undefined when it is not one. */
export function parseEntity(statement: string): StepEntity | undefined {
  const eq = statement.indexOf("=");
  const paren = statement.indexOf("(", eq);
  if (statement.charCodeAt(0) !== 35 || eq < 0 || paren < 0 || !statement.endsWith(")")) return undefined;
  const id = Number(statement.slice(1, eq));
  const type = statement.slice(eq + 1, paren).trim();
  if (!Number.isInteger(id) || id < 0 || !TYPE_NAME.test(type)) return undefined;
  return { id, type: type.toUpperCase(), args: statement.slice(paren + 1, -1) };
}

/** The top-level attributes of an attribute list, raw (`'x'`, `#12`, `(#1,#2)`, `$`, `.T.`). */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  let depth = 0, inString = false, start = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (inString) {
      if (c === "'") inString = false;
    } else if (c === "'") inString = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      out.push(args.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(args.slice(start).trim());
  return out;
}

/** The entity ids an attribute refers to: `#5` or a list `(#1,#2)`. */
export function references(attr: string | undefined): number[] {
  return [...(attr ?? "").matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
}

function hexChars(hex: string, width: number): string {
  let out = "";
  for (let i = 0; i + width <= hex.length; i += width) {
    out += String.fromCodePoint(parseInt(hex.slice(i, i + width), 16));
  }
  return out;
}

/** The text of a string attribute (`'...'` with its escapes), or undefined for `$`, `*` and non-strings. */
export function stepString(attr: string | undefined): string | undefined {
  if (!attr || attr.length < 2 || !attr.startsWith("'") || !attr.endsWith("'")) return undefined;
  return attr.slice(1, -1)
    .replace(/''/g, "'")
    .replace(/\\X2\\([0-9A-Fa-f]*)\\X0\\/g, (_, h: string) => hexChars(h, 4))
    .replace(/\\X4\\([0-9A-Fa-f]*)\\X0\\/g, (_, h: string) => hexChars(h, 8))
    .replace(/\\X\\([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\S\\(.)/g, (_, c: string) => String.fromCharCode(c.charCodeAt(0) + 128))
    .replace(/\\\\/g, "\\");
}

/** A string as a STEP attribute, escaping quotes, backslashes and non-ASCII characters. */
export function toStepString(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "'") out += "''";
    else if (ch === "\\") out += "\\\\";
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (code <= 0xffff) out += `\\X2\\${code.toString(16).toUpperCase().padStart(4, "0")}\\X0\\`;
    else out += `\\X4\\${code.toString(16).toUpperCase().padStart(8, "0")}\\X0\\`;
  }
  return `'${out}'`;
}
