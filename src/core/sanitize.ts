/**
 * Text from the platform made safe to show a person: an object key or a message
 * holding ESC, BEL, an OSC sequence or a C1 control would otherwise recolour, retitle or rewrite
 * the terminal it is printed on. Every such character is shown as a visible escape instead; json
 * and yaml keep the exact text, since a program reads those.
 */

/** The short escapes a person recognises; the other controls are shown as `\xHH`. */
const NAMED: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
  "\x1b": "\\e",
};

// C0 controls, DEL and C1 controls (U+0080–U+009F: CSI and OSC in 8-bit terminals), the bidi
// controls (U+061C, U+200E-F, U+202A-E, U+2066-9: they reorder what follows, so a key can read
// as another) and the line and paragraph separators U+2028-9 (a line break to some terminals).
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
// The same, except the line feed that separates the lines of one message.
const CONTROL_BUT_LF =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  if (NAMED[c]) return NAMED[c];
  if (code > 0xff) return `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `\\x${code.toString(16).toUpperCase().padStart(2, "0")}`;
}

/**
 * `s` with every control character shown as a visible escape; with `keepLines`, line feeds stay
 * (a multi-line message of diazo's own).
 * @example visible("a\x1b[31mb") // "a\\e[31mb"
 */
export function visible(s: string, opts: { keepLines?: boolean } = {}): string {
  return s.replace(opts.keepLines ? CONTROL_BUT_LF : CONTROL, escapeOne);
}
