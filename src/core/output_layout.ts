/**
 * Which columns of a table a terminal shows and how wide (README "Output"): identifiers are never
 * cut, so on a narrow terminal the columns that give way soonest are hidden first (the caller
 * says which), and only then is free text cut. Pure arithmetic on widths: no text is drawn here.
 */
import type { ColumnRole } from "./output_columns.ts";
import { fitWidths } from "./output_fit.ts";

/** One column to lay out: its widest cell (header included), its header's width, and its role. */
export interface LayoutColumn {
  natural: number;
  header: number;
  role: ColumnRole;
}

/** The columns shown (indexes, in order), their widths, and the indexes hidden. */
export interface Layout {
  shown: number[];
  widths: number[];
  hidden: number[];
}

/** Free text is not cut below this many columns (or its header) while other columns can give way. */
export const TEXT_MIN = 20;

/** Below this a cut column says nothing: the last resort when the kept columns do not fit. */
const CUT_MIN = 3;

/** The narrowest a column may be while columns can still give way. */
function minWidth(c: LayoutColumn): number {
  return c.role.identifier ? c.natural : Math.min(c.natural, Math.max(c.header, TEXT_MIN));
}

/**
 * Lays out `cols` in `width` terminal columns with `gap` between columns. Without a width (or
 * with `wide`) every column shows whole. Otherwise columns give way (highest rank first, never an
 * essential one) until the others fit at their minimum; the room left widens the narrowest cut
 * columns first (a column hidden early comes back if it fits once a wider one is hidden). When even the essential columns do not fit, text is cut to the bone and the
 * identifiers overflow rather than being cut.
 * @example layoutColumns([{ natural: 8, header: 4, role: low }, { natural: 50, header: 2, role: id }], 40, 2)
 * // { shown: [1], widths: [50], hidden: [0] }
 */
export function layoutColumns(
  cols: readonly LayoutColumn[],
  width: number | undefined,
  gap: number,
  wide = false,
): Layout {
  const all = cols.map((_, i) => i);
  if (width === undefined || wide) return { shown: all, widths: cols.map((c) => c.natural), hidden: [] };
  const shown = [...all];
  const need = () => shown.reduce((a, i) => a + minWidth(cols[i]), 0) + gap * (shown.length - 1);
  while (need() > width) {
    const giving = shown.filter((i) => !cols[i].role.essential);
    if (giving.length === 0) break;
    const out = giving.reduce((a, b) => (cols[b].role.rank > cols[a].role.rank ? b : a));
    shown.splice(shown.indexOf(out), 1);
  }
  // A column dropped early may fit again once a wide one went after it (size back after an URN).
  for (
    const i of all.filter((i) => !shown.includes(i)).sort((a, b) => cols[a].role.rank - cols[b].role.rank)
  ) {
    shown.push(i);
    shown.sort((a, b) => a - b);
    if (need() > width) shown.splice(shown.indexOf(i), 1);
  }
  const hidden = all.filter((i) => !shown.includes(i));
  const room = width - gap * (shown.length - 1);
  return { shown, widths: widthsIn(shown.map((i) => cols[i]), room), hidden };
}

/** Widths of the shown columns in `room`: identifiers whole, the rest from their minimum up. */
function widthsIn(cols: readonly LayoutColumn[], room: number): number[] {
  const widths = cols.map(minWidth);
  let spare = room - widths.reduce((a, b) => a + b, 0);
  if (spare < 0) {
    // Too narrow even so: the cut columns share what the identifiers leave, down to CUT_MIN.
    const cut = cols.map((c, i) => (c.role.identifier ? -1 : i)).filter((i) => i >= 0);
    const idRoom = cols.reduce((a, c) => a + (c.role.identifier ? c.natural : 0), 0);
    const fitted = fitWidths(cut.map((i) => cols[i].natural), room - idRoom, CUT_MIN);
    cut.forEach((i, k) => (widths[i] = fitted[k]));
    return widths;
  }
  // The narrowest column still cut gets the next column of room, so short ones end whole first.
  while (spare > 0) {
    let pick = -1;
    for (let i = 0; i < cols.length; i++) {
      if (widths[i] < cols[i].natural && (pick < 0 || widths[i] < widths[pick])) pick = i;
    }
    if (pick < 0) break;
    widths[pick]++;
    spare--;
  }
  return widths;
}
