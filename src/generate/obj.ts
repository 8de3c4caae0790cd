/**
 * Wavefront OBJ: one `o`/`g` pair per element with its material, then boxes as 8 `v`, 6 `vn` and 6
 * quad `f` records. Faces use relative (negative) indices, so that a box's text is the same
 * wherever it stands in the file and can be repeated as bytes.
 */
import { BOX_FACES, BOXES_PER_ELEMENT, corners, type Element, elementBoxes } from "./layout.ts";
import type { FormatWriter } from "./plan.ts";
import { commentBlock, type CommentStyle, coord, cycleTiles, minimumComment, repeatTo } from "./text.ts";

const RUN_BYTES = 64 * 1024;

function boxText(box: Element["box"]): string {
  const lines: string[] = [];
  for (const [x, y, z] of corners(box)) lines.push(`v ${coord(x)} ${coord(y)} ${coord(z)}\n`);
  for (const { normal } of BOX_FACES) lines.push(`vn ${normal.join(" ")}\n`);
  BOX_FACES.forEach(({ quad }, j) => {
    lines.push(`f ${quad.map((c) => `${c - 8}//${j - 6}`).join(" ")}\n`);
  });
  return lines.join("");
}

/** Bytes of one box: every box has the same length (fixed-width coordinates). */
const TILE = boxText({ min: [100, 100, 100], max: [101, 101, 101] }).length;

function head(e: Element): string {
  return `o ${e.name}\ng ${e.name}\nusemtl ${e.kind.material}\n`;
}

/** The OBJ writer of one file. */
export function objWriter(opts: { objects: number; seed: number }): FormatWriter {
  const style: CommentStyle = {
    open: "# ",
    close: "\n",
    lead: `diazo synthetic OBJ model: ${opts.objects} objects, seed ${opts.seed}, units metres`,
  };
  return {
    minPad: minimumComment(style),
    prologue: (pad) => commentBlock(pad, style),
    epilogue: () => "",
    objectSize: (e, units) => head(e).length + units * TILE,
    fit: (e, budget) => Math.max(0, Math.floor((budget - head(e).length) / TILE)),
    *objectPieces(e, units) {
      yield head(e);
      const boxes = elementBoxes(e).slice(0, Math.min(units, BOXES_PER_ELEMENT)).map(boxText).join("");
      if (units <= BOXES_PER_ELEMENT) {
        yield boxes;
        return;
      }
      yield* cycleTiles(repeatTo(new TextEncoder().encode(boxes), RUN_BYTES), TILE, units);
    },
  };
}
