/**
 * Picks the reader for a design by its file extension: OBJ, STL, DXF and IFC are read; any other
 * design stands as one generic object without being read.
 */

import { fileExtension } from "./formats.ts";
import { CorruptModelError, genericModel, type ParsedModel } from "./model.ts";
import { readDxf } from "./read_dxf.ts";
import { readIfc } from "./read_ifc.ts";
import { readObj } from "./read_obj.ts";
import { readStl } from "./read_stl.ts";

/** Extensions the sandbox reads for their content. */
export const READABLE_EXTENSIONS = ["obj", "stl", "dxf", "ifc"] as const;

/**
 * Summarises the design `fileName` of `size` bytes, opening its content with `open` only when a
 * reader needs it; throws `CorruptModelError` when the content is not valid for its extension.
 */
export async function readModel(
  fileName: string,
  size: number,
  open: () => ReadableStream<Uint8Array>,
): Promise<ParsedModel> {
  if (size === 0) throw new CorruptModelError("the design file is empty");
  switch (fileExtension(fileName)) {
    case "obj":
      return await readObj(open(), fileName);
    case "stl":
      return await readStl(open(), size, fileName);
    case "dxf":
      return await readDxf(open(), size, fileName);
    case "ifc":
      return await readIfc(open(), fileName);
    default:
      return genericModel(fileName, size);
  }
}
