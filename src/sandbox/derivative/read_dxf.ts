/**
 * DXF reader (ASCII): layers from the LAYER table and from entities, entity counts per layer and
 * type in the ENTITIES section, and bounding boxes from entity coordinates.
 */

import { forEachLine, peekBytes } from "./lines.ts";
import {
  type Bounds,
  boundsText,
  CorruptModelError,
  derivedExternalId,
  emptyBounds,
  extendBounds,
  finiteBounds,
  genericModel,
  objectCollector,
  type ParsedModel,
} from "./model.ts";

const BINARY_SENTINEL = "AutoCAD Binary DXF";
const MAX_TYPES_PER_LAYER = 64;
const MAX_TYPES = 256;

interface LayerStats {
  color?: number;
  entities: number;
  types: Map<string, number>;
  bounds: Bounds;
}

/**
 * Reads a DXF stream into a model summary; throws `CorruptModelError` on invalid input.
 * One function over 80 lines: a single streaming pass whose group-code state (section, entity,
 * layer, pending vertex) is shared by every line; split, that state would travel between pieces.
 */
// long: a single streaming pass whose group-code state is shared by every line
export async function readDxf(
  input: ReadableStream<Uint8Array>,
  size: number,
  fileName: string,
): Promise<ParsedModel> {
  const { head, stream } = await peekBytes(input, BINARY_SENTINEL.length);
  if (new TextDecoder("latin1").decode(head.subarray(0, BINARY_SENTINEL.length)) === BINARY_SENTINEL) {
    await stream.cancel();
    return genericModel(fileName, size, "Binary DXF: read as a single object by the sandbox");
  }
  const collector = objectCollector();
  const layers = new Map<string, { index?: number; stats: LayerStats }>();
  const bounds = emptyBounds();
  const totalsByType = new Map<string, number>();
  let section = "";
  let code: number | undefined; // the group code awaiting its value line
  let expectSectionName = false;
  let sawEof = false;
  let entities = 0;
  // The entity being read in ENTITIES: its type, layer and points (group codes 10..18 / 20..28 / 30..38).
  let entity: { type: string; layer: string; xs: number[]; ys: number[]; zs: number[] } | undefined;
  let tableEntry: { type: string; name?: string; color?: number } | undefined;

  const layer = (name: string) => {
    let l = layers.get(name);
    if (!l) {
      const stats: LayerStats = { entities: 0, types: new Map(), bounds: emptyBounds() };
      const index = collector.add({
        name,
        kind: "Layer",
        externalId: derivedExternalId("dxf", name),
        properties: {},
      });
      l = { index, stats };
      if (index !== undefined) layers.set(name, l);
    }
    return l;
  };
  const flushEntity = () => {
    if (!entity) return;
    entities++;
    if (totalsByType.has(entity.type) || totalsByType.size < MAX_TYPES) {
      totalsByType.set(entity.type, (totalsByType.get(entity.type) ?? 0) + 1);
    }
    const l = layer(entity.layer);
    if (l?.index !== undefined) {
      l.stats.entities++;
      if (l.stats.types.has(entity.type) || l.stats.types.size < MAX_TYPES_PER_LAYER) {
        l.stats.types.set(entity.type, (l.stats.types.get(entity.type) ?? 0) + 1);
      }
    }
    for (let k = 0; k < 9; k++) {
      const x = entity.xs[k], y = entity.ys[k];
      if (x === undefined || y === undefined) continue;
      const z = entity.zs[k] ?? 0;
      extendBounds(bounds, x, y, z);
      if (l?.index !== undefined) extendBounds(l.stats.bounds, x, y, z);
    }
    entity = undefined;
  };
  const flushTableEntry = () => {
    if (tableEntry?.type === "LAYER" && tableEntry.name !== undefined) {
      const l = layer(tableEntry.name);
      if (l && tableEntry.color !== undefined) l.stats.color = tableEntry.color;
    }
    tableEntry = undefined;
  };

  const onPair = (c: number, value: string, n: number) => {
    if (c === 0) {
      flushEntity();
      flushTableEntry();
      if (value === "SECTION") {
        if (section !== "") throw new CorruptModelError(`DXF line ${n}: SECTION inside section ${section}`);
        expectSectionName = true;
      } else if (value === "ENDSEC") {
        section = "";
      } else if (value === "EOF") {
        sawEof = true;
        return false;
      } else if (section === "ENTITIES") {
        entity = { type: value, layer: "0", xs: [], ys: [], zs: [] };
      } else if (section === "TABLES" && value !== "TABLE" && value !== "ENDTAB") {
        tableEntry = { type: value };
      }
      return;
    }
    if (c === 2 && expectSectionName) {
      section = value;
      expectSectionName = false;
      return;
    }
    if (tableEntry) {
      if (c === 2) tableEntry.name = value;
      if (c === 62) tableEntry.color = Number(value);
    }
    if (entity) {
      if (c === 8) entity.layer = value;
      else if (c >= 10 && c <= 38) {
        const v = Number(value);
        if (!Number.isFinite(v)) {
          throw new CorruptModelError(`DXF line ${n}: coordinate '${value}' is not a number`);
        }
        const k = c % 10;
        if (c < 20) entity.xs[k] = v;
        else if (c < 30) entity.ys[k] = v;
        else entity.zs[k] = v;
      }
    }
  };

  const { lines } = await forEachLine(stream, (raw, n) => {
    if (code === undefined) {
      const text = raw.trim();
      const c = Number(text);
      if (text === "" || !Number.isInteger(c) || c < -5 || c > 1071) {
        throw new CorruptModelError(`DXF line ${n}: expected a group code, found '${text.slice(0, 20)}'`);
      }
      code = c;
      return;
    }
    const c = code;
    code = undefined;
    return onPair(c, raw.trim(), n);
  }, { rejectBinary: true });
  if (!sawEof) {
    throw new CorruptModelError(`DXF ends at line ${lines} without the EOF marker (truncated file?)`);
  }
  for (const [name, { index, stats }] of layers) {
    if (index === undefined) continue;
    const box = finiteBounds(stats.bounds);
    collector.objects[index].properties = {
      Name: name,
      Item: { Type: "Layer", ...(stats.color !== undefined ? { Color: stats.color } : {}) },
      Entities: Object.fromEntries([...stats.types].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)),
      Geometry: { Entities: stats.entities, ...(box ? { "Bounding Box": boundsText(box) } : {}) },
    };
    if (box) collector.objects[index].bounds = box;
  }
  const totals: Record<string, number> = { Layers: layers.size, Entities: entities };
  for (const [type, count] of totalsByType) totals[type] = count;
  return {
    format: "dxf",
    fileName,
    objects: collector.objects,
    truncated: collector.truncated,
    totals,
    bounds: finiteBounds(bounds),
  };
}
