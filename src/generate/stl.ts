/**
 * ASCII STL: one `solid <name>` ... `endsolid <name>` per element, its boxes as triangle facets.
 * STL has no comments, so exact sizes come from trailing zeros added to coordinates of the first
 * solid ("123.456" and "123.45600" are the same number to every reader).
 */
import { BOX_FACES, BOXES_PER_ELEMENT, corners, type Element, elementBoxes, type Vec3 } from "./layout.ts";
import type { FormatWriter } from "./plan.ts";
import { coord, cycleTiles, repeatTo } from "./text.ts";

const RUN_BYTES = 64 * 1024;
/** Facets of one box. */
const FACETS_PER_BOX = 12;

/** A normal component in exactly 6 characters, so that every facet has the same length. */
function normalText(n: number): string {
  return n < 0 ? n.toFixed(3) : n.toFixed(4);
}

function facetText(normal: Vec3, points: Vec3[], zeros: (slot: number) => string): string {
  let s = `  facet normal ${normal.map(normalText).join(" ")}\n    outer loop\n`;
  points.forEach((p, k) => {
    s += `      vertex ${p.map((v, axis) => coord(v) + zeros(k * 3 + axis)).join(" ")}\n`;
  });
  return s + "    endloop\n  endfacet\n";
}

/** The facets of an element's boxes, in order; `zeros(f, slot)` is extra text after a coordinate. */
function facets(
  e: Element,
  count: number,
  zeros: (facet: number, slot: number) => string = () => "",
): string {
  const out: string[] = [];
  for (const box of elementBoxes(e)) {
    const c = corners(box);
    for (const { normal, quad } of BOX_FACES) {
      for (const tri of [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]]) {
        if (out.length === count) return out.join("");
        const f = out.length;
        out.push(facetText(normal, tri.map((k) => c[k]), (slot) => zeros(f, slot)));
      }
    }
  }
  return out.join("");
}

/** Bytes of one facet: all facets have the same length. */
const FACET = facetText([0, 0, -1], [[100, 100, 100], [100, 100, 100], [100, 100, 100]], () => "").length;
/** Facets of one element before its geometry repeats. */
const VARIANTS = FACETS_PER_BOX * BOXES_PER_ELEMENT;

/** The STL writer of one file. */
export function stlWriter(): FormatWriter {
  const head = (e: Element) => `solid ${e.name}\n`;
  const tail = (e: Element) => `endsolid ${e.name}\n`;
  return {
    minPad: 0,
    padInGeometry: true,
    prologue: () => "",
    epilogue: () => "",
    objectSize: (e, units) => head(e).length + tail(e).length + units * FACET,
    fit: (e, budget) => Math.max(0, Math.floor((budget - head(e).length - tail(e).length) / FACET)),
    *objectPieces(e, units, pad) {
      yield head(e);
      let left = units;
      if (pad > 0) {
        // Spread the padding over the coordinates of the first box's facets.
        const padded = Math.min(units, FACETS_PER_BOX);
        const slots = padded * 9;
        const zeros = (f: number, slot: number) => {
          const k = f * 9 + slot;
          return "0".repeat(Math.floor(pad / slots) + (k < pad % slots ? 1 : 0));
        };
        yield facets(e, padded, zeros);
        left -= padded;
      }
      if (left <= VARIANTS) {
        if (left > 0) yield facets(e, left);
      } else {
        const run = repeatTo(new TextEncoder().encode(facets(e, VARIANTS)), RUN_BYTES);
        yield* cycleTiles(run, FACET, left);
      }
      yield tail(e);
    },
  };
}
