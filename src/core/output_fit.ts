/**
 * Fitting a table into the terminal's columns: how wide a text shows, how wide each column may
 * be, and cutting a cell with `…`. The widest columns give way first, so short columns (status,
 * size, dates) stay whole while long keys and URNs are shortened; json/yaml/csv never pass here.
 */

/** East Asian wide and emoji ranges, shown two columns wide by terminals. */
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1faff],
  [0x20000, 0x3fffd],
];

function charWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  return WIDE.some(([lo, hi]) => cp >= lo && cp <= hi) ? 2 : 1;
}

/** Columns a one-line text takes on a terminal. */
function lineWidth(line: string): number {
  let w = 0;
  for (const ch of line) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** Columns a text takes on a terminal: its widest line. */
export function displayWidth(text: string): number {
  return Math.max(0, ...text.split("\n").map(lineWidth));
}

/** `text` cut to at most `width` columns per line, ending with `…` where it was cut. */
export function truncate(text: string, width: number): string {
  return text.split("\n").map((line) => truncateLine(line, width)).join("\n");
}

function truncateLine(line: string, width: number): string {
  if (lineWidth(line) <= width) return line;
  if (width <= 0) return "";
  let out = "";
  let w = 0;
  for (const ch of line) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}

/**
 * Widths for columns of natural widths `natural` so that their sum is at most `available`: the
 * widest are lowered to one common cap (the largest that fits), the columns under it keep their
 * width, and columns never go below `min` (then the table may still overflow: too many columns).
 * @example fitWidths([5, 40, 30], 45) // [5, 20, 20]
 */
export function fitWidths(natural: readonly number[], available: number, min = 1): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return [...natural];
  const sumAt = (cap: number) => natural.reduce((a, w) => a + Math.min(w, Math.max(cap, min)), 0);
  let lo = min;
  let hi = Math.max(...natural);
  // The largest cap whose total fits (sumAt grows with cap): a binary search over widths.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (sumAt(mid) <= available) lo = mid;
    else hi = mid - 1;
  }
  const widths = natural.map((w) => Math.min(w, lo));
  // Columns cut to the cap share what is left over, one column each, leftmost first.
  let spare = available - widths.reduce((a, b) => a + b, 0);
  for (let i = 0; i < widths.length && spare > 0; i++) {
    if (widths[i] < natural[i]) {
      widths[i]++;
      spare--;
    }
  }
  return widths;
}
