/**
 * The synthetic building every format describes: numbered elements (beams, columns, slabs, walls,
 * ...) laid out on a grid of storeys, each an axis-aligned box cut into segments. Deterministic in
 * (index, seed), so that any element can be rebuilt on demand without keeping the others.
 */

/** A kind of building element and how each format labels it. */
export interface Kind {
  name: string;
  /** IFC entity type. */
  ifc: string;
  /** IFC PredefinedType enumeration value. */
  predefined: string;
  material: string;
  /** AutoCAD colour index of its DXF layer. */
  color: number;
  /** Nominal size in metres (x, y, z). */
  size: readonly [number, number, number];
  /** Height of its base above the storey floor. */
  lift: number;
}

/** The element kinds, in the order elements cycle through them. */
export const KINDS: readonly Kind[] = [
  {
    name: "Beam",
    ifc: "IFCBEAM",
    predefined: "BEAM",
    material: "Steel",
    color: 1,
    size: [5.6, 0.3, 0.5],
    lift: 3,
  },
  {
    name: "Column",
    ifc: "IFCCOLUMN",
    predefined: "COLUMN",
    material: "Concrete",
    color: 8,
    size: [0.4, 0.4, 3.5],
    lift: 0,
  },
  {
    name: "Slab",
    ifc: "IFCSLAB",
    predefined: "FLOOR",
    material: "Concrete",
    color: 9,
    size: [5.6, 5.6, 0.25],
    lift: 0,
  },
  {
    name: "Wall",
    ifc: "IFCWALL",
    predefined: "SOLIDWALL",
    material: "Masonry",
    color: 3,
    size: [5.6, 0.2, 3],
    lift: 0.25,
  },
  {
    name: "Door",
    ifc: "IFCDOOR",
    predefined: "DOOR",
    material: "Timber",
    color: 30,
    size: [0.9, 0.1, 2.1],
    lift: 0.25,
  },
  {
    name: "Window",
    ifc: "IFCWINDOW",
    predefined: "WINDOW",
    material: "Glass",
    color: 5,
    size: [1.5, 0.1, 1.2],
    lift: 1.1,
  },
  {
    name: "Member",
    ifc: "IFCMEMBER",
    predefined: "BRACE",
    material: "Steel",
    color: 1,
    size: [3, 0.1, 0.1],
    lift: 1.5,
  },
  {
    name: "Stair",
    ifc: "IFCSTAIR",
    predefined: "STRAIGHT_RUN_STAIR",
    material: "Concrete",
    color: 8,
    size: [1.2, 3, 3.2],
    lift: 0.25,
  },
  {
    name: "Railing",
    ifc: "IFCRAILING",
    predefined: "HANDRAIL",
    material: "Steel",
    color: 1,
    size: [3, 0.05, 1],
    lift: 0.25,
  },
  {
    name: "Footing",
    ifc: "IFCFOOTING",
    predefined: "PAD_FOOTING",
    material: "Concrete",
    color: 8,
    size: [1.5, 1.5, 0.5],
    lift: 0,
  },
];

/** Distinct materials, in first-use order. */
export const MATERIALS: readonly string[] = [...new Set(KINDS.map((k) => k.material))];

/** Most objects a file may hold: names and coordinates stay within their fixed widths. */
export const MAX_OBJECTS = 100_000;

/** Segments each element's box is cut into. */
const SEGMENTS = 16;

/** Boxes of one element (see `elementBoxes`); geometry cycles through them. */
export const BOXES_PER_ELEMENT = SEGMENTS + 1;

const CELL = 6;
const GRID = 20;
const STOREY = 3.5;
const ORIGIN = 100;

/** A point or size. */
export type Vec3 = readonly [number, number, number];

/** An axis-aligned box. */
export interface Box {
  min: Vec3;
  max: Vec3;
}

/** One element of the model. */
export interface Element {
  index: number;
  /** e.g. "Beam_0001": the kind and the 1-based index, zero-padded to a width common to the file. */
  name: string;
  kind: Kind;
  box: Box;
  /** IFC GlobalId: 22 characters of the IFC base-64 alphabet. */
  guid: string;
}

/** A small, fast, seedable generator of floats in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mix(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  return Math.imul(h, 0x27d4eb2f) >>> 0;
}

const GUID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$";

/** A deterministic IFC GlobalId (the first character carries 2 bits, as in a compressed GUID). */
export function guidFor(rand: () => number): string {
  let s = GUID_ALPHABET[Math.floor(rand() * 4)];
  for (let k = 1; k < 22; k++) s += GUID_ALPHABET[Math.floor(rand() * 64)];
  return s;
}

/** Width of the number in element names for a file of `objects` elements. */
export function nameWidth(objects: number): number {
  return Math.max(4, String(objects).length);
}

/** Element `index` (0-based) of a file of `objects` elements. */
export function elementAt(index: number, objects: number, seed: number): Element {
  const kind = KINDS[index % KINDS.length];
  const rand = random(mix(seed, index));
  const size = kind.size.map((d) => d * (0.9 + 0.2 * rand())) as unknown as Vec3;
  const gx = index % GRID, gy = Math.floor(index / GRID) % GRID, storey = Math.floor(index / (GRID * GRID));
  const min: Vec3 = [
    ORIGIN + gx * CELL + rand() * Math.max(0, CELL - size[0]),
    ORIGIN + gy * CELL + rand() * Math.max(0, CELL - size[1]),
    ORIGIN + storey * STOREY + kind.lift,
  ];
  return {
    index,
    name: `${kind.name}_${String(index + 1).padStart(nameWidth(objects), "0")}`,
    kind,
    box: { min, max: [min[0] + size[0], min[1] + size[1], min[2] + size[2]] },
    guid: guidFor(rand),
  };
}

/**
 * The boxes that draw an element: first the whole element (so that a small file still shows every
 * element whole), then the element cut into equal segments along its longest side.
 */
export function elementBoxes(e: Element): Box[] {
  return [e.box, ...segments(e.box)];
}

function segments(box: Box): Box[] {
  const d = [0, 1, 2].map((k) => box.max[k] - box.min[k]);
  const axis = d.indexOf(Math.max(...d));
  const out: Box[] = [];
  for (let s = 0; s < SEGMENTS; s++) {
    const min = [...box.min], max = [...box.max];
    min[axis] = box.min[axis] + (d[axis] * s) / SEGMENTS;
    max[axis] = box.min[axis] + (d[axis] * (s + 1)) / SEGMENTS;
    out.push({ min: min as unknown as Vec3, max: max as unknown as Vec3 });
  }
  return out;
}

/** The 8 corners of a box: bit 0 picks x, bit 1 y, bit 2 z (0 = min, 1 = max). */
export function corners(box: Box): Vec3[] {
  const out: Vec3[] = [];
  for (let c = 0; c < 8; c++) {
    out.push([
      c & 1 ? box.max[0] : box.min[0],
      c & 2 ? box.max[1] : box.min[1],
      c & 4 ? box.max[2] : box.min[2],
    ]);
  }
  return out;
}

/** The 6 faces of a box as corner indices, counter-clockwise seen from outside, with outward normals. */
export const BOX_FACES: readonly { normal: Vec3; quad: readonly [number, number, number, number] }[] = [
  { normal: [0, 0, -1], quad: [0, 2, 3, 1] },
  { normal: [0, 0, 1], quad: [4, 5, 7, 6] },
  { normal: [0, -1, 0], quad: [0, 1, 5, 4] },
  { normal: [0, 1, 0], quad: [2, 6, 7, 3] },
  { normal: [-1, 0, 0], quad: [0, 4, 6, 2] },
  { normal: [1, 0, 0], quad: [1, 3, 7, 5] },
];
