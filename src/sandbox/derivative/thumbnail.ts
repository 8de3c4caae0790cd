/**
 * Thumbnails of a parsed model: a plan view (X right, Y up) of its objects' boxes over a soft
 * background, as a PNG of the requested size.
 */

import { encodePng } from "./binary.ts";
import { exportBoxes } from "./exporters.ts";
import type { ParsedModel } from "./model.ts";

/** Thumbnail sizes of the platform. */
export const THUMBNAIL_SIZES = [100, 200, 400] as const;

const PALETTE: readonly [number, number, number][] = [
  [52, 101, 164],
  [78, 154, 6],
  [206, 92, 0],
  [117, 80, 123],
  [196, 160, 0],
  [193, 39, 45],
  [6, 152, 154],
  [85, 87, 83],
];
const MAX_DRAWN = 500;

/** A `size` x `size` PNG picturing the model (a plain frame for a model without objects). */
export function renderThumbnail(model: ParsedModel | undefined, size: number): Uint8Array<ArrayBuffer> {
  const rgb = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const shade = 236 - Math.round((y / size) * 28);
    for (let x = 0; x < size; x++) rgb.set([shade, shade + 4, shade + 10], (y * size + x) * 3);
  }
  const boxes = model ? exportBoxes(model).slice(0, MAX_DRAWN) : [];
  if (boxes.length > 0) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const b of boxes) {
      x0 = Math.min(x0, b.bounds.min[0]);
      y0 = Math.min(y0, b.bounds.min[1]);
      x1 = Math.max(x1, b.bounds.max[0]);
      y1 = Math.max(y1, b.bounds.max[1]);
    }
    const span = Math.max(x1 - x0, y1 - y0) || 1;
    const scale = (size * 0.8) / span;
    const offX = (size - (x1 - x0) * scale) / 2, offY = (size - (y1 - y0) * scale) / 2;
    boxes.forEach((b, i) => {
      const color = PALETTE[i % PALETTE.length];
      const left = Math.floor(offX + (b.bounds.min[0] - x0) * scale);
      const right = Math.max(left + 1, Math.ceil(offX + (b.bounds.max[0] - x0) * scale));
      const top = Math.floor(size - offY - (b.bounds.max[1] - y0) * scale);
      const bottom = Math.max(top + 1, Math.ceil(size - offY - (b.bounds.min[1] - y0) * scale));
      for (let y = Math.max(0, top); y < Math.min(size, bottom); y++) {
        for (let x = Math.max(0, left); x < Math.min(size, right); x++) {
          const edge = x === left || x === right - 1 || y === top || y === bottom - 1;
          rgb.set(edge ? color.map((c) => Math.round(c * 0.6)) : color, (y * size + x) * 3);
        }
      }
    });
  }
  return encodePng(size, size, (x, y) => {
    const at = (y * size + x) * 3;
    return [rgb[at], rgb[at + 1], rgb[at + 2]];
  });
}
