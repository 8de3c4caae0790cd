/**
 * ASCII DXF (R12, AC1009): a HEADER, a TABLES section with one layer per element, and ENTITIES:
 * per element a LINE along its axis and its boxes as 3DFACEs on its layer. Padding is comments
 * (group 999) at the top of the file, where AutoCAD itself writes them.
 */
import { BOX_FACES, BOXES_PER_ELEMENT, corners, type Element, elementAt, elementBoxes } from "./layout.ts";
import type { FormatWriter } from "./plan.ts";
import { commentBlock, type CommentStyle, coord, cycleTiles, minimumComment, repeatTo } from "./text.ts";

const RUN_BYTES = 64 * 1024;

/** A group code and its value, as two lines. */
function pair(code: number, value: string | number): string {
  return `${String(code).padStart(3)}\n${value}\n`;
}

function header(): string {
  return pair(0, "SECTION") + pair(2, "HEADER") + pair(9, "$ACADVER") + pair(1, "AC1009") + pair(0, "ENDSEC");
}

function tables(objects: number, seed: number): string {
  const parts = [
    pair(0, "SECTION"),
    pair(2, "TABLES"),
    pair(0, "TABLE"),
    pair(2, "LTYPE"),
    pair(70, 1),
    pair(0, "LTYPE") + pair(2, "CONTINUOUS") + pair(70, 0) + pair(3, "Solid line") + pair(72, 65) +
    pair(73, 0) + pair(40, "0.0"),
    pair(0, "ENDTAB"),
    pair(0, "TABLE"),
    pair(2, "LAYER"),
    pair(70, objects),
  ];
  for (let i = 0; i < objects; i++) {
    const e = elementAt(i, objects, seed);
    parts.push(
      pair(0, "LAYER") + pair(2, e.name) + pair(70, 0) + pair(62, e.kind.color) + pair(6, "CONTINUOUS"),
    );
  }
  parts.push(pair(0, "ENDTAB"), pair(0, "ENDSEC"), pair(0, "SECTION"), pair(2, "ENTITIES"));
  return parts.join("");
}

/** The element's axis as a LINE (its first entity). */
function axisLine(e: Element): string {
  const { min, max } = e.box;
  const d = [0, 1, 2].map((k) => max[k] - min[k]);
  const axis = d.indexOf(Math.max(...d));
  const mid = [0, 1, 2].map((k) => (min[k] + max[k]) / 2);
  const start = mid.map((v, k) => (k === axis ? min[k] : v));
  const end = mid.map((v, k) => (k === axis ? max[k] : v));
  return pair(0, "LINE") + pair(8, e.name) +
    start.map((v, k) => pair(10 + k * 10, coord(v))).join("") +
    end.map((v, k) => pair(11 + k * 10, coord(v))).join("");
}

function boxFaces(layer: string, box: Element["box"]): string {
  const c = corners(box);
  let s = "";
  for (const { quad } of BOX_FACES) {
    s += pair(0, "3DFACE") + pair(8, layer);
    quad.forEach((corner, k) => {
      const [x, y, z] = c[corner];
      s += pair(10 + k, coord(x)) + pair(20 + k, coord(y)) + pair(30 + k, coord(z));
    });
  }
  return s;
}

/** The DXF writer of one file. */
export function dxfWriter(opts: { objects: number; seed: number }): FormatWriter {
  const style: CommentStyle = {
    open: pair(999, "").slice(0, -1),
    close: "\n",
    lead: `diazo synthetic DXF model: ${opts.objects} layers, seed ${opts.seed}, units metres`,
  };
  let fixed: string | undefined;
  const body = () => fixed ??= header() + tables(opts.objects, opts.seed);
  // Lengths depend only on the layer name's length (coordinates have a fixed width).
  const unitBox = { min: [100, 100, 100], max: [101, 101, 101] } as const;
  const lengths = new Map<number, { line: number; tile: number }>();
  const sizes = (e: Element) => {
    let l = lengths.get(e.name.length);
    if (!l) {
      const probe = { ...e, box: unitBox };
      l = { line: axisLine(probe).length, tile: boxFaces(e.name, unitBox).length };
      lengths.set(e.name.length, l);
    }
    return l;
  };
  const tile = (e: Element) => sizes(e).tile;
  return {
    minPad: minimumComment(style),
    prologue: (pad) => commentBlock(pad, style) + body(),
    epilogue: () => pair(0, "ENDSEC") + pair(0, "EOF"),
    objectSize: (e, units) => sizes(e).line + units * tile(e),
    fit: (e, budget) => Math.max(0, Math.floor((budget - sizes(e).line) / tile(e))),
    *objectPieces(e, units) {
      yield axisLine(e);
      const boxes = elementBoxes(e).slice(0, Math.min(units, BOXES_PER_ELEMENT)).map((b) =>
        boxFaces(e.name, b)
      ).join("");
      if (units <= BOXES_PER_ELEMENT) {
        yield boxes;
        return;
      }
      yield* cycleTiles(repeatTo(new TextEncoder().encode(boxes), RUN_BYTES), tile(e), units);
    },
  };
}
