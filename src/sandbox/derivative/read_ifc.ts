/**
 * IFC reader (ISO 10303-21 text): the header (schema, originating system), the spatial structure
 * and building elements (IFCPROJECT, IFCSITE, IFCBUILDINGSTOREY, IFCWALL, IFCSLAB, IFCDOOR, ...)
 * with their GlobalId and Name, nested by IFCRELAGGREGATES and IFCRELCONTAINEDINSPATIALSTRUCTURE.
 */

import { CorruptModelError, objectCollector, type ParsedModel } from "./model.ts";
import { forEachStatement, parseEntity, references, splitArgs, stepString } from "./step_text.ts";

/** Rooted entities that are not objects of the model: relations, property sets, types, templates. */
const NOT_AN_OBJECT = /^IFCREL|^IFCPROPERTY|PROPERTIES$|QUANTITY$|TEMPLATE$|TYPE$|STYLE$/;
const GLOBAL_ID = /^'[0-9A-Za-z_$]{22}'$/;
/** Most parent-child links remembered; links beyond it leave their objects at the top. */
const MAX_LINKS = 200_000;
const MAX_COUNTED_TYPES = 512;

/**
 * Reads an IFC stream into a model summary; throws `CorruptModelError` on invalid input.
 * One function over 80 lines: a single streaming pass over STEP statements whose entity, link and
 * type tallies are shared by every statement; split, that state would travel between pieces.
 */
export async function readIfc(stream: ReadableStream<Uint8Array>, fileName: string): Promise<ParsedModel> {
  // long: a single streaming pass whose entity state is shared by every line
  const collector = objectCollector();
  const indexById = new Map<number, number>();
  const links: [parent: number, child: number][] = [];
  const counts = new Map<string, number>();
  const header: Record<string, string> = {};
  // An object, so that the check after the callback sees the section it reached.
  const at: { section: "start" | "header" | "between" | "data" | "end" } = { section: "start" };
  let entities = 0, objects = 0;

  const link = (parent: number, children: number[]) => {
    for (const child of children) if (links.length < MAX_LINKS) links.push([parent, child]);
  };
  const onData = (statement: string, n: number, cut: boolean) => {
    if (cut && /^#\d+\s*=\s*[A-Za-z]/.test(statement)) {
      entities++; // too long to keep whole (a huge list): counted, not read
      return;
    }
    const e = parseEntity(statement);
    if (!e) {
      throw new CorruptModelError(
        `IFC statement ${n + 1}: not an entity instance: '${statement.slice(0, 40)}'`,
      );
    }
    entities++;
    if (e.type === "IFCRELAGGREGATES" || e.type === "IFCRELNESTS") {
      const a = splitArgs(e.args);
      for (const parent of references(a[4])) link(parent, references(a[5]));
      return;
    }
    if (e.type === "IFCRELCONTAINEDINSPATIALSTRUCTURE") {
      const a = splitArgs(e.args);
      for (const parent of references(a[5])) link(parent, references(a[4]));
      return;
    }
    if (NOT_AN_OBJECT.test(e.type) || !e.args.startsWith("'")) return;
    const a = splitArgs(e.args);
    if (!GLOBAL_ID.test(a[0])) return;
    objects++;
    if (counts.has(e.type) || counts.size < MAX_COUNTED_TYPES) {
      counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
    }
    const globalId = stepString(a[0]) ?? "";
    const name = stepString(a[2]) || `${e.type} #${e.id}`;
    const item: Record<string, string> = { Type: e.type, GlobalId: globalId, "Entity Id": `#${e.id}` };
    const description = stepString(a[3]);
    const objectType = stepString(a[4]);
    if (description) item.Description = description;
    if (objectType) item.ObjectType = objectType;
    const index = collector.add({
      name,
      kind: e.type,
      externalId: globalId,
      properties: { Name: name, Item: item },
    });
    if (index !== undefined) indexById.set(e.id, index);
  };

  const { cleanEnd } = await forEachStatement(stream, (statement, n, cut) => {
    switch (at.section) {
      case "start":
        if (statement !== "ISO-10303-21") {
          throw new CorruptModelError("not an IFC file: it does not begin with ISO-10303-21;");
        }
        at.section = "between";
        return;
      case "between":
        if (statement === "HEADER") at.section = "header";
        else if (statement === "DATA") at.section = "data";
        else if (statement === "END-ISO-10303-21") at.section = "end";
        else throw new CorruptModelError(`IFC statement ${n + 1}: unexpected '${statement.slice(0, 40)}'`);
        return;
      case "header":
      case "data":
        if (statement === "ENDSEC") at.section = "between";
        else if (at.section === "header") readHeader(statement, header);
        else onData(statement, n, cut);
        return;
      case "end":
        throw new CorruptModelError("IFC file continues after END-ISO-10303-21;");
    }
  });
  if (at.section === "start") {
    throw new CorruptModelError("not an IFC file: it does not begin with ISO-10303-21;");
  }
  if (at.section !== "end" || !cleanEnd) {
    throw new CorruptModelError("IFC file ends before END-ISO-10303-21; (truncated file?)");
  }
  for (const [parent, child] of links) {
    const p = indexById.get(parent), c = indexById.get(child);
    const obj = c === undefined ? undefined : collector.objects[c];
    if (p !== undefined && obj && obj.parent === undefined && p !== c) obj.parent = p;
  }
  const totals: Record<string, number> = { Entities: entities, Objects: objects };
  for (const [type, count] of [...counts].sort(([a], [b]) => a < b ? -1 : 1)) totals[type] = count;
  const root = collector.objects.find((o) => o.kind === "IFCPROJECT");
  if (root && Object.keys(header).length > 0) root.properties["File Header"] = header;
  return { format: "ifc", fileName, objects: collector.objects, truncated: collector.truncated, totals };
}

function readHeader(statement: string, into: Record<string, string>): void {
  const m = /^([A-Z_]+)\s*\(([\s\S]*)\)$/.exec(statement);
  if (!m) return;
  const a = splitArgs(m[2]);
  if (m[1] === "FILE_SCHEMA") {
    const schema = stepString(splitArgs(a[0].replace(/^\(|\)$/g, ""))[0]);
    if (schema) into.Schema = schema;
  } else if (m[1] === "FILE_NAME") {
    const [name, time, , , preprocessor, system] = a.map(stepString);
    if (name) into["File Name"] = name;
    if (time) into["Time Stamp"] = time;
    if (preprocessor) into["Preprocessor"] = preprocessor;
    if (system) into["Originating System"] = system;
  }
}
