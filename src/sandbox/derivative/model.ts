/**
 * What a model reader keeps of a design: a bounded list of named objects with their properties,
 * whole-model counts and the bounding box, never the geometry itself.
 */

/** Most objects a reader keeps; further objects still count in the totals. */
export const MAX_OBJECTS = 10_000;

/** An axis-aligned bounding box. */
export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** A property value as the properties endpoint shows it. */
export type PropertyValue = string | number;

/** One node of the model's object tree. */
export interface ModelObject {
  name: string;
  /** What it is in the source format, e.g. `IFCWALL`, `Group`, `Layer`, `Solid`. */
  kind: string;
  /** Stable id from the source (IFC GlobalId) or derived from the object's place in the file. */
  externalId: string;
  /** Index of the parent object in `ParsedModel.objects`; absent for top-level objects. */
  parent?: number;
  /** Property categories (`{"Geometry": {"Faces": 12}}`) or plain values. */
  properties: Record<string, PropertyValue | Record<string, PropertyValue>>;
  /** Extent of the object's own geometry, when the format has coordinates. */
  bounds?: Bounds;
}

/** The summary of a parsed design. */
export interface ParsedModel {
  /** The reader that produced it. */
  format: "obj" | "stl" | "dxf" | "ifc" | "generic";
  /** The design's file name, e.g. `house.obj`. */
  fileName: string;
  objects: ModelObject[];
  /** True when objects were left out because of `MAX_OBJECTS`. */
  truncated: boolean;
  /** Whole-model counts, e.g. `{"Vertices": 8, "Faces": 6}`. */
  totals: Record<string, number>;
  bounds?: Bounds;
}

/** Thrown by a reader whose input is not a valid file of its format. */
export class CorruptModelError extends Error {
  override name = "CorruptModelError";
}

/** An empty box that any point extends. */
export function emptyBounds(): Bounds {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

/** Grows `b` to include the point. */
export function extendBounds(b: Bounds, x: number, y: number, z: number): void {
  if (x < b.min[0]) b.min[0] = x;
  if (y < b.min[1]) b.min[1] = y;
  if (z < b.min[2]) b.min[2] = z;
  if (x > b.max[0]) b.max[0] = x;
  if (y > b.max[1]) b.max[1] = y;
  if (z > b.max[2]) b.max[2] = z;
}

/** The box when it holds at least one point, else undefined. */
export function finiteBounds(b: Bounds): Bounds | undefined {
  return b.min.every(Number.isFinite) && b.max.every(Number.isFinite)
    ? { min: [...b.min], max: [...b.max] }
    : undefined;
}

/** The box as a property value, e.g. `"-1, -1, 0 .. 1, 1, 2"`. */
export function boundsText(b: Bounds): string {
  const fmt = (p: number[]) => p.map((v) => Number(v.toPrecision(6))).join(", ");
  return `${fmt(b.min)} .. ${fmt(b.max)}`;
}

/** A stable 22-character id for an object derived from where it sits in the file. */
export function derivedExternalId(...parts: (string | number)[]): string {
  // FNV-1a style mixing over the parts, spread over 22 characters of the IFC GlobalId alphabet.
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$";
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x5bd1e995;
  for (const ch of parts.join("\u0000")) {
    const c = ch.codePointAt(0) ?? 0;
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  let out = "";
  let a = h1, b = h2;
  for (let i = 0; i < 22; i++) {
    out += alphabet[(a ^ (b >>> 3)) & 63];
    a = Math.imul(a ^ (a >>> 13), 0x85ebca6b) >>> 0;
    b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35) >>> 0;
  }
  return out;
}

/** Collects objects up to `MAX_OBJECTS`, remembering whether any were left out. */
export interface ObjectCollector {
  objects: ModelObject[];
  truncated: boolean;
  /** Adds an object and returns its index, or undefined when the cap is reached. */
  add(obj: ModelObject): number | undefined;
}

/** A collector with the given cap. */
export function objectCollector(cap = MAX_OBJECTS): ObjectCollector {
  const c: ObjectCollector = {
    objects: [],
    truncated: false,
    add(obj) {
      if (c.objects.length >= cap) {
        c.truncated = true;
        return undefined;
      }
      c.objects.push(obj);
      return c.objects.length - 1;
    },
  };
  return c;
}

/** The summary of a design the sandbox does not read: one object standing for the whole file. */
export function genericModel(fileName: string, size: number, note?: string): ParsedModel {
  const name = fileName.replace(/\.[^.]*$/, "") || fileName;
  return {
    format: "generic",
    fileName,
    objects: [{
      name,
      kind: "Model",
      externalId: derivedExternalId("generic", fileName),
      properties: {
        Name: name,
        Item: { Type: "Model", ...(note ? { Note: note } : {}) },
        "File Properties": { "File Name": fileName, "File Size": size },
      },
    }],
    truncated: false,
    totals: { Objects: 1 },
  };
}
