/**
 * The platform's official OpenAPI files (openapi/ at the repository root) as the contract test reads
 * them: their operations (method + path template) and a check of one answer (status, media type,
 * body) against the response an operation declares for that status. Bodies are validated by
 * @hyperjump/json-schema in the files' own OpenAPI 3.0 dialect (nullable, discriminator, formats),
 * with `$ref`s resolved inside the registered document.
 */

import {
  registerSchema,
  setShouldValidateFormat,
  setShouldValidateSchema,
  validate,
} from "@hyperjump/json-schema/openapi-3-0";
import { BASIC } from "@hyperjump/json-schema/experimental";
import "@hyperjump/json-schema/formats";
import { parse } from "yaml";
import { SPEC_DEFECTS } from "./known_defects.ts";

// Answers are checked against the files; the files themselves are not checked against the OpenAPI
// meta-schema, which (with format assertions on) rejects their `$ref`s and says nothing of the answers.
setShouldValidateSchema(false);
setShouldValidateFormat(true);

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** The folder holding the official files. */
export const OPENAPI_DIR = new URL("../../openapi/", import.meta.url);

/** One operation of an official file. */
export interface Operation {
  /** `METHOD /path/{template}` as written in the file, e.g. `GET /oss/v2/buckets/{bucketKey}/details`. */
  key: string;
  method: string;
  path: string;
  /** JSON pointer of the operation's `responses` object. */
  responsesPointer: string;
}

/** One way an answer strays from the file: where, and what the validator said. */
export interface Problem {
  op: string;
  status: number;
  /** `status`, `media-type` or `body`. */
  kind: "status" | "media-type" | "body";
  /** What differs; for a body, one failing keyword: `<instance path>: <keyword> (<schema path>)`. */
  detail: string;
}

/** An answer as the contract test sees it. */
export interface Observed {
  status: number;
  /** The media type without parameters, or "" when the answer has none. */
  mediaType: string;
  /** The parsed body when it is JSON, else undefined. */
  json?: unknown;
  /** Whether the answer had a body at all. */
  hasBody: boolean;
}

/** A loaded official file. */
export interface Spec {
  /** Path below openapi/, e.g. `oss/oss.yaml`. */
  file: string;
  /** The operations, keyed by `METHOD /path`. */
  operations: Map<string, Operation>;
  /** Checks one answer of `op`; no problems when it keeps the contract. */
  check(op: string, answer: Observed): Promise<Problem[]>;
  /** The operation a request of `method` to `path` (a concrete path) is, if any. */
  operationOf(method: string, path: string): string | undefined;
  /** Checks a request body of `op` against its JSON `requestBody` schema; no problems when it keeps the contract. */
  checkRequest(op: string, body: unknown): Promise<string[]>;
  /** The schema type of `op`'s query parameter `name` (`array`, `string`...), undefined when not declared. */
  queryParameterType(op: string, name: string): string | undefined;
}

const escapePointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

// deno-lint-ignore no-explicit-any
type Node = any;

function at(doc: Node, pointer: string): Node {
  let node = doc;
  for (const raw of pointer.split("/").slice(1)) {
    node = node?.[raw.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

/** Follows local `$ref`s from `pointer`, returning where the referenced object lives. */
function deref(doc: Node, pointer: string): string {
  for (let i = 0; i < 20; i++) {
    const ref = at(doc, pointer)?.$ref;
    if (typeof ref !== "string") return pointer;
    if (!ref.startsWith("#/")) throw new Error(`non-local $ref ${ref} at ${pointer}`);
    pointer = ref.slice(1);
  }
  throw new Error(`$ref loop at ${pointer}`);
}

/** The declared media type an answer is checked against: its own, else the JSON ones the file names. */
function pickMediaType(declared: string[], observed: string): string | undefined {
  if (declared.includes(observed)) return observed;
  if (observed === "" || observed.endsWith("json")) {
    return declared.find((m) => m === "application/json") ?? declared.find((m) => m.endsWith("json"));
  }
  return declared.find((m) => m === "*/*");
}

interface OutputUnit {
  keyword: string;
  absoluteKeywordLocation: string;
  instanceLocation: string;
}

/** One line per failing keyword, naming the value found (or the properties missing). */
function describeErrors(errors: OutputUnit[], doc: Node, base: string, instance: unknown): string[] {
  const lines = errors.map((e) => {
    const keyword = e.keyword.split("/").at(-1);
    const schemaAt = decodeURIComponent(
      e.absoluteKeywordLocation.startsWith(base)
        ? e.absoluteKeywordLocation.slice(base.length)
        : e.absoluteKeywordLocation,
    );
    const where = e.instanceLocation.replace(/^#/, "");
    const value = at(instance, where);
    if (keyword === "required" && schemaAt.startsWith("#/")) {
      // the validator says that some are missing, not which
      const required: string[] = at(doc, schemaAt.slice(1)) ?? [];
      const missing = required.filter((k) => value === null || typeof value !== "object" || !(k in value));
      return `${where || "/"}: required (${schemaAt}), missing ${missing.join(", ")}`;
    }
    const got = JSON.stringify(value) ?? "nothing";
    return `${where || "/"}: ${keyword} (${schemaAt}), got ${got.slice(0, 80)}`;
  });
  return [...new Set(lines)];
}

const loaded = new Map<string, Promise<Spec>>();

/** Loads `file` (a path below openapi/) once per process, corrected for its known defects. */
export function loadSpec(file: string): Promise<Spec> {
  let spec = loaded.get(file);
  if (!spec) {
    spec = readSpec(file, SPEC_DEFECTS.flatMap((d) => d.file === file && d.patch ? [d.patch] : []));
    loaded.set(file, spec);
  }
  return spec;
}

async function readSpec(file: string, patches: readonly ((doc: Node) => void)[]): Promise<Spec> {
  const doc = parse(await Deno.readTextFile(new URL(file, OPENAPI_DIR)));
  for (const patch of patches) patch(doc);
  if (!/^3\.0\.\d+$/.test(String(doc.openapi))) throw new Error(`${file}: OpenAPI ${doc.openapi} is not 3.0`);
  // The registry is keyed by URI; a made-up https one, since file: URIs cannot be registered.
  const uri = `https://diazo.invalid/openapi/${file}`;
  registerSchema(doc, uri, "https://spec.openapis.org/oas/3.0/schema");

  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries<Node>(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const key = `${method.toUpperCase()} ${path}`;
      operations.set(key, {
        key,
        method: method.toUpperCase(),
        path,
        responsesPointer: `/paths/${escapePointer(path)}/${method}/responses`,
      });
    }
  }

  async function check(op: string, answer: Observed): Promise<Problem[]> {
    const operation = operations.get(op);
    if (!operation) throw new Error(`${file} has no operation ${op}`);
    const responses = at(doc, operation.responsesPointer) ?? {};
    const statusKey = [String(answer.status), `${String(answer.status)[0]}XX`, "default"].find((k) =>
      k in responses
    );
    const problem = (kind: Problem["kind"], detail: string): Problem[] => [
      { op, status: answer.status, kind, detail },
    ];
    if (!statusKey) {
      return problem(
        "status",
        `status ${answer.status} is not declared (declared: ${Object.keys(responses).join(", ")})`,
      );
    }
    const responsePointer = deref(doc, `${operation.responsesPointer}/${escapePointer(statusKey)}`);
    const content = at(doc, responsePointer).content ?? {};
    const declared = Object.keys(content);
    if (declared.length === 0 || !answer.hasBody) return []; // nothing declared, or nothing to check
    const mediaType = pickMediaType(declared, answer.mediaType);
    if (!mediaType) {
      return problem(
        "media-type",
        `media type "${answer.mediaType}" is not declared (declared: ${declared.join(", ")})`,
      );
    }
    if (!content[mediaType].schema) return [];
    if (answer.json === undefined) {
      return mediaType.endsWith("json") ? problem("body", "the body is not JSON") : [];
    }
    const schemaPointer = `${responsePointer}/content/${escapePointer(mediaType)}/schema`;
    const fragment = schemaPointer.split("/").map(encodeURIComponent).join("/");
    const output = await validate(`${uri}#${fragment}`, answer.json as never, BASIC);
    return output.valid
      ? []
      : describeErrors(output.errors ?? [], doc, uri, answer.json).flatMap((line) => problem("body", line));
  }

  function operationOf(method: string, path: string): string | undefined {
    const segments = path.split("/");
    return [...operations.values()].find((o) => {
      const t = o.path.split("/");
      return o.method === method && t.length === segments.length &&
        t.every((seg, i) => /^\{[^}]+\}$/.test(seg) ? segments[i] !== "" : seg === segments[i]);
    })?.key;
  }

  async function checkRequest(op: string, body: unknown): Promise<string[]> {
    const operation = operations.get(op);
    if (!operation) throw new Error(`${file} has no operation ${op}`);
    const requestPointer = deref(doc, operation.responsesPointer.replace(/\/responses$/, "/requestBody"));
    const content = at(doc, requestPointer)?.content ?? {};
    const mediaType = Object.keys(content).find((m) => m.endsWith("json"));
    if (!mediaType) return [`${op} declares no JSON request body`];
    const schemaPointer = `${requestPointer}/content/${escapePointer(mediaType)}/schema`;
    const fragment = schemaPointer.split("/").map(encodeURIComponent).join("/");
    const output = await validate(`${uri}#${fragment}`, body as never, BASIC);
    return output.valid ? [] : describeErrors(output.errors ?? [], doc, uri, body);
  }

  function queryParameterType(op: string, name: string): string | undefined {
    const operation = operations.get(op);
    if (!operation) throw new Error(`${file} has no operation ${op}`);
    const item = `/paths/${escapePointer(operation.path)}`;
    const declared = [
      ...(at(doc, `${item}/parameters`) ?? []).map((_: unknown, i: number) => `${item}/parameters/${i}`),
      ...(at(doc, `${item}/${operation.method.toLowerCase()}/parameters`) ?? []).map((
        _: unknown,
        i: number,
      ) => `${item}/${operation.method.toLowerCase()}/parameters/${i}`),
    ].map((pointer) => at(doc, deref(doc, pointer)));
    const param = declared.find((p) => p?.in === "query" && p?.name === name);
    if (!param) return undefined;
    return schemaType(param.schema);
  }

  function schemaType(schema: Node): string {
    while (schema?.$ref) schema = at(doc, schema.$ref.slice(1));
    return String(schema?.type ?? "");
  }

  return { file, operations, check, operationOf, checkRequest, queryParameterType };
}
