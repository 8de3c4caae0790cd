/**
 * `properties:query` of Model Derivative over a property collection: one filter (`$in`, `$eq`,
 * `$prefix`, `$between`, `$le`, `$ge`, `$contains`), field selection with `*` wildcards, and
 * offset/limit pagination.
 */

import type { PropertyValue } from "./model.ts";
import type { PropertyItem } from "./tree.ts";

/** Largest page. */
export const MAX_QUERY_LIMIT = 1000;
const DEFAULT_LIMIT = 20;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A page of query results. */
export interface QueryPage {
  pagination: { limit: number; offset: number; totalResults: number };
  collection: Json[];
}

/** The value at a field path (`name`, `objectid`, `properties.Geometry.Faces`) of an item. */
function valueAt(item: PropertyItem, path: string): unknown {
  if (path === "objectid" || path === "name" || path === "externalId") return item[path];
  if (!path.startsWith("properties.")) return undefined;
  let node: unknown = item.properties;
  for (const key of path.slice("properties.".length).split(".")) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

function numeric(v: unknown): number | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A predicate for the query object, or what is wrong with it. */
function compileFilter(query: unknown): ((item: PropertyItem) => boolean) | string {
  if (query === undefined) return () => true;
  if (!isObject(query) || Object.keys(query).length !== 1) return "'query' must hold exactly one operator";
  const [op, args] = Object.entries(query)[0];
  if (!Array.isArray(args) || args.length < 2 || typeof args[0] !== "string") {
    return `'${op}' takes an array: a field name, then values`;
  }
  const [field, ...values] = args as [string, ...unknown[]];
  switch (op) {
    case "$in":
      if (field !== "objectid" && field !== "externalId") return "'$in' matches 'objectid' or 'externalId'";
      return (item) => values.some((v) => v === item[field]);
    case "$eq":
      return (item) => {
        const v = valueAt(item, field);
        const a = numeric(v), b = numeric(values[0]);
        return a !== undefined && b !== undefined && typeof values[0] === "number"
          ? a === b
          : v === values[0];
      };
    case "$prefix":
      return (item) => String(valueAt(item, field) ?? "").startsWith(String(values[0]));
    case "$contains": {
      const words = String(values[0]).toLowerCase().split(/\s+/).filter(Boolean);
      return (item) => {
        const text = String(valueAt(item, field) ?? "").toLowerCase();
        return words.every((w) => text.includes(w));
      };
    }
    case "$between":
    case "$le":
    case "$ge": {
      const bounds = values.map(numeric);
      if (bounds.some((b) => b === undefined) || (op === "$between" && bounds.length !== 2)) {
        return `'${op}' compares numbers`;
      }
      const [lo, hi] = bounds as number[];
      return (item) => {
        const n = numeric(valueAt(item, field));
        if (n === undefined) return false;
        return op === "$between" ? n >= lo && n <= hi : op === "$le" ? n <= lo : n >= lo;
      };
    }
    default:
      return `Unknown query operator '${op}'`;
  }
}

function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
}

function project(item: PropertyItem, patterns: RegExp[]): Json {
  const matches = (path: string) => patterns.some((p) => p.test(path));
  const out: Json = {};
  for (const key of ["objectid", "name", "externalId"] as const) if (matches(key)) out[key] = item[key];
  const props: Record<string, PropertyValue | Record<string, PropertyValue>> = {};
  for (const [category, value] of Object.entries(item.properties)) {
    const path = `properties.${category}`;
    if (matches("properties") || matches(path)) {
      props[category] = value;
    } else if (isObject(value)) {
      const picked = Object.fromEntries(Object.entries(value).filter(([k]) => matches(`${path}.${k}`)));
      if (Object.keys(picked).length > 0) props[category] = picked as Record<string, PropertyValue>;
    }
  }
  if (Object.keys(props).length > 0) out.properties = props;
  return out;
}

/** Runs a `properties:query` request body over `items`; a string says what is wrong with the body. */
export function queryProperties(items: PropertyItem[], body: unknown): QueryPage | string {
  if (body !== undefined && !isObject(body)) return "The request body must be a JSON object";
  const b = body ?? {};
  const filter = compileFilter(b.query);
  if (typeof filter === "string") return filter;
  const fields = b.fields;
  if (fields !== undefined && (!Array.isArray(fields) || fields.some((f) => typeof f !== "string"))) {
    return "'fields' must be a list of field names";
  }
  const page = isObject(b.pagination) ? b.pagination : {};
  const offset = page.offset ?? 0, limit = page.limit ?? DEFAULT_LIMIT;
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
    return "'pagination.offset' must be an integer >= 0";
  }
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    return `'pagination.limit' must be an integer from 1 to ${MAX_QUERY_LIMIT}`;
  }
  if (b.payload !== undefined && b.payload !== "text" && b.payload !== "unit") {
    return "'payload' must be 'text' or 'unit'";
  }
  const matched = items.filter(filter);
  const patterns = (fields as string[] | undefined)?.map(glob);
  const collection = matched.slice(offset, offset + limit).map((item) =>
    patterns ? project(item, patterns) : { ...item } as Json
  );
  return { pagination: { limit, offset, totalResults: matched.length }, collection };
}
