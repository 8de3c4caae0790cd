/**
 * Exact sizing shared by every format: each element gets an even share of the bytes left after the
 * fixed parts, holds as many geometry units as fit in it, hands what is left to the next element,
 * and what is left at the end becomes padding. The sizes come from arithmetic, not from a dry run.
 */
import { type Element, elementAt } from "./layout.ts";
import type { Piece } from "./text.ts";

/** What a format tells the planner and the writer, for one file. */
export interface FormatWriter {
  /** Padding bytes every file has (the smallest comment block). */
  readonly minPad: number;
  /** True when the padding goes into the first element's geometry instead of the prologue. */
  readonly padInGeometry?: boolean;
  /** Everything before the first element, with `pad` bytes of padding in it (unless padInGeometry). */
  prologue(pad: number): Piece;
  /** Everything after the last element. */
  epilogue(): Piece;
  /** Bytes of element `e` written with `units` geometry units (at least 1). */
  objectSize(e: Element, units: number): number;
  /** The most units whose objectSize fits in `budget` bytes (0 when not even one fits). */
  fit(e: Element, budget: number): number;
  /** The bytes of element `e` with `units` units; `pad` extra bytes when padInGeometry (first element only). */
  objectPieces(e: Element, units: number, pad: number): Iterable<Piece>;
}

/** How many units each element holds, and how many padding bytes the file has. */
export interface Plan {
  units: number[];
  pad: number;
}

/** Bytes of the smallest file this writer makes: one unit per element, the least padding. */
export function minimumBytes(w: FormatWriter, objects: number, seed: number): number {
  let total = w.prologue(w.padInGeometry ? 0 : w.minPad).length + w.epilogue().length;
  for (let i = 0; i < objects; i++) total += w.objectSize(elementAt(i, objects, seed), 1);
  return total + (w.padInGeometry ? w.minPad : 0);
}

/** Plans a file of exactly `size` bytes (at least `minimumBytes`). */
export function planFile(w: FormatWriter, objects: number, seed: number, size: number): Plan {
  const minimum = minimumBytes(w, objects, seed);
  if (size < minimum) throw new RangeError(`${size} bytes is below the minimum of ${minimum}`);
  const spare = size - minimum;
  const units: number[] = [];
  let carry = 0;
  for (let i = 0; i < objects; i++) {
    const e = elementAt(i, objects, seed);
    const budget = w.objectSize(e, 1) + Math.floor(spare / objects) + (i < spare % objects ? 1 : 0) + carry;
    const n = Math.max(1, w.fit(e, budget));
    units.push(n);
    carry = budget - w.objectSize(e, n);
  }
  return { units, pad: w.minPad + carry };
}

/** The pieces of the planned file, in order. */
export function* filePieces(w: FormatWriter, plan: Plan, seed: number): Generator<Piece> {
  const objects = plan.units.length;
  yield w.prologue(w.padInGeometry ? 0 : plan.pad);
  for (let i = 0; i < objects; i++) {
    const pad = w.padInGeometry && i === 0 ? plan.pad : 0;
    yield* w.objectPieces(elementAt(i, objects, seed), plan.units[i], pad);
  }
  yield w.epilogue();
}
