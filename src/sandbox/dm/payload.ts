/**
 * Reading the JSON:API bodies of data management writes as the platform does: a document whose
 * `data` has the operation's type, relationships naming typed resources, names by the platform's
 * rule; anything else is 400 `BAD_INPUT` naming the member at fault.
 */
import { dmNameProblem } from "../../aps/dm_names.ts";
import { isRecord } from "../oss/objects.ts";
import { readJson } from "../respond.ts";
import { dmBadInput } from "./jsonapi.ts";

export { isRecord };

/** A JSON object of a request body. */
export type Json = Record<string, unknown>;

/** `v` when it is an object; 400 naming `what` otherwise. */
export function objectAt(v: unknown, what: string): Json {
  if (!isRecord(v)) throw dmBadInput(`${what} must be an object`);
  return v;
}

/** `v` when it is a non-empty string; 400 naming `what` otherwise. */
export function text(v: unknown, what: string): string {
  if (typeof v !== "string" || v === "") throw dmBadInput(`${what} must be a non-empty string`);
  return v;
}

/** A name as the platform accepts it (aps/dm_names.ts); 400 otherwise. */
export function checkedName(v: unknown, what: string): string {
  const name = text(v, what);
  const problem = dmNameProblem(name);
  if (problem !== undefined) throw dmBadInput(`${what} '${name}' ${problem}`);
  return name;
}

/** The body and its `data` of type `type`. */
export async function payload(req: Request, type: string): Promise<{ body: Json; data: Json }> {
  const body = objectAt(await readJson(req), "The body");
  const data = objectAt(body.data, "data");
  if (data.type !== type) throw dmBadInput(`data.type must be '${type}'`);
  return { body, data };
}

/** `data.relationships.<name>.data` of one of `types`: its type and id. */
export function related(data: Json, name: string, types: readonly string[]): { type: string; id: string } {
  const where = `data.relationships.${name}.data`;
  const rel = objectAt(objectAt(objectAt(data.relationships, "data.relationships")[name], where).data, where);
  if (typeof rel.type !== "string" || !types.includes(rel.type)) {
    throw dmBadInput(`${where}.type must be ${types.map((t) => `'${t}'`).join(" or ")}`);
  }
  return { type: rel.type, id: text(rel.id, `${where}.id`) };
}

/** `attributes.extension.type` when the body gives one. */
export function extensionType(attributes: Json): string | undefined {
  const ext = attributes.extension;
  return isRecord(ext) && typeof ext.type === "string" ? ext.type : undefined;
}
